/**
 * Small, explicit product documents for tests: every field present with a dull default, so a test
 * states only what it is about (`makeProduct({ id: 3, name: 'Blue Dream' })`).
 */
import type { CatalogProduct, ConfigurableChild, LinkedProduct, StockInfo } from '@verdant/domain';

export const IN_STOCK: StockInfo = { qty: 10, is_in_stock: true, manage_stock: true, low_stock_threshold: 2 };
export const OUT_OF_STOCK: StockInfo = { qty: 0, is_in_stock: false, manage_stock: true, low_stock_threshold: 2 };

export function makeProduct(overrides: Partial<CatalogProduct> & { id: number }): CatalogProduct {
  const { id } = overrides;
  const name = overrides.name ?? `Product ${id}`;
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return {
    sku: `SKU-${id}`,
    type_id: 'simple',
    name,
    slug,
    url_key: slug,
    url_path: `p/${slug}`,
    status: 1,
    visibility: 4,
    tax_class_id: 2,
    dispensaryID: 1,
    license_type: 'both',
    category_ids: [10],
    category: [{ category_id: 10, name: 'Accessories', slug: 'accessories', url_path: 'menu/accessories' }],
    image: null,
    media_gallery: [],
    size: null,
    uom: 'ea',
    brand: null,
    brand_id: null,
    discount_group: null,
    discount_group_id: null,
    canna_type: null,
    strain_type: null,
    thc_percent: null,
    cbd_percent: null,
    description: '',
    short_description: '',
    discovery_tags: [],
    unit_weight_grams_equivelent: null,
    staff_pick: false,
    best_seller: false,
    new: false,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    stock: IN_STOCK,
    discounts: [],
    configurable_options: [],
    configurable_children: [],
    product_links: [],
    bundle_options: [],
    custom_options: [],
    custom_attributes: [],
    price: 1000,
    special_price: null,
    special_from_date: null,
    special_to_date: null,
    tier_prices: [],
    ...overrides,
  };
}

export function makeChild(overrides: Partial<ConfigurableChild> & { id: number }): ConfigurableChild {
  return {
    sku: `CHILD-${overrides.id}`,
    name: `Child ${overrides.id}`,
    status: 1,
    size: null,
    image: null,
    stock: IN_STOCK,
    price: 1000,
    special_price: null,
    special_from_date: null,
    special_to_date: null,
    tier_prices: [],
    ...overrides,
  };
}

export function makeLinked(overrides: Partial<LinkedProduct> & { id: number }): LinkedProduct {
  return {
    sku: `MEMBER-${overrides.id}`,
    name: `Member ${overrides.id}`,
    type_id: 'simple',
    status: 1,
    stock: IN_STOCK,
    price: 1000,
    special_price: null,
    special_from_date: null,
    special_to_date: null,
    tier_prices: [],
    ...overrides,
  };
}
