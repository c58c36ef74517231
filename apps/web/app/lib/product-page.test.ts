import { describe, expect, it } from 'vitest';
import type { CatalogProduct, ConfigurableChild, LinkedProduct, StockInfo } from '@verdant/domain';
import { chosenUnitPrice, defaultBundleChoice } from '@verdant/domain';
import {
  bundleOptionViews,
  bundlePayload,
  chosenPriceView,
  compareRow,
  galleryImages,
  groupedMembers,
  initialGroupedQtys,
  newBundleItem,
  newGroupedMemberItem,
  pageCustomerGroup,
  parseSkuList,
  productOffers,
  sizeChoices,
  stockLabel,
} from './product-page.ts';

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
    // What the size shows as its price (charge) is what the cart charges: the weight deal (issue 11).
    expect(sizeChoices(p, NOW)[2]).toMatchObject({ finalPrice: 9500, discountPrice: 9000, charge: 9000, perGram: 1286 });
    expect(sizeChoices(p, NOW)[2].charge).toBe(chosenUnitPrice(p.configurable_children[0], p, NOW).final_price);
    expect(sizeChoices(product(), new Date('2026-07-02T00:00:00Z'))[1].finalPrice).toBe(5200);
  });

  it('is empty for a simple product', () => {
    expect(sizeChoices(product({ type_id: 'simple' }), NOW)).toEqual([]);
  });
});

describe('customer groups on the page (issue 11)', () => {
  const tiers = [
    { customer_group_id: 0, qty: 3, price: 1440 },
    { customer_group_id: 0, qty: 5, price: 1360 },
    { customer_group_id: 3, qty: 1, price: 1520 },
    { customer_group_id: 3, qty: 3, price: 1360 },
  ];
  const member = { customer_group_id: 3, price: 1500, special_price: null, special_from_date: null, special_to_date: null };

  it('prices a guest render with the default group, and the logged-in customer with theirs once hydrated', () => {
    expect(pageCustomerGroup(false, { group_id: 3 })).toBe(0); // the server's (shared, cached) HTML and the first browser render
    expect(pageCustomerGroup(true, null)).toBe(0);
    expect(pageCustomerGroup(true, { group_id: 3 })).toBe(3);
    expect(pageCustomerGroup(true, { group_id: 1 })).toBe(1);
  });

  it('shows each group its own price row and tiers, and a group without rows the default ones', () => {
    const p = product({ configurable_children: [child(91, 1600, { tier_prices: tiers, group_prices: [member] })] });
    expect(sizeChoices(p, NOW, 0)[0]).toMatchObject({ price: 1600, finalPrice: 1600, charge: 1600 });
    expect(sizeChoices(p, NOW, 1)[0]).toMatchObject({ price: 1600, finalPrice: 1600, charge: 1600 });
    expect(sizeChoices(p, NOW, 3)[0]).toMatchObject({ price: 1500, finalPrice: 1500, charge: 1500 });
    expect(productOffers(p, NOW, 3)[0].price).toBe(1500);
  });

  it('chosenPriceView: the unit price at the chosen quantity and the group’s "Buy N+" offers', () => {
    const simple = product({ type_id: 'simple', configurable_children: [], price: 1600, tier_prices: tiers });
    expect(chosenPriceView(simple, null, NOW, 0, 1)).toEqual({
      price: 1600,
      final_price: 1600,
      sale: false,
      offers: [
        { qty: 3, each: 1440 },
        { qty: 5, each: 1360 },
      ],
    });
    expect(chosenPriceView(simple, null, NOW, 1, 4).final_price).toBe(1440); // group 1 has no tiers: the default "buy 3"
    expect(chosenPriceView(simple, null, NOW, 3, 1)).toMatchObject({ final_price: 1520, offers: [{ qty: 3, each: 1360 }] });
    expect(chosenPriceView(simple, null, NOW, 3, 5).final_price).toBe(1360);
    expect(chosenPriceView(simple, null, NOW, 0, 0).final_price).toBe(1600); // a quantity being typed counts as 1
  });
});

