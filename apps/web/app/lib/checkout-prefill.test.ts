import { describe, expect, it } from 'vitest';
import type { Address } from '../api/user.ts';
import { EMPTY_CHECKOUT } from '../state/checkout-store.ts';
import { checkoutAddressOf, personalPrefill, shippingPrefill } from './checkout-prefill.ts';

const address = (over: Partial<Address>): Address => ({
  id: 1, title: 'Home', firstname: null, lastname: null, street: '1001 K Street', house_number: '4', apt_ste: '2B', city: 'Sacramento', region: null,
  postcode: '95814', country_id: 'US', phone: null, lat: null, lng: null, is_default: false, ...over,
});
const user = { firstname: 'Ana', lastname: 'Reyes', email: 'ana@example.com', phone: '+19165550142', addresses: [] as Address[] };

describe('checkout pre-fill (issue 11)', () => {
  it('fills the empty personal fields from the account, the phone written for people', () => {
    expect(personalPrefill(EMPTY_CHECKOUT.personal, user)).toEqual({ firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0142' });
    expect(personalPrefill({ ...EMPTY_CHECKOUT.personal, firstName: 'Typed' }, user).firstName).toBeUndefined();
  });

  it('a phone account without a name: nothing made up (never the phone as a name), or the names on its address', () => {
    const phoneOnly = { ...user, firstname: null, lastname: null, email: null };
    expect(personalPrefill(EMPTY_CHECKOUT.personal, phoneOnly)).toEqual({ phone: '(916) 555-0142' });
    const withAddress = { ...phoneOnly, addresses: [address({ firstname: 'Al', lastname: 'Diaz', is_default: true })] };
    expect(personalPrefill(EMPTY_CHECKOUT.personal, withAddress)).toMatchObject({ firstName: 'Al', lastName: 'Diaz' });
  });

  it('fills an empty delivery address from the default address (or the only one), never over a typed one', () => {
    const two = { addresses: [address({ id: 1 }), address({ id: 2, street: '2 Capitol Mall', house_number: null, apt_ste: null, postcode: '95816', is_default: true })] };
    expect(checkoutAddressOf(two)?.id).toBe(2);
    expect(shippingPrefill(EMPTY_CHECKOUT.shipping, two)).toEqual({ address: '2 Capitol Mall', apt_ste: '', city: 'Sacramento', zip: '95816' });
    expect(shippingPrefill(EMPTY_CHECKOUT.shipping, { addresses: [address({})] })).toEqual({ address: '1001 K Street 4', apt_ste: '2B', city: 'Sacramento', zip: '95814' });
    expect(shippingPrefill({ ...EMPTY_CHECKOUT.shipping, zip: '95811' }, two)).toEqual({});
    // Two addresses, none the default: which one is not guessed.
    expect(shippingPrefill(EMPTY_CHECKOUT.shipping, { addresses: [address({ id: 1 }), address({ id: 2 })] })).toEqual({});
  });
});
