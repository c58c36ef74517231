import { describe, expect, it } from 'vitest';
import { deliveryAreaSentence, deliveryAreaText, deliveryOptionLabel, publicDelivery, zonesNeedDetail, zoneSummary } from './public.ts';
import type { DeliveryZone } from './schema.ts';

const tier = (name: string, max: number, fee: number): DeliveryZone => ({
  type: 'distance',
  name,
  fee: fee - 100,
  fee_incl_tax: fee,
  minimum_order: 0,
  free_over: null,
  eta_minutes: 60,
  min_miles: 0,
  max_miles: max,
});

describe('delivery zones as the shopper is told them', () => {
  it('a store of distance tiers keeps the spec’s "within N miles" and one fee reads as today', () => {
    const d = publicDelivery([tier('Within 10 miles', 10, 500)]);
    expect(d).toEqual({
      zones: [
        { name: 'Within 10 miles', type: 'distance', fee_incl_tax: 500, minimum_order: 0, free_over: null, eta_minutes: 60, max_miles: 10 },
      ],
      radius_miles: 10,
    });
    expect(deliveryOptionLabel(d)).toBe('Delivery — $5.00 incl. tax');
    expect(deliveryAreaText(d)).toBe('Within 10 miles of the store');
    expect(deliveryAreaSentence(d)).toBe('We deliver within 10 miles of the store.');
    expect(zonesNeedDetail(d)).toBe(false);
    expect(zoneSummary(d.zones[0])).toBe('Within 10 miles: $5.00 incl. tax, about 60 min');
  });

  it('named zones with different fees, a minimum, a threshold; shapes stay on the server', () => {
    const polygon: DeliveryZone = {
      type: 'polygon',
      name: 'Land Park',
      fee: 600,
      fee_incl_tax: 700,
      minimum_order: 4000,
      free_over: 10000,
      eta_minutes: 150,
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-121.5, 38.5],
            [-121.4, 38.5],
            [-121.4, 38.6],
            [-121.5, 38.5],
          ],
        ],
      },
    };
    const zips: DeliveryZone = {
      type: 'zips',
      name: 'Midtown',
      fee: 250,
      fee_incl_tax: 300,
      minimum_order: 0,
      free_over: null,
      eta_minutes: 45,
      zips: ['95811', '95816'],
    };
    const d = publicDelivery([zips, tier('Farther out', 15, 900), polygon]);
    expect(d.radius_miles).toBeNull();
    expect(JSON.stringify(d)).not.toContain('coordinates');
    expect(d.zones[0].zips).toEqual(['95811', '95816']);
    expect(deliveryOptionLabel(d)).toBe('Delivery — from $3.00 incl. tax');
    expect(deliveryAreaText(d)).toBe('To Midtown, Farther out and Land Park');
    expect(deliveryAreaSentence(d)).toBe('We deliver to Midtown, Farther out and Land Park.');
    expect(zonesNeedDetail(d)).toBe(true);
    expect(zoneSummary(d.zones[2])).toBe('Land Park: $7.00 incl. tax, minimum order $40.00, free from $100.00, about 3 h');
  });

  it('no zones: no delivery to offer; free zones say so', () => {
    const none = publicDelivery([]);
    expect(deliveryOptionLabel(none)).toBeNull();
    expect(deliveryAreaText(none)).toBeNull();
    expect(deliveryAreaSentence(none)).toBeNull();
    const free = publicDelivery([{ ...tier('Near', 3, 0), fee: 0 }]);
    expect(deliveryOptionLabel(free)).toBe('Delivery — Free');
    expect(zoneSummary(free.zones[0])).toBe('Near: free delivery, about 60 min');
  });
});