describe('stock, offers, gallery', () => {
  it('names the stock status', () => {
    expect(stockLabel(IN)).toEqual({ status: 'ok', label: 'In stock' });
    expect(stockLabel({ ...IN, qty: 3 })).toEqual({ status: 'volatile', label: 'Low stock' });
    expect(stockLabel(OUT)).toEqual({ status: 'out_of_stock', label: 'Out of stock' });
  });

  it('offers each enabled child of a configurable at what the cart charges (its weight deal included)', () => {
    const p = product();
    p.configurable_children.push(child(94, 17500, { status: 2 }));
    expect(productOffers(p, NOW)).toEqual([
      { sku: 'BD-91', price: 1600, inStock: true, childSku: 'BD-91' },
      { sku: 'BD-92', price: 4800, inStock: true, childSku: 'BD-92' },
      { sku: 'BD-93', price: 9000, inStock: false, childSku: 'BD-93' },
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

  it('lists grouped members by position at qty 1: disabled ones left out, out-of-stock ones marked', () => {
    const p = product({
      type_id: 'grouped',
      product_links: [link(member(3, 700, { size: 92, uom: 'g' })), link(member(1, 1000)), link(member(2, 500, { stock: OUT })), link(member(4, 900, { status: 2 })), link(member(5, 1), { link_type: 'related' })],
    });
    const members = groupedMembers(p, NOW);
    expect(members.map((m) => [m.sku, m.qty, m.finalPrice, m.available, m.stock.label, m.sizeLabel])).toEqual([
      ['M-1', 1, 1000, true, 'In stock', 'Each'],
      ['M-2', 1, 500, false, 'Out of stock', 'Each'],
      ['M-3', 1, 700, true, 'In stock', '3.5 g (1/8 oz)'],
    ]);
    expect(initialGroupedQtys(members)).toEqual({ 'M-1': 1, 'M-2': 0, 'M-3': 1 });
  });

  const bundle = () =>
    product({
      type_id: 'bundle',
      sku: 'KIT',
      canna_type: null,
      bundle_options: [
        { option_id: 7, title: 'Extras', type: 'checkbox', required: false, position: 2, product_links: [bundleLink(member(5, 499, { canna_type: 4 }), 51, { qty: 2, is_default: true }), bundleLink(member(6, 3000, { stock: OUT }), 52)] },
        { option_id: 3, title: 'Flower', type: 'radio', required: true, position: 1, product_links: [bundleLink(member(1, 3800, { size: 92, uom: 'g', canna_type: 1 }), 31), bundleLink(member(2, 3500, { size: 92, uom: 'g', canna_type: 1, status: 2 }), 32, { is_default: true })] },
      ],
    });
  const bundleLink = (m: LinkedProduct, id: number, extra = {}) => link(m, { id, link_type: 'bundle', qty: 1, position: id, ...extra });

  it('shows bundle options by position with their members’ link qty; single choice for radio and select', () => {
    const views = bundleOptionViews(bundle(), NOW);
    expect(views.map((v) => [v.title, v.single, v.required, v.members.map((m) => [m.sku, m.qty, m.linkId, m.available])])).toEqual([
      ['Flower', true, true, [['M-1', 1, 31, true]]],
      ['Extras', false, false, [['M-5', 2, 51, true], ['M-6', 1, 52, false]]],
    ]);
  });

  it('makes a bundle line with its link-id options, members and the domain price', () => {
    const p = bundle();
    const choice = defaultBundleChoice(p.bundle_options);
    expect(choice).toEqual({ 3: ['M-1'], 7: ['M-5'] });
    const item = newBundleItem(p, choice, 2, NOW)!;
    expect(item).toMatchObject({ sku: 'KIT', qty: 2, type_id: 'bundle', price: 3800 + 998, size: null, parentSku: null });
    expect(item.product_option).toEqual({ extension_attributes: { bundle_options: [{ option_id: 3, option_qty: 1, option_selections: [31] }, { option_id: 7, option_qty: 1, option_selections: [51] }] } });
    expect(item.kit).toEqual([
      { sku: 'M-1', name: 'Member 1', qty: 1, size: 92, canna_type: 1, unit_weight_grams_equivelent: null },
      { sku: 'M-5', name: 'Member 5', qty: 2, size: null, canna_type: 4, unit_weight_grams_equivelent: null },
    ]);
    // An optional option left empty is sent empty (the server then adds none of it).
    expect(newBundleItem(p, { 3: ['M-1'], 7: [] }, 1, NOW)).toMatchObject({
      price: 3800,
      product_option: { extension_attributes: { bundle_options: [{ option_id: 3, option_selections: [31] }, { option_id: 7, option_selections: [] }] } },
    });
  });

  it('cannot name a selection without its link id', () => {
    const p = bundle();
    p.bundle_options[1].product_links[0] = { ...p.bundle_options[1].product_links[0], id: undefined };
    expect(bundlePayload(p.bundle_options, { 3: ['M-1'] })).toBeNull();
    expect(newBundleItem(p, { 3: ['M-1'] }, 1, NOW)).toBeNull();
  });

  it('makes a grouped member its own line, weighed by its size when it has no weight', () => {
    const p = product({ type_id: 'grouped', sku: 'SET', slug: 'set', name: 'Set' });
    expect(newGroupedMemberItem(p, member(1, 1000, { size: 92, uom: 'g', canna_type: 1 }), 3, NOW)).toMatchObject({
      sku: 'M-1', qty: 3, type_id: 'simple', size: null, parentSku: null, price: 1000, uom: 'g', canna_type: 1, unit_weight_grams_equivelent: 3.5, path: '/p/SET/set',
    });
    expect(newGroupedMemberItem(p, member(2, 500, { uom: 'ea', unit_weight_grams_equivelent: 1 }), 1, NOW).unit_weight_grams_equivelent).toBe(1);
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
