import { describe, expect, it } from 'vitest';
import { addressLines, formatAddress, mapLink } from './address.ts';

describe('formatAddress (issue 26: the whole delivery address)', () => {
  const stored = { city: 'Sacramento', zip: '95814', address: '900 J St', apt_ste: '2B', distance: 0.4 };

  it('shows street, apartment, city and ZIP of an order’s stored address', () => {
    expect(formatAddress(stored)).toBe('900 J St, Apt 2B, Sacramento 95814');
    expect(addressLines(stored)).toEqual({ street: ['900 J St', 'Apt 2B'], locality: 'Sacramento 95814' });
  });

  it('adds the state when the address has one, and reads the stored JSON text', () => {
    expect(formatAddress(JSON.stringify({ ...stored, region: 'CA', apt_ste: null }))).toBe('900 J St, Sacramento, CA 95814');
  });

  it('keeps a suite written out as it is', () => {
    expect(formatAddress({ ...stored, apt_ste: 'Suite 200' })).toBe('900 J St, Suite 200, Sacramento 95814');
  });

  it('reads the account shape too (street lines, house number, postcode)', () => {
    expect(formatAddress({ street: ['12 Oak Ave', 'Back door'], city: 'Davis', postcode: '95616', region: 'California' })).toBe(
      '12 Oak Ave, Back door, Davis, California 95616',
    );
    expect(formatAddress({ street: 'Main St', house_number: '5', city: 'Davis', postcode: '95616' })).toBe('Main St 5, Davis 95616');
  });

  it('has nothing to show for nothing', () => {
    expect(formatAddress(null)).toBeNull();
    expect(formatAddress('')).toBeNull();
    expect(formatAddress({})).toBeNull();
    expect(formatAddress(42)).toBeNull();
    expect(formatAddress('  5 Elm St, Davis ')).toBe('5 Elm St, Davis');
  });
});

describe('mapLink', () => {
  it('searches the building (street, city, ZIP) on a map', () => {
    const url = new URL(mapLink({ city: 'Sacramento', zip: '95814', address: '900 J St', apt_ste: '2B' })!);
    expect(url.origin + url.pathname).toBe('https://www.google.com/maps/search/');
    expect(url.searchParams.get('api')).toBe('1');
    expect(url.searchParams.get('query')).toBe('900 J St, Sacramento 95814');
  });

  it('encodes what the shopper typed, and is null without an address', () => {
    expect(mapLink({ address: '1 A&B Rd #3', city: 'X', zip: '1' })).toContain('query=1%20A%26B%20Rd%20%233%2C%20X%201');
    expect(mapLink(null)).toBeNull();
  });
});
