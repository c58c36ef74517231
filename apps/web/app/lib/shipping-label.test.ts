import { describe, expect, it } from 'vitest';
import { ZONE_MESSAGES, type DeliveryZone } from '@verdant/domain';
import { shippingLabel, type ShippingLabelInput } from './shipping-label.ts';

const zones: ShippingLabelInput['zones'] = [
  { name: 'Midtown', type: 'zips', fee_incl_tax: 500, minimum_order: 5000, free_over: null, eta_minutes: 45, zips: ['95814'] },
  { name: 'Suburbs', type: 'zips', fee_incl_tax: 800, minimum_order: 0, free_over: null, eta_minutes: 90, zips: ['95820'] },
];
const base: ShippingLabelInput = { method: 'delivery', zip: '', delivery: null, orderValue: 6000, shipping: 0, zones };

describe('the checkout Shipping line (issue 26)', () => {
  it('is never "Free" for a delivery whose ZIP the store has not accepted', () => {
    expect(shippingLabel({ ...base, method: 'pickup' })).toBe('Free');
    expect(shippingLabel(base)).toBe('Enter your ZIP');
    expect(shippingLabel({ ...base, zip: '95814' })).toBe('Enter your ZIP');
    // An answer for another ZIP does not count for the one typed now.
    expect(shippingLabel({ ...base, zip: '95820', delivery: { zip: '95814', too_far: false, zone: { name: 'Midtown', fee_incl_tax: 500, free: false } } })).toBe('Enter your ZIP');
  });

  it('shows the zone’s real fee once the ZIP is accepted', () => {
    const accepted = { zip: '95814', too_far: false, zone: { name: 'Midtown', fee_incl_tax: 500, free: false } };
    expect(shippingLabel({ ...base, zip: '95814', delivery: accepted })).toBe('$5.00 incl. tax');
    expect(shippingLabel({ ...base, zip: '95814', delivery: accepted, shipping: 500 })).toBe('$5.00 incl. tax');
    expect(shippingLabel({ ...base, zip: '95814', delivery: { ...accepted, zone: { ...accepted.zone, free: true } } })).toBe('Free');
  });

  it('says delivery is not available below the zone’s minimum', () => {
    const refusal = ZONE_MESSAGES.belowMinimum(zones[0] as unknown as DeliveryZone, 1201);
    expect(shippingLabel({ ...base, zip: '95814', orderValue: 3799, zipError: refusal })).toBe('Delivery not available below $50.00');
    const accepted = { zip: '95814', too_far: false, zone: { name: 'Midtown', fee_incl_tax: 500, free: false } };
    expect(shippingLabel({ ...base, zip: '95814', delivery: accepted, orderValue: 4999 })).toBe('Delivery not available below $50.00');
    expect(shippingLabel({ ...base, zip: '95814', zipError: 'We don’t deliver to ZIP 95814' })).toBe('Enter your ZIP');
  });
});
