import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chosenTierOffers, chosenUnitPrice } from './pricing.ts';
import type { GroupPrice, TierPrice } from './product.ts';
import { cartUnitPrice, groupPriceRow, groupTiers, tierOffers, tierPriceAt } from './unit-price.ts';

const now = new Date('2026-11-20T12:00:00Z');

// The demo's tiers: guests (group 0) buy 3 at 10 % off and 5 at 15 % off.
const DEFAULT_TIERS: TierPrice[] = [
  { customer_group_id: 0, qty: 3, price: 900 },
  { customer_group_id: 0, qty: 5, price: 850 },
];
const WHOLESALE: TierPrice[] = [{ customer_group_id: 7, qty: 2, price: 700 }];
const WHOLESALE_ROW: GroupPrice = { customer_group_id: 7, price: 800, special_price: null, special_from_date: null, special_to_date: null };

describe('customer groups: the default prices apply to every group without its own rows', () => {
  it('a group without tier rows gets the default tiers, as a guest does (new accounts are group 1)', () => {
    expect(groupTiers(DEFAULT_TIERS, 1)).toEqual(DEFAULT_TIERS);
    expect(tierPriceAt(DEFAULT_TIERS, 1, 3)).toBe(900);
    expect(tierPriceAt(DEFAULT_TIERS, 0, 3)).toBe(900);
    expect(cartUnitPrice({ price: 1000, tier_prices: DEFAULT_TIERS }, { now, customerGroupId: 1, qty: 5 }).final_price).toBe(850);
  });

  it("a group's own tier rows replace the default ones as a whole", () => {
    const tiers = [...DEFAULT_TIERS, ...WHOLESALE];
    expect(groupTiers(tiers, 7)).toEqual(WHOLESALE);
    expect(tierPriceAt(tiers, 7, 2)).toBe(700);
    // The default "buy 5" is not the wholesale group's: its own rows say what it pays.
    expect(tierPriceAt(tiers, 7, 5)).toBe(700);
    expect(tierPriceAt(tiers, 7, 1)).toBeNull();
    expect(tierPriceAt(tiers, 1, 2)).toBeNull();
  });

  it('negative tier rows are data errors: they neither apply nor hide the default rows', () => {
    const tiers = [...DEFAULT_TIERS, { customer_group_id: 4, qty: 2, price: -1 }];
    expect(groupTiers(tiers, 4)).toEqual(DEFAULT_TIERS);
  });

  it("a group's own price row replaces the default row (price and special) as a whole", () => {
    const unit = {
      price: 1000,
      special_price: 900,
      special_from_date: null,
      special_to_date: null,
      tier_prices: [],
      group_prices: [WHOLESALE_ROW],
    };
    expect(groupPriceRow(unit, 7)).toBe(WHOLESALE_ROW);
    expect(groupPriceRow(unit, 1)).toBe(unit);
    expect(cartUnitPrice(unit, { now, customerGroupId: 7 })).toEqual({ price: 800, final_price: 800, sale: false });
    expect(cartUnitPrice(unit, { now, customerGroupId: 1 })).toEqual({ price: 1000, final_price: 900, sale: true });
    expect(cartUnitPrice(unit, { now })).toEqual({ price: 1000, final_price: 900, sale: true });
  });
});

describe('tierOffers: "Buy N+: $X each"', () => {
  it("lists the group's quantities that lower the unit price, with what the cart charges there", () => {
    const unit = { price: 1000, tier_prices: [...DEFAULT_TIERS, ...WHOLESALE], group_prices: [WHOLESALE_ROW] };
    expect(tierOffers(unit, { now, customerGroupId: 0 })).toEqual([
      { qty: 3, each: 900 },
      { qty: 5, each: 850 },
    ]);
    expect(tierOffers(unit, { now, customerGroupId: 1 })).toEqual(tierOffers(unit, { now, customerGroupId: 0 }));
    expect(tierOffers(unit, { now, customerGroupId: 7 })).toEqual([{ qty: 2, each: 700 }]);
  });

  it('leaves out a tier the special or the weight price already beats', () => {
    const special = { price: 1000, special_price: 880, tier_prices: DEFAULT_TIERS };
    expect(tierOffers(special, { now })).toEqual([{ qty: 5, each: 850 }]);
    const weighed = { price: 1000, size: 93, tier_prices: DEFAULT_TIERS };
    expect(chosenTierOffers(weighed, { discounts: [{ TYPE: 'qty_discount', qty_to_buy: 7, price: 800 }] }, now)).toEqual([]);
  });

  it('property: every offer is exactly what chosenUnitPrice charges at its quantity, and offers fall in price', () => {
    const tier = fc.record({
      customer_group_id: fc.constantFrom(0, 1, 7),
      qty: fc.integer({ min: 1, max: 10 }),
      price: fc.integer({ min: -5, max: 3000 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.array(tier, { maxLength: 8 }),
        fc.constantFrom(0, 1, 7),
        (price, tier_prices, group) => {
          const unit = { price, tier_prices };
          const offers = chosenTierOffers(unit, null, now, group);
          let previous = chosenUnitPrice(unit, null, now, group, 1).final_price;
          for (const o of offers) {
            expect(o.qty).toBeGreaterThan(1);
            expect(chosenUnitPrice(unit, null, now, group, o.qty).final_price).toBe(o.each);
            expect(o.each).toBeLessThan(previous);
            previous = o.each;
          }
          // Between offers the price does not change: quantities without an offer cost the offer before them.
          for (let q = 1; q <= 10; q++) {
            const last = [...offers].reverse().find((o) => o.qty <= q);
            expect(chosenUnitPrice(unit, null, now, group, q).final_price).toBe(
              last ? last.each : chosenUnitPrice(unit, null, now, group, 1).final_price,
            );
          }
        },
      ),
    );
  });
});
