import { describe, expect, it } from 'vitest';
import { tripLimitPresetFor, tripLimitProblems, tripLimitsOfPreset, tripLimitsSchema } from './delivery-trips.ts';

describe('delivery trip limits', () => {
  it('takes the preset of the store state: California $10,000 of goods, Michigan 15 oz, else none', () => {
    expect(tripLimitPresetFor('CA')).toBe('CA');
    expect(tripLimitPresetFor('mi')).toBe('MI');
    expect(tripLimitPresetFor('NJ')).toBe('none');
    expect(tripLimitPresetFor(undefined)).toBe('none');
    expect(tripLimitsOfPreset('CA')).toEqual({ preset: 'CA', max_goods_cents: 1_000_000, max_weight_grams: null, max_orders: null, drivers_see_customer_phone: false });
    expect(tripLimitsOfPreset('MI').max_weight_grams).toBe(425.24);
    for (const p of ['CA', 'MI', 'none', 'custom'] as const) expect(tripLimitsSchema.safeParse(tripLimitsOfPreset(p)).success).toBe(true);
  });

  it('names each limit the load is over and by how much; exactly at a limit is allowed', () => {
    const ca = tripLimitsOfPreset('CA');
    expect(tripLimitProblems(ca, { goodsCents: 1_000_000, weightGrams: 900, orders: 40 })).toEqual([]);
    expect(tripLimitProblems(ca, { goodsCents: 1_041_250, weightGrams: 0, orders: 1 })).toEqual([
      { limit: 'goods', over: 41_250, message: 'Goods on this trip are $10,412.50, $412.50 over the $10,000.00 limit.' },
    ]);
    const mi = tripLimitsOfPreset('MI');
    // 0.1 + 0.2 style sums must not refuse a load that is exactly the limit.
    expect(tripLimitProblems(mi, { goodsCents: 0, weightGrams: 425.24, orders: 3 })).toEqual([]);
    expect(tripLimitProblems(mi, { goodsCents: 0, weightGrams: 430.5, orders: 3 })[0]).toMatchObject({
      limit: 'weight',
      message: 'Cannabis on this trip weighs 430.5 g, 5.26 g over the 425.24 g limit.',
    });
    expect(tripLimitProblems({ ...ca, max_orders: 3 }, { goodsCents: 0, weightGrams: 0, orders: 5 })[0].message).toBe(
      'This trip has 5 orders, 2 over the limit of 3 orders per trip.',
    );
  });

  it('refuses a limit that is not a positive amount, in words', () => {
    const bad = tripLimitsSchema.safeParse({ preset: 'custom', max_goods_cents: 10.5, max_weight_grams: 0, max_orders: 0 });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.message)).toEqual([
      'max_goods_cents must be a whole number of cents.',
      'max_weight_grams must be more than 0.',
      'max_orders must be at least 1.',
    ]);
  });
});
