import { describe, expect, it } from 'vitest';
import { priceUnit, tierPriceFor, weightPriceFor } from './unit-price.ts';

const now = new Date('2026-06-15T12:00:00Z');
const record = (price: number, special: number | null = null, from: string | null = null, to: string | null = null) => ({
  price,
  special_price: special,
  special_from_date: from,
  special_to_date: to,
});

describe('priceUnit', () => {
  it('is null without a price row (the product cannot be sold)', () => {
    expect(priceUnit(null, { now, groupId: 0, qty: 1 })).toBeNull();
    expect(priceUnit(record(-1), { now, groupId: 0, qty: 1 })).toBeNull();
  });

  it('takes a special price inside its window and below the price', () => {
    expect(priceUnit(record(3500, 3000), { now, groupId: 0, qty: 1 })).toEqual({ original: 3500, special: 3000, final: 3000 });
    expect(priceUnit(record(3500, 3000, '2026-06-16'), { now, groupId: 0, qty: 1 })?.final).toBe(3500);
    expect(priceUnit(record(3500, 3000, null, '2026-06-15'), { now, groupId: 0, qty: 1 })?.final).toBe(3000);
    expect(priceUnit(record(3500, 3000, null, '2026-06-14'), { now, groupId: 0, qty: 1 })?.final).toBe(3500);
    expect(priceUnit(record(3500, 3600), { now, groupId: 0, qty: 1 })).toEqual({ original: 3500, special: null, final: 3500 });
  });

  it('lowers to a tier price of the group at the quantity bought, and to a weight price', () => {
    const tiers = [
      { customer_group_id: 0, qty: 3, price: 3150 },
      { customer_group_id: 1, qty: 1, price: 2000 },
    ];
    expect(priceUnit(record(3500), { now, groupId: 0, qty: 2, tiers })?.final).toBe(3500);
    expect(priceUnit(record(3500), { now, groupId: 0, qty: 3, tiers })?.final).toBe(3150);
    expect(priceUnit(record(3500, 3000), { now, groupId: 0, qty: 3, tiers })?.final).toBe(3000);
    expect(priceUnit(record(3500), { now, groupId: 1, qty: 1, tiers })?.final).toBe(2000);
    expect(priceUnit(record(9500), { now, groupId: 0, qty: 1, weightPrice: 9000 })).toEqual({ original: 9500, special: null, final: 9000 });
    expect(priceUnit(record(9500, 8800), { now, groupId: 0, qty: 1, weightPrice: 9000 })?.final).toBe(8800);
  });
});

describe('tierPriceFor / weightPriceFor', () => {
  it('ignores other groups, larger quantities and negative tiers', () => {
    expect(tierPriceFor([{ customer_group_id: 0, qty: 5, price: 1 }, { customer_group_id: 0, qty: 1, price: -5 }], 0, 4)).toBeNull();
    expect(tierPriceFor([{ customer_group_id: 0, qty: 2, price: 90 }, { customer_group_id: 0, qty: 5, price: 80 }], 0, 9)).toBe(80);
  });

  it('matches the discount whose qty_to_buy equals the size weight, only for real sizes', () => {
    const discounts = [
      { TYPE: 'qty_discount' as const, qty_to_buy: 1, price: 1000 },
      { TYPE: 'qty_discount' as const, qty_to_buy: 7, price: 9000 },
    ];
    expect(weightPriceFor(discounts, 93)).toBe(9000);
    expect(weightPriceFor(discounts, 92)).toBeNull();
    expect(weightPriceFor(discounts, null)).toBeNull();
    expect(weightPriceFor(discounts, 42)).toBeNull();
  });
});
