/** Pure rules of the cart: line resolution, stock, licence and limit checks (no database). */
import { describe, expect, it } from 'vitest';
import { parseStoresFile } from '@verdant/domain';
import fs from 'node:fs';
import { DEMO_STORES_FILE } from '../config.ts';
import { ApiError } from '../http/envelope.ts';
import type { LoadedProduct, SellableUnit } from '../prices/loader.ts';
import { licenseProblem, limitProblem, stockNeeds, stockProblem } from './checks.ts';
import { CART_MESSAGES as M } from './messages.ts';
import { resolveLine } from './resolve.ts';

const store = parseStoresFile(JSON.parse(fs.readFileSync(DEMO_STORES_FILE, 'utf8'))).stores[0];
const now = new Date('2026-06-15T12:00:00Z');
const ctx = { now, groupId: 0 };
let nextId = 1;

function unit(sku: string, o: Partial<SellableUnit> & { priceCents?: number | null; stockQty?: number } = {}): SellableUnit {
  const { priceCents = 1000, stockQty = 100, ...rest } = o;
  return {
    id: nextId++,
    sku,
    name: sku,
    type_id: 'simple',
    status: 1,
    parentId: null,
    size: null,
    uom: 'ea',
    unitWeight: null,
    cannaType: 3,
    licenseType: 'both',
    taxClassId: 2,
    price: priceCents == null ? null : { price: priceCents, special_price: null, special_from_date: null, special_to_date: null },
    tiers: [],
    stock: { qty: stockQty, is_in_stock: stockQty > 0, manage_stock: true, low_stock_threshold: 0 },
    ...rest,
  };
}

function product(u: SellableUnit, o: Partial<LoadedProduct> = {}): LoadedProduct {
  return { ...u, parent: null, children: [], discounts: [], links: [], bundleOptions: [], customOptions: [], ...o };
}

const catalog = (...ps: LoadedProduct[]) => new Map(ps.map((p) => [p.sku, p]));

function flower() {
  const parent = unit('FL', { type_id: 'configurable', uom: 'g', cannaType: 1, priceCents: null });
  const children = [91, 92, 93].map((size) => unit(`FL-${size}`, { parentId: parent.id, size, uom: 'g', cannaType: 1, priceCents: size * 100, stockQty: 14 }));
  return product(parent, { children, discounts: [{ TYPE: 'qty_discount', qty_to_buy: 7, price: 8000 }] });
}

const error = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return [e.statusCode, e.message];
    throw e;
  }
  return null;
};

