/**
 * The catalogue documents of spec §3 as the API, the search index, the pages and (later) the
 * offline cache see them: one shape everywhere. Built on the server from the database
 * (apps/server/src/catalog/documents.ts). Money is integer cents in every field named price;
 * percentages are plain numbers (15 = 15 %). Timestamps are ISO-8601 UTC strings.
 */
import type { Cents } from './money.ts';
import type { LicenseType } from './license.ts';
import type { ProductType } from './catalog.ts';

export type ProductLicenseType = LicenseType | 'both';

/** ok: enough; volatile: low or uncertain; out_of_stock: none (spec §4). */
export type StockStatus = 'ok' | 'volatile' | 'out_of_stock';

export interface StockInfo {
  /** Grams for uom `g` products, units otherwise. */
  qty: number;
  is_in_stock: boolean;
  manage_stock: boolean;
  /** At or below this quantity the status is volatile. */
  low_stock_threshold: number;
}

export interface MediaEntry {
  image: string;
  label: string | null;
  position: number;
  video: string | null;
}

export interface QtyDiscount {
  TYPE: 'qty_discount';
  /** Grams (the size's weight) that this price is for. */
  qty_to_buy: number;
  /** Total price for that weight. */
  price: Cents;
}

export interface TierPrice {
  customer_group_id: number;
  qty: number;
  price: Cents;
}

/** A customer group's own price row for a unit (unit-price.ts groupPriceRow: it replaces the default row). */
export interface GroupPrice {
  customer_group_id: number;
  price: Cents;
  special_price: Cents | null;
  special_from_date: string | null;
  special_to_date: string | null;
}

/** Price fields every sellable document carries (spec §3 price fields; tax added by the cart). */
export interface PriceFields {
  price: Cents;
  special_price: Cents | null;
  special_from_date: string | null;
  special_to_date: string | null;
  /** Tier rows of every customer group (unit-price.ts groupTiers picks a group's). */
  tier_prices: TierPrice[];
  /** Price rows of groups with prices of their own; the fields above are the store's default row. */
  group_prices?: GroupPrice[];
}

export interface ConfigurableOptionValue {
  value_index: number;
  label: string;
}

export interface ConfigurableOption {
  attribute_id: number;
  attribute_code: string;
  label: string;
  position: number;
  values: ConfigurableOptionValue[];
}

export interface ConfigurableChild extends PriceFields {
  id: number;
  sku: string;
  name: string;
  /** 0/1 enabled; 2+ unavailable. */
  status: number;
  /** Size id (91–95) for weighed flower. */
  size: number | null;
  image: string | null;
  stock: StockInfo;
}

export interface ProductLink {
  /** The link's id: a bundle option's selection id in a cart's bundle_options (spec §3 product_option). */
  id?: number;
  link_type: 'associated' | 'bundle' | 'related' | 'crosssell' | 'upsell';
  linked_product_sku: string;
  linked_product_type: ProductType;
  qty: number;
  position: number;
  is_default: boolean;
  /** The linked product, filled by the server for grouped and bundle members. */
  product?: LinkedProduct;
}

/** A grouped/bundle member as embedded in its parent. */
export interface LinkedProduct extends PriceFields {
  id: number;
  sku: string;
  name: string;
  type_id: ProductType;
  status: number;
  stock: StockInfo;
  /** Size id (91–95) of a weighed member: its grams count towards the purchase limit (spec §5). */
  size?: number | null;
  uom?: 'g' | 'ea';
  canna_type?: number | null;
  unit_weight_grams_equivelent?: number | null;
}

export interface BundleOption {
  option_id: number;
  title: string;
  type: 'select' | 'radio' | 'checkbox' | 'multi';
  required: boolean;
  position: number;
  product_links: ProductLink[];
}

export interface CustomOptionValue {
  option_type_id: number;
  title: string;
  price_type: 'fixed' | 'percent';
  /** Cents for fixed add-ons, percent of the product price for percent add-ons. */
  price: number;
  position: number;
}

export interface CustomOption {
  option_id: number;
  title: string;
  type: 'field' | 'area' | 'drop_down' | 'radio' | 'checkbox' | 'multiple';
  is_require: boolean;
  position: number;
  values: CustomOptionValue[];
}

export interface ProductCategoryRef {
  category_id: number;
  name: string;
  slug: string;
  url_path: string;
}

export interface CustomAttribute {
  attribute_code: string;
  value: string;
}

export interface CatalogProduct extends PriceFields {
  id: number;
  sku: string;
  type_id: ProductType;
  name: string;
  slug: string;
  url_key: string;
  url_path: string;
  status: number;
  visibility: number;
  tax_class_id: number;
  /** Store id (spec's dispensaryID). */
  dispensaryID: number;
  license_type: ProductLicenseType;
  /** Every category the product is in (leaf categories); filters expand descendants instead. */
  category_ids: number[];
  category: ProductCategoryRef[];
  image: string | null;
  media_gallery: MediaEntry[];
  size: number | null;
  uom: 'g' | 'ea';
  brand: string | null;
  brand_id: number | null;
  discount_group: string | null;
  discount_group_id: number | null;
  canna_type: number | null;
  strain_type: string | null;
  thc_percent: number | null;
  cbd_percent: number | null;
  /**
   * Lab facts from the menu (present only when known): test date `2026-05-02`, batch / lot number,
   * certificate of analysis link. A product with sizes has those its listed sizes agree on.
   */
  lab_tested_at?: string;
  batch_number?: string;
  coa_url?: string;
  /**
   * Issue 30: the average and count of the product's approved reviews; present only when it has one
   * and the store shows reviews (so a store with reviews switched off carries no rating anywhere).
   */
  rating?: import('./potency-rating.ts').ProductRating;
  description: string;
  short_description: string;
  discovery_tags: string[];
  unit_weight_grams_equivelent: number | null;
  staff_pick: boolean;
  best_seller: boolean;
  new: boolean;
  created_at: string;
  updated_at: string;
  stock: StockInfo;
  discounts: QtyDiscount[];
  configurable_options: ConfigurableOption[];
  configurable_children: ConfigurableChild[];
  product_links: ProductLink[];
  bundle_options: BundleOption[];
  custom_options: CustomOption[];
  custom_attributes: CustomAttribute[];
}

export interface CatalogCategory {
  id: number;
  parent_id: number | null;
  /** Ids from the root down to this category. */
  parent_ids: number[];
  name: string;
  slug: string;
  url_key: string;
  url_path: string;
  is_active: boolean;
  level: number;
  position: number;
  path: string;
  product_count: number;
  include_in_menu: boolean;
  children_count: number;
  children_data?: CatalogCategory[];
}

export interface CatalogAttribute {
  attribute_id: number;
  attribute_code: string;
  frontend_label: string;
  frontend_input: string;
  is_user_defined: boolean;
  is_visible: boolean;
  is_comparable: boolean;
  is_filterable: boolean;
  position: number;
  options: { value: string; label: string }[];
}
