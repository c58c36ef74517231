import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { finalPriceCents, isSpecialPriceActive } from './catalog.ts';

describe('special price window (spec §5)', () => {
  const now = new Date('2026-11-20T12:00:00Z');
  it('counts only below the original price', () => {
    expect(isSpecialPriceActive({ price: 1000, special_price: 800 }, now)).toBe(true);
    expect(isSpecialPriceActive({ price: 1000, special_price: 1000 }, now)).toBe(false);
    expect(isSpecialPriceActive({ price: 1000, special_price: 1200 }, now)).toBe(false);
    expect(isSpecialPriceActive({ price: 1000, special_price: null }, now)).toBe(false);
  });
  it('honours the from/to window with open ends', () => {
    const p = { price: 1000, special_price: 800 };
    expect(isSpecialPriceActive({ ...p, special_from_date: '2026-11-01' }, now)).toBe(true);
    expect(isSpecialPriceActive({ ...p, special_from_date: '2026-11-21' }, now)).toBe(false);
    expect(isSpecialPriceActive({ ...p, special_to_date: '2026-11-20' }, now)).toBe(true);
    expect(isSpecialPriceActive({ ...p, special_to_date: '2026-11-19' }, now)).toBe(false);
    expect(isSpecialPriceActive({ ...p, special_from_date: '2026-11-19T00:00:00Z', special_to_date: '2026-11-20T11:59:59Z' }, now)).toBe(false);
  });
  it('never yields a final price above the price', () => {
    fc.assert(
      fc.property(fc.nat(100000), fc.option(fc.nat(100000)), (price, special) =>
        finalPriceCents({ price, special_price: special }, now) <= price,
      ),
    );
  });
});