describe('resolveLine', () => {
  it('resolves a configurable parent and a size to the child, with its weight price', () => {
    const fl = flower();
    const [line] = resolveLine({ sku: 'FL', size: 93, qty: 1 }, catalog(fl), ctx);
    expect(line).toMatchObject({ sku: 'FL-93', parentSku: 'FL', size: 93, productType: 'configurable', unitPrice: 8000, originalPrice: 9300 });
    expect(line.components[0]).toMatchObject({ stockPerUnit: 7, qtyPerUnit: 1 });
    const [viaOption] = resolveLine({ sku: 'FL', qty: 1, product_option: { extension_attributes: { configurable_item_options: [{ option_id: 142, option_value: 92 }] } } }, catalog(fl), ctx);
    expect(viaOption.sku).toBe('FL-92');
    expect(error(() => resolveLine({ sku: 'FL', qty: 1 }, catalog(fl), ctx))).toEqual([400, M.noSuchConfiguration]);
  });

  it('refuses unknown, disabled and unpriced products', () => {
    expect(error(() => resolveLine({ sku: 'X', qty: 1 }, catalog(), ctx))).toEqual([400, M.productNotFound('X')]);
    expect(error(() => resolveLine({ sku: 'D', qty: 1 }, catalog(product(unit('D', { status: 2 }))), ctx))).toEqual([400, M.productUnavailable]);
    expect(error(() => resolveLine({ sku: 'P', qty: 1 }, catalog(product(unit('P', { priceCents: null }))), ctx))).toEqual([400, M.priceUnknown]);
  });

  it('applies a tier price by the quantity bought', () => {
    const p = product(unit('T', { priceCents: 1000, tiers: [{ customer_group_id: 0, qty: 3, price: 900 }] }));
    expect(resolveLine({ sku: 'T', qty: 2 }, catalog(p), ctx)[0].unitPrice).toBe(1000);
    expect(resolveLine({ sku: 'T', qty: 3 }, catalog(p), ctx)[0].unitPrice).toBe(900);
  });

  it('expands a grouped product into its available members', () => {
    const a = unit('A');
    const b = unit('B', { status: 2 });
    const g = product(unit('G', { type_id: 'grouped', priceCents: null }), {
      links: [a, b].map((m, i) => ({ id: i + 1, linkType: 'associated' as const, qty: 1, position: i, isDefault: false, bundleOptionId: null, product: m })),
    });
    expect(resolveLine({ sku: 'G', qty: 2 }, catalog(g), ctx).map((l) => [l.sku, l.qty])).toEqual([['A', 2]]);
  });

  /** A bundle: a required flower option (link 11) and optional extras (2 wicks, link 21), both defaults. */
  const flowerAndWickBundle = () =>
    product(unit('B', { type_id: 'bundle', priceCents: null }), {
      bundleOptions: [
        { option_id: 1, title: 'Flower', type: 'radio', required: true, position: 0 },
        { option_id: 2, title: 'Extras', type: 'checkbox', required: false, position: 1 },
      ],
      links: [
        { id: 11, linkType: 'bundle', qty: 1, position: 0, isDefault: true, bundleOptionId: 1, product: unit('M-FL', { priceCents: 4000, size: 92, uom: 'g', cannaType: 1 }) },
        { id: 21, linkType: 'bundle', qty: 2, position: 0, isDefault: true, bundleOptionId: 2, product: unit('M-WICK', { priceCents: 500, cannaType: 4, taxClassId: 4 }) },
      ],
    });

  it('builds a bundle from defaults, each member its own component', () => {
    const b = flowerAndWickBundle();
    const [line] = resolveLine({ sku: 'B', qty: 1 }, catalog(b), ctx);
    expect(line.unitPrice).toBe(4000 + 2 * 500);
    expect(line.components.map((c) => [c.sku, c.qtyPerUnit, c.taxClassId, c.stockPerUnit])).toEqual([['M-FL', 1, 2, 3.5], ['M-WICK', 2, 4, 1]]);
    expect(error(() => resolveLine({ sku: 'B', qty: 1, product_option: { extension_attributes: { bundle_options: [{ option_id: 1, option_selections: [21] }] } } }, catalog(b), ctx))).toEqual([400, M.configureOptions]);
  });

  it('leaves out an optional bundle option asked for with no selection, and keeps it left out', () => {
    const b = flowerAndWickBundle();
    const none = { extension_attributes: { bundle_options: [{ option_id: 1, option_selections: [11] }, { option_id: 2, option_selections: [] }] } };
    const [line] = resolveLine({ sku: 'B', qty: 1, product_option: none }, catalog(b), ctx);
    expect(line.unitPrice).toBe(4000);
    expect(line.components.map((c) => c.sku)).toEqual(['M-FL']);
    const [again] = resolveLine({ sku: 'B', qty: 1, product_option: line.productOption }, catalog(b), ctx);
    expect([again.unitPrice, again.key]).toEqual([4000, line.key]);
    // A required option asked for with nothing still takes its default.
    const [required] = resolveLine({ sku: 'B', qty: 1, product_option: { extension_attributes: { bundle_options: [{ option_id: 1, option_selections: [] }] } } }, catalog(b), ctx);
    expect(required.unitPrice).toBe(5000);
  });

  it('requires required custom options and prices them', () => {
    const p = product(unit('C', { priceCents: 2000 }), {
      customOptions: [
        { option_id: 5, title: 'Wrap', type: 'drop_down', is_require: true, position: 0, own: null, values: [{ option_type_id: 51, title: 'Box', price_type: 'fixed', price: 400, position: 0 }, { option_type_id: 52, title: 'Premium', price_type: 'percent', price: 10, position: 1 }] },
        { option_id: 6, title: 'Engraving', type: 'field', is_require: false, position: 1, own: { price_type: 'fixed', price: 500 }, values: [] },
      ],
    });
    expect(error(() => resolveLine({ sku: 'C', qty: 1 }, catalog(p), ctx))).toEqual([400, M.configureOptions]);
    const opt = (v: string, text?: string) => ({ extension_attributes: { custom_options: [{ option_id: 5, option_value: v }, ...(text ? [{ option_id: 6, option_value: text }] : [])] } });
    expect(resolveLine({ sku: 'C', qty: 1, product_option: opt('52') }, catalog(p), ctx)[0].unitPrice).toBe(2200);
    const engraved = resolveLine({ sku: 'C', qty: 1, product_option: opt('51', 'Ana') }, catalog(p), ctx)[0];
    expect(engraved.unitPrice).toBe(2900);
    expect(engraved.key).not.toBe(resolveLine({ sku: 'C', qty: 1, product_option: opt('51') }, catalog(p), ctx)[0].key);
  });
});

