import { describe, expect, it } from 'vitest';
import { DELIVERY_MESSAGES, deliveryCheck, distanceMiles, normalizeZip } from './delivery.ts';

describe('delivery area', () => {
  const downtown = { lat: 38.5816, lng: -121.4944, radiusMiles: 10 };

  it('reads a 5-digit ZIP, with or without +4', () => {
    expect(normalizeZip(' 95814 ')).toBe('95814');
    expect(normalizeZip('95814-1234')).toBe('95814');
    expect(normalizeZip('9581')).toBeNull();
    expect(normalizeZip('95814x')).toBeNull();
    expect(normalizeZip('')).toBeNull();
  });

  it('judges the radius inclusively, and no radius as no delivery', () => {
    expect(distanceMiles(downtown, downtown)).toBe(0);
    expect(deliveryCheck(downtown, { lat: 38.7256, lng: -121.4944 })).toEqual({ distance: 9.95, too_far: false });
    expect(deliveryCheck(downtown, { lat: 38.7276, lng: -121.4944 })).toEqual({ distance: 10.09, too_far: true });
    expect(deliveryCheck({ ...downtown, radiusMiles: 0 }, downtown).too_far).toBe(true);
  });

  it('says why and offers a way out', () => {
    expect(DELIVERY_MESSAGES.tooFar('10001', 2499.7, 10)).toBe('ZIP 10001 is 2499.7 miles from the store, outside its 10-mile delivery area. Choose pickup or another address.');
    expect(DELIVERY_MESSAGES.unknownZip('00000')).toMatch(/^We can’t check delivery to ZIP 00000: .* Choose pickup/);
  });
});
