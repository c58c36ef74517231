import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseStoresFile } from '../store.ts';
import { checkTransactionLimit, itemThcMilligrams, overLimitMessage, thcEquivalentGrams } from './limits.ts';

const demo = parseStoresFile(
  JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../../apps/server/config/stores.demo.json'), 'utf8')),
);
const [downtown, eastside, wellness] = demo.stores;

describe('THC-equivalent grams per item (spec §5)', () => {
  it('uses the size table, else the unit equivalent, else 1 g, times the quantity', () => {
    expect(itemThcMilligrams({ qty: 2, size: 92 })).toBe(7000);
    expect(itemThcMilligrams({ qty: 1, size: 95 })).toBe(28000);
    expect(itemThcMilligrams({ qty: 3, unit_weight_grams_equivelent: 3.5 })).toBe(10500);
    expect(itemThcMilligrams({ qty: 4 })).toBe(4000);
    expect(itemThcMilligrams({ qty: 1, size: 92, unit_weight_grams_equivelent: 10 })).toBe(3500);
  });
  it('counts nothing for canna_type 4 and 6', () => {
    expect(itemThcMilligrams({ qty: 5, size: 95, canna_type: 4 })).toBe(0);
    expect(itemThcMilligrams({ qty: 5, canna_type: 6 })).toBe(0);
    expect(itemThcMilligrams({ qty: 1, size: 91, canna_type: 1 })).toBe(1000);
  });
  it('sums exactly, with no float drift', () => {
    expect(thcEquivalentGrams(Array.from({ length: 10 }, () => ({ qty: 1, unit_weight_grams_equivelent: 0.1 })))).toBe(1);
  });
});

describe('checkTransactionLimit', () => {
  it('allows a recreational cart at exactly 28.5 g and stops one at 29 g with the exact message', () => {
    const at = checkTransactionLimit([{ qty: 1, size: 94 }, { qty: 4, size: 92 }, { qty: 1, unit_weight_grams_equivelent: 0.5 }], downtown, 'recreational');
    expect(at).toMatchObject({ grams: 28.5, limit: 28.5, over: false, message: null });
    const under = checkTransactionLimit([{ qty: 1, size: 94 }, { qty: 3, size: 92 }, { qty: 3, size: 91 }], downtown, 'recreational');
    expect(under).toMatchObject({ grams: 27.5, over: false });
    const past = checkTransactionLimit([{ qty: 1, size: 95 }, { qty: 1, size: 91 }], downtown, 'recreational');
    expect(past.over).toBe(true);
    expect(past.excess).toBe(0.5);
    expect(past.message).toBe('Your cart contains 0.5 g more cannabis than can be in a single order. Please remove 0.5 g from your cart.');
  });
  it('uses the medical limit for medical shoppers', () => {
    expect(checkTransactionLimit([{ qty: 8, size: 95 }], wellness, 'medical')).toMatchObject({ grams: 224, limit: 226.8, over: false });
    expect(checkTransactionLimit([{ qty: 9, size: 95 }], wellness, 'medical')).toMatchObject({ over: true, excess: 25.2 });
  });
  it('applies only with a licence type, a store and a limit for that licence', () => {
    const big = [{ qty: 10, size: 95 }];
    expect(checkTransactionLimit(big, null, 'recreational').over).toBe(false);
    expect(checkTransactionLimit(big, downtown, null).over).toBe(false);
    expect(checkTransactionLimit(big, eastside, 'medical')).toMatchObject({ limit: null, over: false });
  });
  it('is over exactly when the grams exceed the limit (property)', () => {
    const item = fc.record({
      qty: fc.integer({ min: 0, max: 10 }),
      size: fc.option(fc.constantFrom(91, 92, 93, 94, 95), { nil: null }),
      unit_weight_grams_equivelent: fc.option(fc.constantFrom(0.5, 1, 2.05, 3.5), { nil: null }),
      canna_type: fc.option(fc.constantFrom(1, 2, 4, 6), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 12 }), (items) => {
        const r = checkTransactionLimit(items, downtown, 'recreational');
        return r.over === Math.round(r.grams * 1000) > 28500 && (r.over ? r.message === overLimitMessage(r.excess) : r.message === null);
      }),
    );
  });
});