describe('cart checks', () => {
  const fl = flower();
  const line = (sku: string, qty: number, p = fl) => resolveLine({ sku, qty }, catalog(p, ...p.children.map((c) => product(c, { parent: { id: p.id, sku: p.sku, status: 1, licenseType: 'both', discounts: p.discounts } }))), ctx)[0];

  it('adds stock needs over every line drawing on the same product, in grams for g products', () => {
    const eighth = line('FL-92', 2);
    expect([...stockNeeds([eighth]).values()]).toEqual([7]);
    expect(stockProblem([eighth], [eighth])).toBeNull();
    const four = line('FL-92', 4);
    expect(stockProblem([four], [four])).toBeNull(); // 14 g of 14 g
    const five = line('FL-92', 5);
    expect(stockProblem([five], [five])).toBe('Only 4 products of this type are available.');
    expect(stockProblem([line('FL-93', 3)], [line('FL-93', 3)])).toBe(M.onlyAvailable(2));
  });

  it('refuses the other licence type but not "both"', () => {
    const med = product(unit('MED', { licenseType: 'medical' }));
    const medLine = resolveLine({ sku: 'MED', qty: 1 }, catalog(med), ctx)[0];
    expect(licenseProblem([medLine], 'recreational')).toBe(M.licenseMix);
    expect(licenseProblem([medLine], 'medical')).toBeNull();
    expect(licenseProblem([line('FL-91', 1)], 'recreational')).toBeNull();
  });

  it('refuses growing over the limit but allows shrinking while over', () => {
    const big = product(unit('BIG', { cannaType: 1, size: 95, uom: 'g', stockQty: 1000 }));
    const at = (qty: number) => resolveLine({ sku: 'BIG', qty }, catalog(big), ctx)[0];
    expect(limitProblem([], [at(1)], store, 'recreational')).toBeNull();
    expect(limitProblem([at(1)], [at(2)], store, 'recreational')).toBe('Your cart contains 27.5 g more cannabis than can be in a single order. Please remove 27.5 g from your cart.');
    expect(limitProblem([at(3)], [at(2)], store, 'recreational')).toBeNull();
    expect(limitProblem([], [at(8)], store, 'medical')).toBeNull(); // 224 g of 226.8 g
    expect(limitProblem([], [at(9)], store, 'medical')).toBe('Your cart contains 25.2 g more cannabis than can be in a single order. Please remove 25.2 g from your cart.');
  });
});
