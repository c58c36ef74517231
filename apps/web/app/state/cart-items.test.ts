import { describe, expect, it } from 'vitest';
import { sanitizeCartData } from './cart-data.ts';
import { kitConflict, limitItems, lineFromServer, sameBundleOptions, type CartItem, type NewCartItem } from './cart-items.ts';

const options = (flower: number, extras: number[]) => ({
  extension_attributes: {
    bundle_options: [
      { option_id: 1, option_qty: 1, option_selections: [flower] },
      { option_id: 3, option_qty: 1, option_selections: extras },
    ],
  },
});

const bundle: NewCartItem = {
  sku: 'BDL', qty: 2, type_id: 'bundle', parentSku: null, size: null, name: 'Night In', image: null, path: '/p/BDL/night-in', price: 6998,
  tax_class_id: 2, uom: 'ea', canna_type: null, unit_weight_grams_equivelent: null, license_type: 'both',
  product_option: options(11, [31]),
  kit: [
    { sku: 'GDP', name: 'Granddaddy Purple 3.5 g', qty: 1, size: 92, canna_type: 1, unit_weight_grams_equivelent: null },
    { sku: 'WICK', name: 'Hemp Wick', qty: 2, size: null, canna_type: 4, unit_weight_grams_equivelent: null },
  ],
};
const line = (i: NewCartItem): CartItem => ({ ...i, prev_qty: null, server_item_id: null, server_cart_id: null });

describe('kit lines', () => {
  it('weighs a bundle by its members times the line qty (as the server does)', () => {
    expect(limitItems([line(bundle)])).toEqual([
      { qty: 2, size: 92, unit_weight_grams_equivelent: null, canna_type: 1 },
      { qty: 4, size: null, unit_weight_grams_equivelent: null, canna_type: 4 },
    ]);
    const simple = line({ ...bundle, sku: 'S', type_id: 'simple', product_option: null, kit: null, canna_type: 2, unit_weight_grams_equivelent: 1 });
    expect(limitItems([simple])).toEqual([{ qty: 2, size: null, unit_weight_grams_equivelent: 1, canna_type: 2 }]);
  });

  it('refuses to merge a bundle with other choices into its line; the same choices merge', () => {
    const items = [line(bundle)];
    expect(kitConflict(items, { ...bundle, product_option: options(11, [31]) })).toBeNull();
    expect(kitConflict(items, { ...bundle, product_option: options(12, [31]) })).toBe(items[0]);
    expect(kitConflict(items, { ...bundle, product_option: options(11, []) })).toBe(items[0]);
    expect(kitConflict([], bundle)).toBeNull();
    expect(sameBundleOptions(options(11, [32, 31]), { extension_attributes: { bundle_options: [...options(11, [31, 32]).extension_attributes.bundle_options].reverse() } })).toBe(true);
  });

  it('keeps a bundle’s options and members through storage, and drops a damaged option list whole', () => {
    const data = sanitizeCartData({ items: [line(bundle)] })!;
    expect(data.items[0]).toMatchObject({ product_option: bundle.product_option, kit: bundle.kit });
    const damaged = sanitizeCartData({ items: [{ ...line(bundle), product_option: { extension_attributes: { bundle_options: [{ option_id: 1, option_qty: 1, option_selections: ['x'] }] } } }] })!;
    expect(damaged.items[0].product_option).toBeNull();
  });

  it('takes a bundle’s options from a server line another device added', () => {
    const server = {
      item_id: 9, sku: 'BDL', qty: 1, quote_id: 't', name: 'Night In', price: 6998, row_total: 6998, product_type: 'bundle' as const, parentSku: null,
      size: null, uom: 'ea', canna_type: null, unit_weight_grams_equivelent: null, product_option: options(11, [31]),
    };
    expect(lineFromServer(server, 't').product_option).toEqual(options(11, [31]));
    expect(lineFromServer({ ...server, product_type: 'simple', product_option: null }, 't').product_option).toBeUndefined();
  });
});
