/**
 * Integration: catalogue documents built from the seeded demo catalogue on both databases — the
 * shape of each product type, the categories and attributes, and that reading costs one query per
 * table however many stores or products there are.
 */
import { SIZE_IDS, type CatalogProduct } from '@verdant/domain';
import type { KyselyPlugin } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { BUNDLE_SKU, GROUPED_SKU } from '../seed/index.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { affectedProductIds } from './catalog-rows.ts';
import { loadDocuments, type StoreDocuments } from './documents.ts';
import { NOW, seed, storesFile } from '../../test-support/catalog/test-app.ts';

const options = { customerGroupFor: () => 0, now: NOW };

describeEachDatabase('catalogue documents', (getDb) => {
  let stores: StoreDocuments[];
  const bySku = (storeId: number, sku: string): CatalogProduct => {
    const p = stores.find((s) => s.storeId === storeId)!.products.find((x) => x.sku === sku);
    if (!p) throw new Error(`no ${sku} in store ${storeId}`);
    return p;
  };

  beforeAll(async () => {
    await seed(getDb());
    ({ stores } = await loadDocuments(getDb().db, { storeIds: storesFile.stores.map((s) => s.storeId) }, options));
  });

  it('builds every product row of every store, children and kit members included', async () => {
    const { db } = getDb();
    for (const { storeId, products } of stores) {
      const rows = await db.selectFrom('products').select(['id', 'sku']).where('store_id', '=', storeId).execute();
      expect(products.map((p) => p.id).sort()).toEqual(rows.map((r) => r.id).sort());
      expect(products.every((p) => p.dispensaryID === storeId)).toBe(true);
    }
  });

  it('gives a configurable its size option and five children 91–95 with prices, stock and size', () => {
    const flower = bySku(1, 'FL-BLUE-DREAM');
    expect(flower.type_id).toBe('configurable');
    expect(flower.configurable_options).toEqual([
      expect.objectContaining({ attribute_code: 'size', attribute_id: 142, label: 'Size' }),
    ]);
    expect(flower.configurable_options[0].values.map((v) => v.value_index)).toEqual([...SIZE_IDS]);
    expect(flower.configurable_options[0].values[1].label).toBe('3.5 g (1/8 oz)');
    expect(flower.configurable_children.map((c) => c.size)).toEqual([91, 92, 93, 94, 95]);
    expect(flower.configurable_children.map((c) => c.sku)).toEqual([
      'FL-BLUE-DREAM-1G',
      'FL-BLUE-DREAM-8TH',
      'FL-BLUE-DREAM-QTR',
      'FL-BLUE-DREAM-HALF',
      'FL-BLUE-DREAM-OZ',
    ]);
    for (const child of flower.configurable_children) {
      expect(Number.isInteger(child.price) && child.price > 0).toBe(true);
      expect(child.stock).toEqual(expect.objectContaining({ manage_stock: true, is_in_stock: child.stock.qty > 0 }));
      // Each child is a document of its own too, not visible individually.
      expect(bySku(1, child.sku)).toMatchObject({ id: child.id, visibility: 1, size: child.size });
    }
    // A larger size costs more; the parent shows its cheapest available child's price.
    const prices = flower.configurable_children.map((c) => c.price);
    expect([...prices].sort((a, b) => a - b)).toEqual(prices);
    expect(flower.price).toBe(
      Math.min(...flower.configurable_children.filter((c) => c.stock.is_in_stock).map((c) => c.price)),
    );
    expect(flower.uom).toBe('g');
    expect(flower.stock.manage_stock).toBe(false);
  });

  it('fills labels, categories, media, tags, discounts and custom attributes', () => {
    const flower = bySku(1, 'FL-BLUE-DREAM');
    expect(flower.brand).toBe('Sierra Sun Farms');
    expect(flower.category).toEqual([
      { category_id: 13, name: 'Hybrid', slug: 'hybrid', url_path: 'menu/flower/hybrid' },
    ]);
    expect(flower.category_ids).toEqual([13]);
    expect(flower.media_gallery).toHaveLength(2);
    expect(flower.media_gallery[1].video).toMatch(/^https:\/\//);
    expect(flower.discovery_tags.length).toBeGreaterThan(1);
    expect(flower.discovery_tags.every((t) => t === t.trim() && t.length > 0 && !t.includes(','))).toBe(true);
    const all = stores.flatMap((s) => s.products);
    const discounted = all.find((p) => p.discounts.length > 0)!;
    expect(discounted.discounts[0]).toEqual({
      TYPE: 'qty_discount',
      qty_to_buy: expect.any(Number),
      price: expect.any(Number),
    });
    const dealt = all.find((p) => p.discount_group_id != null)!;
    expect(typeof dealt.discount_group).toBe('string');
    expect(all.find((p) => p.tier_prices.length > 0)!.tier_prices[0]).toEqual({
      customer_group_id: 0,
      qty: 3,
      price: expect.any(Number),
    });
    expect(all.some((p) => p.custom_attributes.some((a) => a.attribute_code === 'thc_mg'))).toBe(true);
    // `no_selection` is no image (spec §5).
    expect(all.some((p) => p.image === 'no_selection')).toBe(false);
  });

  it('embeds grouped and bundle members with their prices and stock', () => {
    const grouped = bySku(2, GROUPED_SKU);
    expect(grouped.type_id).toBe('grouped');
    expect(grouped.product_links).toHaveLength(3);
    for (const link of grouped.product_links) {
      expect(link.link_type).toBe('associated');
      expect(link.product).toMatchObject({ sku: link.linked_product_sku, type_id: 'simple', status: 1 });
      expect(link.product!.price).toBeGreaterThan(0);
    }
    // A grouped product is priced as the sum of its members (spec §4).
    expect(grouped.price).toBe(grouped.product_links.reduce((sum, l) => sum + l.product!.price, 0));

    const bundle = bySku(2, BUNDLE_SKU);
    expect(bundle.bundle_options.map((o) => [o.title, o.required, o.product_links.length])).toEqual([
      ['Flower', true, 2],
      ['Edible', true, 2],
      ['Extras', false, 2],
    ]);
    const defaults = bundle.bundle_options.map((o) => o.product_links.find((l) => l.is_default)!);
    expect(defaults.every((l) => l.product && l.product.stock.qty > 0)).toBe(true);
    expect(bundle.price).toBe(defaults.reduce((sum, l) => sum + Math.round(l.product!.price * l.qty), 0));
    expect(bundle.product_links).toHaveLength(6);
    // The cart names a bundle selection by its link id; members carry what the purchase limit weighs.
    const ids = bundle.bundle_options.flatMap((o) => o.product_links.map((l) => l.id));
    expect(ids.every((id) => Number.isInteger(id)) && new Set(ids).size === 6).toBe(true);
    expect(bundle.bundle_options[0].product_links[0].product).toMatchObject({ size: 92, uom: 'g', canna_type: expect.any(Number) });
    expect(grouped.product_links[0].product).toMatchObject({ uom: 'ea', unit_weight_grams_equivelent: 1 });
  });

  it('carries custom options with fixed and percent add-ons', () => {
    const withOptions = stores.flatMap((s) => s.products).find((p) => p.custom_options.length > 0)!;
    const [engraving, wrap] = withOptions.custom_options;
    expect(engraving).toMatchObject({ title: 'Engraving', type: 'field', is_require: false });
    expect(engraving.values).toEqual([
      { option_type_id: engraving.option_id, title: 'Engraving', price_type: 'fixed', price: 500, position: 0 },
    ]);
    expect(wrap.values.map((v) => [v.title, v.price_type, v.price])).toEqual([
      ['No wrap', 'fixed', 0],
      ['Gift box', 'fixed', 400],
      ['Premium wrap', 'percent', 10],
    ]);
  });

  it('builds categories with parent ids from the path, and the global attributes', async () => {
    const categories = stores[0].categories;
    const indica = categories.find((c) => c.url_path === 'menu/flower/indica')!;
    expect(indica).toMatchObject({
      id: 11,
      parent_id: 3,
      parent_ids: [2, 3],
      level: 3,
      is_active: true,
      children_count: 0,
    });
    expect(categories.find((c) => c.id === 2)).toMatchObject({ parent_ids: [], children_count: 8, url_path: 'menu' });
    const { attributes } = await loadDocuments(getDb().db, { storeIds: [1] }, options);
    const size = attributes.find((a) => a.attribute_code === 'size')!;
    expect(size).toMatchObject({ attribute_id: 142, is_filterable: true });
    expect(size.options[0]).toEqual({ value: '91', label: '1 g' });
  });

  it('reads with one query per table, for one store or all of them', async () => {
    let queries = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        queries++;
        return args.result;
      },
    };
    const db = getDb().db.withPlugin(counter);
    await loadDocuments(db, { storeIds: [1] }, options);
    const one = queries;
    queries = 0;
    await loadDocuments(db, { storeIds: [1, 2, 3, 4] }, options);
    expect(queries).toBe(one);
    // 16 catalogue tables, and (issue 30) the review stats and the stores' `reviews` setting.
    expect(one).toBeLessThanOrEqual(18);
  });

  it('finds what a change touches: parent and siblings of a child, kits of a member', async () => {
    const { db } = getDb();
    const flower = bySku(1, 'FL-BLUE-DREAM');
    const child = flower.configurable_children[1];
    const affected = await affectedProductIds(db, 1, [child.id]);
    expect(affected).toEqual(expect.arrayContaining([flower.id, ...flower.configurable_children.map((c) => c.id)]));
    const bundle = bySku(1, BUNDLE_SKU);
    const member = bundle.bundle_options[0].product_links[0].product!;
    const forMember = await affectedProductIds(db, 1, [member.id]);
    expect(forMember).toEqual(expect.arrayContaining([member.id, bundle.id]));
    // The kit's documents need every member's rows.
    const members = bundle.product_links.map((l) => l.product!.id);
    expect(forMember).toEqual(expect.arrayContaining(members));
    const { stores: partial } = await loadDocuments(db, { storeId: 1, productIds: forMember }, options);
    expect(partial[0].products.find((p) => p.id === bundle.id)).toEqual(bundle);
    expect(await affectedProductIds(db, 1, [])).toEqual([]);
  });
});
