/**
 * Row types of the store and catalogue tables (spec §3): everything a seed or an import writes.
 * Conventions are in ../schema.ts. Catalogue ids are explicit (they come from the seed or the source
 * system), so none of these tables has a Generated id.
 */
import type { ProductLicenseType, ProductType } from '@verdant/domain';
import type { Defaulted, Flag, JsonText, Timestamp } from './common.ts';

export type { ProductLicenseType } from '@verdant/domain';

// ---------------------------------------------------------------- stores and catalogue

export interface StoresTable {
  /** The storeId of the stores file. */
  id: number;
  code: string;
  name: string;
  /** The whole store object of the stores file, as JSON. */
  settings: JsonText;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Who wrote a store's catalogue, so the demo seed never overwrites an imported one. */
export interface CatalogSourcesTable {
  store_id: number;
  source: 'demo' | 'import';
  /** The options that produced it (demo: productsPerStore, referenceDate). */
  options: JsonText | null;
  /** For the demo: its reference date, so that reseeding writes identical rows. */
  written_at: Timestamp;
}

export interface AttributeOption {
  value: string;
  label: string;
}

export interface AttributesTable {
  attribute_id: number;
  attribute_code: string;
  frontend_label: string;
  /** select | boolean | text | price | decimal */
  frontend_input: string;
  is_user_defined: Defaulted<Flag>;
  is_visible: Defaulted<Flag>;
  is_comparable: Defaulted<Flag>;
  is_filterable: Defaulted<Flag>;
  position: Defaulted<number>;
  /** `AttributeOption[]` as JSON; brands are the options of brand_id, discount groups of discount_group_id. */
  options: Defaulted<JsonText>;
}

export interface CategoriesTable {
  store_id: number;
  id: number;
  /** Null only for the root category (id 2). */
  parent_id: number | null;
  name: string;
  slug: string;
  url_key: string;
  url_path: string;
  is_active: Defaulted<Flag>;
  level: number;
  position: Defaulted<number>;
  /** Ids from the root down to this category, `/`-separated: `2/3/11`. */
  path: string;
  /** Catalogue-visible, enabled products in this category and its descendants. */
  product_count: Defaulted<number>;
  include_in_menu: Defaulted<Flag>;
  updated_at: Timestamp;
}

export interface ProductsTable {
  id: number;
  store_id: number;
  sku: string;
  /** The configurable parent of a child; null for every product a shopper can open. */
  parent_id: number | null;
  type_id: ProductType;
  name: string;
  slug: string;
  url_key: string;
  url_path: string;
  /** 0/1 enabled, 2+ unavailable (spec §4). */
  status: Defaulted<number>;
  /** 1 not visible individually, 2 catalogue, 3 search, 4 both. */
  visibility: Defaulted<number>;
  tax_class_id: Defaulted<number>;
  license_type: Defaulted<ProductLicenseType>;
  brand_id: number | null;
  discount_group_id: number | null;
  /** 4 (accessory) and 6 (hemp CBD) are not cannabis and never count toward limits (spec §5). */
  canna_type: number | null;
  /** Size id 91–95 for weighed flower (spec §9). */
  size: number | null;
  /** `g` for weighed products (stock and limits in grams), `ea` otherwise. */
  uom: Defaulted<string>;
  unit_weight_grams_equivelent: number | null;
  strain_type: string | null;
  thc_percent: number | null;
  cbd_percent: number | null;
  description: Defaulted<string>;
  short_description: Defaulted<string>;
  /** Comma-separated effects, flavours and uses: `relaxed, citrus, sleep`. */
  discovery_tags: Defaulted<string>;
  /** `/catalog/product/<sku>.svg`, `no_selection` or null. */
  image: string | null;
  staff_pick: Defaulted<Flag>;
  best_seller: Defaulted<Flag>;
  is_new: Defaulted<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The point-of-sale system's id (menu import, migration 0012); unique per store, null when none. */
  external_id: Defaulted<string | null>;
  /** Compliance data of the package on sale (menu import): batch/lot, package tag, lab-test date, COA link. */
  batch_number: Defaulted<string | null>;
  package_id: Defaulted<string | null>;
  /** ISO date `2026-05-01`. */
  lab_tested_at: Defaulted<string | null>;
  coa_url: Defaulted<string | null>;
}

export interface ProductCategoriesTable {
  product_id: number;
  store_id: number;
  category_id: number;
  position: Defaulted<number>;
}

export interface ProductMediaTable {
  product_id: number;
  position: number;
  media_type: Defaulted<'image' | 'external-video'>;
  image: string;
  video: string | null;
  label: string | null;
}

export interface ProductAttributeValuesTable {
  product_id: number;
  attribute_code: string;
  value: string;
}

export interface ProductConfigurableOptionsTable {
  product_id: number;
  attribute_id: number;
  attribute_code: string;
  label: string;
  position: Defaulted<number>;
}

export interface ProductConfigurableOptionValuesTable {
  product_id: number;
  attribute_id: number;
  value_index: number;
  label: string;
  position: Defaulted<number>;
}

export interface BundleOptionsTable {
  option_id: number;
  product_id: number;
  title: string;
  type: 'select' | 'radio' | 'checkbox' | 'multi';
  required: Defaulted<Flag>;
  position: Defaulted<number>;
}

export interface ProductLinksTable {
  id: number;
  product_id: number;
  /** `associated` for grouped members, `bundle` for bundle selections. */
  link_type: 'associated' | 'bundle' | 'related' | 'crosssell' | 'upsell';
  linked_product_sku: string;
  linked_product_type: ProductType;
  qty: Defaulted<number>;
  position: Defaulted<number>;
  is_default: Defaulted<Flag>;
  bundle_option_id: number | null;
}

export type PriceType = 'fixed' | 'percent';

export interface CustomOptionsTable {
  option_id: number;
  product_id: number;
  title: string;
  type: 'field' | 'area' | 'drop_down' | 'radio' | 'checkbox' | 'multiple';
  is_require: Defaulted<Flag>;
  position: Defaulted<number>;
  /** For options without values (field, area); null for select-like options. */
  price_type: PriceType | null;
  price_cents: number | null;
  price_percent: number | null;
  max_characters: number | null;
}

/** A fixed add-on is `price_cents`; a percent add-on is `price_percent` of the product price. */
export interface CustomOptionValuesTable {
  option_type_id: number;
  option_id: number;
  title: string;
  price_type: PriceType;
  price_cents: number | null;
  price_percent: number | null;
  position: Defaulted<number>;
}

export interface StockTable {
  product_id: number;
  /** Grams for uom `g` products, units otherwise. */
  qty: Defaulted<number>;
  is_in_stock: Defaulted<Flag>;
  manage_stock: Defaulted<Flag>;
  low_stock_threshold: Defaulted<number>;
  /** Bumped on every write, for optimistic concurrency at order save. */
  version: Defaulted<number>;
  updated_at: Timestamp;
}

export interface ProductPricesTable {
  product_id: number;
  customer_group_id: Defaulted<number>;
  price_cents: number;
  special_price_cents: number | null;
  special_from_date: Timestamp | null;
  special_to_date: Timestamp | null;
  /** What a medical shopper pays when it differs from `price_cents` (menu import, migration 0012). */
  medical_price_cents: Defaulted<number | null>;
}

export interface TierPricesTable {
  product_id: number;
  customer_group_id: Defaulted<number>;
  qty: number;
  price_cents: number;
}

/** Weight-based price: buying exactly `qty_to_buy` grams costs `price_cents` in total (spec §9). */
export interface QtyDiscountsTable {
  product_id: number;
  qty_to_buy: number;
  price_cents: number;
}

export interface TaxRulesTable {
  id: number;
  store_id: number;
  code: string;
  priority: Defaulted<number>;
  position: Defaulted<number>;
  /** number[] as JSON */
  product_tax_class_ids: JsonText;
  /** number[] as JSON */
  customer_tax_class_ids: JsonText;
}

export interface TaxRatesTable {
  id: number;
  tax_rule_id: number;
  store_id: number;
  code: string;
  kind: 'excise' | 'sales';
  /** Percent: 15 means 15 %. */
  rate: number;
  tax_country_id: string;
  region_name: string | null;
  tax_region_id: Defaulted<number>;
  tax_postcode: string | null;
}

export interface CmsPagesTable {
  id: number;
  store_id: number;
  identifier: string;
  title: string;
  content_heading: string | null;
  /** Plain paragraphs separated by blank lines; never HTML. */
  content: string;
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  is_active: Defaulted<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CmsBlocksTable {
  id: number;
  store_id: number;
  identifier: string;
  title: string;
  content: string;
  is_active: Defaulted<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UrlRewritesTable {
  store_id: number;
  /** Without leading slash: `shop/blue-dream-eighth`. */
  request_path: string;
  target_type: 'product' | 'category' | 'cms_page';
  target_id: number | null;
  /** For products: the sku to select (a child sku preselects that size). */
  target_sku: string | null;
  /** 0 = rewrite in place, 301/302 = redirect to the target's canonical path. */
  redirect_type: Defaulted<number>;
}
