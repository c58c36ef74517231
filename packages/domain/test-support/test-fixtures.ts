/**
 * Builders of catalogue documents for this package's tests (not exported from the package):
 * complete, valid documents with only the fields a test cares about overridden.
 */
import type { BundleOption, CatalogProduct, ConfigurableChild, LinkedProduct, ProductLink, StockInfo } from '../src/product.ts';

export const IN_STOCK: StockInfo = { qty: 100, is_in_stock: true, manage_stock: true, low_stock_threshold: 5 };
export const OUT_OF_STOCK: StockInfo = { qty: 0, is_in_stock: false, manage_stock: true, low_stock_threshold: 5 };

const priceDefaults = { special_price: null, special_from_date: null, special_to_date: null, tier_prices: [] };

export function child(overrides: Partial<ConfigurableChild> & { id: number }): ConfigurableChild {
  return {
    sku: `C-${overrides.id}`,
    name: `Child ${overrides.id}`,
    status: 1,
    size: null,
    image: null,
    stock: IN_STOCK,
    price: 1000,
    ...priceDefaults,
    ...overrides,
  };
}

export function member(overrides: Partial<LinkedProduct> & { id: number }): LinkedProduct {
  return {
    sku: `M-${overrides.id}`,
    name: `Member ${overrides.id}`,
    type_id: 'simple',
    status: 1,
    stock: IN_STOCK,
    price: 1000,
    ...priceDefaults,
    ...overrides,
  };
}

export function product(overrides: Partial<CatalogProduct> = {}): CatalogProduct {
  return {
    id: 1,
    sku: 'P-1',
    type_id: 'simple',
    name: 'Blue Dream',
    slug: 'blue-dream',
    url_key: 'blue-dream',
    url_path: 'menu/flower/blue-dream',
    status: 1,
    visibility: 4,
    tax_class_id: 2,
    dispensaryID: 1,
    license_type: 'both',
    category_ids: [3],
    category: [],
    image: '/b/d/blue-dream.png',
    media_gallery: [],
    size: null,
    uom: 'ea',
    brand: 'Verdant Farms',
    brand_id: 7,
    discount_group: null,
    discount_group_id: null,
    canna_type: 1,
    strain_type: 'hybrid',
    thc_percent: 21.5,
    cbd_percent: 0.1,
    description: '',
    short_description: '',
    discovery_tags: [],
    unit_weight_grams_equivelent: null,
    staff_pick: false,
    best_seller: false,
    new: false,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-02T00:00:00Z',
    stock: IN_STOCK,
    discounts: [],
    configurable_options: [],
    configurable_children: [],
    product_links: [],
    bundle_options: [],
    custom_options: [],
    custom_attributes: [],
    price: 1000,
    ...priceDefaults,
    ...overrides,
  };
}

/** A flower product configurable by size (91–95). */
export function flower(children: ConfigurableChild[], overrides: Partial<CatalogProduct> = {}): CatalogProduct {
  return product({
    type_id: 'configurable',
    uom: 'g',
    configurable_options: [
      {
        attribute_id: 142,
        attribute_code: 'size',
        label: 'Size',
        position: 0,
        values: [91, 92, 93, 94, 95].map((v) => ({ value_index: v, label: String(v) })),
      },
    ],
    configurable_children: children,
    ...overrides,
  });
}

/** A kit's link to a member product (grouped unless the option makes it a bundle link). */
export function productLink(m: LinkedProduct, extra: Partial<ProductLink> = {}): ProductLink {
  return { id: m.id * 10, link_type: 'associated', linked_product_sku: m.sku, linked_product_type: m.type_id, qty: 1, position: 0, is_default: false, product: m, ...extra };
}

/** A required radio bundle option over `links` (made bundle links). */
export function bundleOption(option_id: number, links: ProductLink[], extra: Partial<BundleOption> = {}): BundleOption {
  return { option_id, title: `Option ${option_id}`, type: 'radio', required: true, position: option_id, product_links: links.map((l) => ({ ...l, link_type: 'bundle' })), ...extra };
}
