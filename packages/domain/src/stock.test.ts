import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isChildAvailable, isMemberAvailable, stockStatus } from './stock.ts';

const stock = (qty: number, extra: Partial<{ is_in_stock: boolean; manage_stock: boolean; low_stock_threshold: number }> = {}) => ({
  qty,
  is_in_stock: true,
  manage_stock: true,
  low_stock_threshold: 2,
  ...extra,
});

describe('stockStatus (spec §4)', () => {
  it.each([
    [stock(10), 1, 'ok'],
    [stock(3), 1, 'volatile'], // 3 - 1 = 2 ≤ threshold 2
    [stock(4), 1, 'ok'],
    [stock(1), 1, 'volatile'],
    [stock(0), 1, 'out_of_stock'],
    [stock(7), 7, 'volatile'],
    [stock(6.9), 7, 'out_of_stock'], // grams: 7 g asked, 6.9 g left
    [stock(100, { is_in_stock: false }), 1, 'out_of_stock'],
    [stock(0, { manage_stock: false }), 5, 'ok'], // nobody counts it
    [stock(0, { manage_stock: false, is_in_stock: false }), 1, 'out_of_stock'],
  ] as const)('%j asked %d → %s', (s, requested, expected) => {
    expect(stockStatus(s, requested)).toBe(expected);
  });

  it('defaults to one unit', () => {
    expect(stockStatus(stock(1))).toBe('volatile');
  });

  it('asking for more never improves the status', () => {
    const rank = { ok: 0, volatile: 1, out_of_stock: 2 } as const;
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(20), fc.integer({ min: 1, max: 500 }), fc.nat(50), fc.boolean(), (qty, threshold, req, more, managed) => {
        const s = stock(qty, { low_stock_threshold: threshold, manage_stock: managed });
        return rank[stockStatus(s, req)] <= rank[stockStatus(s, req + more)];
      }),
    );
  });
});

describe('availability', () => {
  it('children: status below 2 and in stock unless allowed', () => {
    expect(isChildAvailable({ status: 0, stock: { is_in_stock: true } })).toBe(true);
    expect(isChildAvailable({ status: 2, stock: { is_in_stock: true } })).toBe(false);
    expect(isChildAvailable({ status: 1, stock: { is_in_stock: false } })).toBe(false);
    expect(isChildAvailable({ status: 1, stock: { is_in_stock: false } }, true)).toBe(true);
    expect(isChildAvailable({ status: 3, stock: { is_in_stock: true } }, true)).toBe(false);
  });
  it('kit members: status exactly 1 (spec §5)', () => {
    expect(isMemberAvailable({ status: 1, stock: { is_in_stock: true } })).toBe(true);
    expect(isMemberAvailable({ status: 0, stock: { is_in_stock: true } })).toBe(false);
    expect(isMemberAvailable({ status: 1, stock: { is_in_stock: false } })).toBe(false);
    expect(isMemberAvailable({ status: 1, stock: { is_in_stock: false } }, true)).toBe(true);
  });
});
