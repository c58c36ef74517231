import { describe, expect, it } from 'vitest';
import { CATALOG_MESSAGES } from './catalog-messages.ts';
import type { ConfigurableChild } from './product.ts';
import { availableChildren, chooseVariant, productErrors, selectedOptionsFor } from './variants.ts';
import { OUT_OF_STOCK, child, flower, product } from '../test-support/test-fixtures.ts';

const now = new Date('2026-11-20T12:00:00Z');
const NO_SUCH = 'No such configuration for the product. Please do choose another combination of attributes.';

describe('availableChildren', () => {
  const p = flower([
    child({ id: 1, size: 91 }),
    child({ id: 2, size: 92, status: 2 }),
    child({ id: 3, size: 93, stock: OUT_OF_STOCK }),
    child({ id: 4, size: 94, status: 0 }),
  ]);
  it('skips status 2+ and out-of-stock children, keeping catalogue order', () => {
    expect(availableChildren(p).map((c) => c.id)).toEqual([1, 4]);
  });
  it('keeps out-of-stock children when listing them is allowed', () => {
    expect(availableChildren(p, { allowOutOfStock: true }).map((c) => c.id)).toEqual([1, 3, 4]);
  });
});

describe('chooseVariant (spec §4)', () => {
  const sizes = flower([
    child({ id: 1, size: 91, price: 1500 }),
    child({ id: 2, size: 92, price: 4000 }),
    child({ id: 3, size: 93, price: 7000 }),
    child({ id: 4, size: 93, price: 6500, stock: OUT_OF_STOCK }),
  ]);

  it('picks the child with the chosen size', () => {
    expect(chooseVariant(sizes, { size: 93 }, { now })).toEqual({ child: sizes.configurable_children[2], warning: null });
  });

  it('respects allowOutOfStock (the cheaper out-of-stock 7 g wins then)', () => {
    expect(chooseVariant(sizes, { size: 93 }, { now, allowOutOfStock: true }).child?.id).toBe(4);
  });

  it('warns with the spec text when nothing matches and no fallback is allowed', () => {
    const r = chooseVariant(sizes, { size: 95 }, { now });
    expect(r).toEqual({ child: null, warning: NO_SUCH });
    expect(CATALOG_MESSAGES.noSuchConfiguration).toBe(NO_SUCH);
  });

  it('falls back to the default (first available) child when allowed', () => {
    expect(chooseVariant(sizes, { size: 95 }, { now, fallbackToDefault: true })).toEqual({
      child: sizes.configurable_children[0],
      warning: null,
    });
  });

  it('an empty choice matches every child: cheapest wins', () => {
    expect(chooseVariant(sizes, {}, { now }).child?.id).toBe(1);
  });

  it('ignores attribute codes the product is not configured by', () => {
    expect(chooseVariant(sizes, { flavour: 3, size: 92 }, { now }).child?.id).toBe(2);
    expect(chooseVariant(sizes, { flavour: 3 }, { now }).child?.id).toBe(1);
  });

  it('breaks ties by final price, counting a special only inside its window', () => {
    const tie = flower([
      child({ id: 1, size: 93, price: 7000 }),
      child({ id: 2, size: 93, price: 7500, special_price: 6000, special_to_date: '2026-11-19' }), // expired
      child({ id: 3, size: 93, price: 7500, special_price: 6900, special_from_date: '2026-11-01' }),
    ]);
    expect(chooseVariant(tie, { size: 93 }, { now }).child?.id).toBe(3);
    expect(chooseVariant(tie, { size: 93 }, { now: new Date('2026-10-01T00:00:00Z') }).child?.id).toBe(2);
  });

  it('counts a tier price of the customer group in the tie-break', () => {
    const tie = flower([
      child({ id: 1, size: 93, price: 7000 }),
      child({ id: 2, size: 93, price: 7500, tier_prices: [{ customer_group_id: 4, qty: 1, price: 6000 }] }),
    ]);
    expect(chooseVariant(tie, { size: 93 }, { now }).child?.id).toBe(1);
    expect(chooseVariant(tie, { size: 93 }, { now, customerGroupId: 4 }).child?.id).toBe(2);
  });

  it('prefers size 92 among equally priced, equally matching children', () => {
    const withColour = (c: ConfigurableChild, color: number) => ({ ...c, color }) as ConfigurableChild;
    const p = flower(
      [withColour(child({ id: 1, size: 91, price: 3000 }), 5), withColour(child({ id: 2, size: 92, price: 3000 }), 5)],
      {
        configurable_options: [
          { attribute_id: 142, attribute_code: 'size', label: 'Size', position: 0, values: [] },
          { attribute_id: 93, attribute_code: 'color', label: 'Colour', position: 1, values: [] },
        ],
      },
    );
    expect(chooseVariant(p, { color: 5 }, { now }).child?.id).toBe(2);
    expect(chooseVariant(p, {}, { now }).child?.id).toBe(2);
  });

  it('the child matching the most chosen attributes wins over a cheaper partial match', () => {
    const c = (id: number, size: number, color: number, price: number) => ({ ...child({ id, size, price }), color }) as ConfigurableChild;
    const p = flower([c(1, 92, 1, 1000), c(2, 93, 2, 5000), c(3, 93, 1, 9000)], {
      configurable_options: [
        { attribute_id: 142, attribute_code: 'size', label: 'Size', position: 0, values: [] },
        { attribute_id: 93, attribute_code: 'color', label: 'Colour', position: 1, values: [] },
      ],
    });
    expect(chooseVariant(p, { size: 93, color: 1 }, { now }).child?.id).toBe(3);
    // No full match: among the one-attribute matches the cheapest.
    expect(chooseVariant(p, { size: 93, color: 7 }, { now }).child?.id).toBe(2);
    expect(selectedOptionsFor(p.configurable_children[2], p)).toEqual({ size: 93, color: 1 });
  });

  it('warns when no child is available at all, even with fallback', () => {
    const none = flower([child({ id: 1, size: 92, status: 2 })]);
    expect(chooseVariant(none, {}, { now, fallbackToDefault: true })).toEqual({ child: null, warning: NO_SUCH });
  });
});

describe('selectedOptionsFor', () => {
  it('reads the product’s configurable attributes from the child', () => {
    const p = flower([child({ id: 1, size: 94 })]);
    expect(selectedOptionsFor(p.configurable_children[0], p)).toEqual({ size: 94 });
  });
  it('falls back to size when the document lists no configurable options', () => {
    const p = flower([child({ id: 1, size: 92 })], { configurable_options: [] });
    expect(selectedOptionsFor(p.configurable_children[0], p)).toEqual({ size: 92 });
    expect(selectedOptionsFor(child({ id: 2 }), p)).toEqual({});
  });
});

describe('productErrors (spec §4, §8)', () => {
  it('is empty for a buyable product', () => {
    expect(productErrors(product())).toEqual({});
    expect(productErrors(flower([child({ id: 1, size: 92 })]))).toEqual({});
  });
  it('reports the spec text when the product stock says not in stock', () => {
    expect(productErrors(product({ stock: OUT_OF_STOCK }))).toEqual({ variants: 'No available product variants' });
  });
  it('reports a configurable without an available child', () => {
    const p = flower([child({ id: 1, size: 92, stock: OUT_OF_STOCK }), child({ id: 2, size: 93, status: 2 })]);
    expect(productErrors(p)).toEqual({ variants: 'No available product variants' });
    expect(productErrors(p, { allowOutOfStock: true })).toEqual({});
  });
});
