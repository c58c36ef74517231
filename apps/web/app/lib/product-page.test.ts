import { describe, expect, it } from 'vitest';
import type { CatalogProduct, ConfigurableChild, LinkedProduct, StockInfo } from '@verdant/domain';
import { compareRow, galleryImages, kitMembers, parseSkuList, productOffers, sizeChoices, stockLabel } from './product-page.ts';

const NOW = new Date('2026-06-15T12:00:00Z');
const IN: StockInfo = { qty: 100, is_in_stock: true, manage_stock: true, low_stock_threshold: 5 };
const OUT: StockInfo = { ...IN, qty: 0, is_in_stock: false };
const prices = { special_price: null, special_from_date: null, special_to_date: null, tier_prices: [] };

const child = (size: number, price: number, extra: Partial<ConfigurableChild> = {}): ConfigurableChild => ({
  id: size,
  sku: `BD-${size}`,
  name: `Blue Dream ${size}`,
  status: 1,
  size,
  image: null,
  stock: IN,
  price,
  ...prices,
  ...extra,
});

function product(extra: Partial<CatalogProduct> = {}): CatalogProduct {
  return {
    id: 1, sku: 'BD', type_id: 'configurable', name: 'Blue Dream', slug: 'blue-dream', url_key: 'blue-dream', url_path: 'blue-dream',
    status: 1, visibility: 4, tax_class_id: 2, dispensaryID: 1, license_type: 'both', category_ids: [13],
    category: [{ category_id: 13, name: 'Hybrid', slug: 'hybrid', url_path: 'menu/flower/hybrid' }],
    image: '/bd.svg', media_gallery: [], size: null, uom: 'g', brand: 'Sierra', brand_id: 1, discount_group: null, discount_group_id: null,
    canna_type: 1, strain_type: 'Hybrid', thc_percent: 21.1, cbd_percent: 0.7, description: '', short_description: '',
    discovery_tags: ['happy'], unit_weight_grams_equivelent: null, staff_pick: false, best_seller: false, new: false,
    created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', stock: IN,
    discounts: [{ TYPE: 'qty_discount', qty_to_buy: 7, price: 9000 }],
    configurable_options: [{ attribute_id: 142, attribute_code: 'size', label: 'Size', position: 0, values: [91, 92, 93].map((v) => ({ value_index: v, label: String(v) })) }],
    configurable_children: [
      child(91, 1600),
      child(92, 5200, { special_price: 4800, special_from_date: '2026-06-01', special_to_date: '2026-06-30' }),
      child(93, 9500, { stock: OUT }),
    ],
    product_links: [], bundle_options: [], custom_options: [], custom_attributes: [],
    price: 1600, ...prices,
    ...extra,
  };
}

describe('sizeChoices', () => {
  it('lists each size with its price, special, quantity discount and price per gram', () => {
    const [one, eighth, quarter] = sizeChoices(product(), NOW);
    expect(one).toMatchObject({ size: 91, label: '1 g', available: true, price: 1600, finalPrice: 1600, discountPrice: null, perGram: 1600 });
    expect(eighth).toMatchObject({ label: '3.5 g (1/8 oz)', price: 5200, finalPrice: 4800, perGram: 1371 });
    expect(quarter).toMatchObject({ label: '7 g (1/4 oz)', available: false, child: { sku: 'BD-93' } });
  });

  it('uses the quantity discount when it is lower, and ignores specials outside their window', () => {
    const p = product({ configurable_children: [child(93, 9500)] });
    expect(sizeChoices(p, NOW)[2]).toMatchObject({ finalPrice: 9500, discountPrice: 9000, perGram: 1286 });
    expect(sizeChoices(product(), new Date('2026-07-02T00:00:00Z'))[1].finalPrice).toBe(5200);
  });

  it('is empty for a simple product', () => {
    expect(sizeChoices(product({ type_id: 'simple' }), NOW)).toEqual([]);
  });
});

describe('stock, offers, gallery', () => {
  it('names the stock status', () => {
    expect(stockLabel(IN)).toEqual({ status: 'ok', label: 'In stock' });
    expect(stockLabel({ ...IN, qty: 3 })).toEqual({ status: 'volatile', label: 'Low stock' });
    expect(stockLabel(OUT)).toEqual({ status: 'out_of_stock', label: 'Out of stock' });
  });

  it('offers each enabled child of a configurable at its final price', () => {
    const p = product();
    p.configurable_children.push(child(94, 17500, { status: 2 }));
    expect(productOffers(p, NOW)).toEqual([
      { sku: 'BD-91', price: 1600, inStock: true, childSku: 'BD-91' },
      { sku: 'BD-92', price: 4800, inStock: true, childSku: 'BD-92' },
      { sku: 'BD-93', price: 9500, inStock: false, childSku: 'BD-93' },
    ]);
  });

  it('puts the main image first and drops duplicates and no_selection', () => {
    const p = product({
      media_gallery: [
        { image: '/b.svg', label: 'Jar', position: 2, video: null },
        { image: '/bd.svg', label: null, position: 1, video: null },
        { image: 'no_selection', label: null, position: 3, video: null },
      ],
    });
    expect(galleryImages(p)).toEqual([
      { image: '/bd.svg', alt: 'Blue Dream' },
      { image: '/b.svg', alt: 'Jar' },
    ]);
  });
});

describe('kits', () => {
  const member = (id: number, price: number, extra: Partial<LinkedProduct> = {}): LinkedProduct => ({
    id, sku: `M-${id}`, name: `Member ${id}`, type_id: 'simple', status: 1, stock: IN, price, ...prices, ...extra,
  });
  const link = (m: LinkedProduct, extra = {}) => ({
    link_type: 'associated' as const, linked_product_sku: m.sku, linked_product_type: 'simple' as const, qty: 3, position: m.id, is_default: false, product: m, ...extra,
  });

  it('lists grouped members at qty 1, leaving out unavailable ones', () => {
    const p = product({ type_id: 'grouped', product_links: [link(member(1, 1000)), link(member(2, 500, { stock: OUT }))] });
    expect(kitMembers(p, NOW)).toEqual([{ sku: 'M-1', name: 'Member 1', qty: 1, price: 1000, finalPrice: 1000, inStock: true }]);
  });

  it('lists each bundle option’s default selection with its qty', () => {
    const p = product({
      type_id: 'bundle',
      bundle_options: [
        { option_id: 1, title: 'A', type: 'radio', required: true, position: 1, product_links: [link(member(1, 1000), { link_type: 'bundle', qty: 2 }), link(member(2, 800), { link_type: 'bundle', is_default: true, qty: 1 })] },
      ],
    });
    expect(kitMembers(p, NOW).map((m) => [m.sku, m.qty])).toEqual([['M-2', 1]]);
  });
});

describe('compare', () => {
  it('collects the comparable attributes', () => {
    expect(compareRow(product(), NOW, '/p/BD/blue-dream')).toMatchObject({
      sku: 'BD',
      path: '/p/BD/blue-dream',
      brand: 'Sierra',
      price: 1600,
      finalPrice: 1600,
      priceFrom: true,
      sizes: ['1 g', '3.5 g (1/8 oz)'],
      categories: ['Hybrid'],
      tags: ['happy'],
      inStock: true,
    });
  });

  it('parses the sku list of the compare URL', () => {
    expect(parseSkuList('a, b,,a,c')).toEqual(['a', 'b', 'c']);
    expect(parseSkuList(null)).toEqual([]);
    expect(parseSkuList('a,b,c', 2)).toEqual(['a', 'b']);
  });
});
