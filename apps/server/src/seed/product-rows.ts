/**
 * Row builders shared by the assortment and the kits: one product with its category assignment,
 * media, custom attributes, stock and price rows. Keeps every generated row complete (all columns
 * set), so a dump reads the same whatever the database defaults are.
 */
import type { ProductLicenseType, Row } from '../db/schema.ts';
import type { IdAllocator, StoreRows } from './rows.ts';

export interface StoreContext {
  storeId: number;
  storeName: string;
  reference: Date;
  ids: IdAllocator;
  rows: StoreRows;
  /** Next position per category id. */
  positions: Map<number, number>;
}

export const imagePath = (sku: string) => `/catalog/product/${sku}.svg`;

export interface ProductFields {
  sku: string;
  name: string;
  slug: string;
  type_id: Row<'products'>['type_id'];
  parent_id?: number | null;
  status?: number;
  visibility?: number;
  tax_class_id: number;
  license_type: ProductLicenseType;
  brand_id: number | null;
  discount_group_id?: number | null;
  canna_type: number | null;
  size?: number | null;
  uom?: string;
  unit_weight_grams_equivelent?: number | null;
  strain_type?: string | null;
  thc_percent?: number | null;
  cbd_percent?: number | null;
  /** Lab facts (issue 30): the demo's flower shows a test date, batch and COA link like an imported menu's. */
  lab_tested_at?: string | null;
  batch_number?: string | null;
  coa_url?: string | null;
  description?: string;
  short_description?: string;
  discovery_tags?: string;
  image: string | null;
  staff_pick?: boolean;
  best_seller?: boolean;
  is_new?: boolean;
  created_at: string;
  updated_at: string;
}

const flag = (b: boolean | undefined): 0 | 1 => (b ? 1 : 0);

/** Add a product row; url_key and url_path are the slug (product URLs are not nested under categories). */
export function addProduct(ctx: StoreContext, f: ProductFields): number {
  const id = ctx.ids.next('product');
  ctx.rows.products.push({
    id,
    store_id: ctx.storeId,
    sku: f.sku,
    parent_id: f.parent_id ?? null,
    type_id: f.type_id,
    name: f.name,
    slug: f.slug,
    url_key: f.slug,
    url_path: f.slug,
    status: f.status ?? 1,
    visibility: f.visibility ?? 4,
    tax_class_id: f.tax_class_id,
    license_type: f.license_type,
    brand_id: f.brand_id,
    discount_group_id: f.discount_group_id ?? null,
    canna_type: f.canna_type,
    size: f.size ?? null,
    uom: f.uom ?? 'ea',
    unit_weight_grams_equivelent: f.unit_weight_grams_equivelent ?? null,
    strain_type: f.strain_type ?? null,
    thc_percent: f.thc_percent ?? null,
    cbd_percent: f.cbd_percent ?? null,
    description: f.description ?? '',
    short_description: f.short_description ?? '',
    discovery_tags: f.discovery_tags ?? '',
    image: f.image,
    staff_pick: flag(f.staff_pick),
    best_seller: flag(f.best_seller),
    is_new: flag(f.is_new),
    created_at: f.created_at,
    updated_at: f.updated_at,
    // Menu-import fields (migration 0012): the demo has no POS behind it.
    external_id: null,
    batch_number: f.batch_number ?? null,
    package_id: null,
    lab_tested_at: f.lab_tested_at ?? null,
    coa_url: f.coa_url ?? null,
  });
  return id;
}

export function assignCategory(ctx: StoreContext, productId: number, categoryId: number): void {
  const position = ctx.positions.get(categoryId) ?? 0;
  ctx.positions.set(categoryId, position + 1);
  ctx.rows.product_categories.push({ product_id: productId, store_id: ctx.storeId, category_id: categoryId, position });
}

export function addMedia(
  ctx: StoreContext,
  productId: number,
  image: string | null,
  label: string,
  video?: string,
): void {
  if (!image || image === 'no_selection') return;
  ctx.rows.product_media.push({ product_id: productId, position: 0, media_type: 'image', image, video: null, label });
  if (video) {
    ctx.rows.product_media.push({
      product_id: productId,
      position: 1,
      media_type: 'external-video',
      image,
      video,
      label,
    });
  }
}

export function addAttributes(ctx: StoreContext, productId: number, values: Record<string, string>): void {
  for (const [attribute_code, value] of Object.entries(values).sort(([a], [b]) => a.localeCompare(b))) {
    ctx.rows.product_attribute_values.push({ product_id: productId, attribute_code, value });
  }
}

export interface StockFields {
  qty: number;
  inStock?: boolean;
  manage?: boolean;
  lowStock?: number;
}

export function addStock(ctx: StoreContext, productId: number, s: StockFields, updatedAt: string): void {
  ctx.rows.stock.push({
    product_id: productId,
    qty: s.qty,
    is_in_stock: flag(s.inStock ?? s.qty > 0),
    manage_stock: flag(s.manage ?? true),
    low_stock_threshold: s.lowStock ?? 0,
    version: 0,
    updated_at: updatedAt,
  });
}

export interface PriceFields {
  price: number;
  special?: number | null;
  from?: string | null;
  to?: string | null;
}

export function addPrice(ctx: StoreContext, productId: number, p: PriceFields): void {
  ctx.rows.product_prices.push({
    product_id: productId,
    customer_group_id: 0,
    price_cents: p.price,
    special_price_cents: p.special ?? null,
    special_from_date: p.special == null ? null : (p.from ?? null),
    special_to_date: p.special == null ? null : (p.to ?? null),
    medical_price_cents: null,
  });
}
