/**
 * The rows one store's demo catalogue consists of, keyed by table, plus the id allocator that
 * keeps catalogue ids unique across stores: store N uses N×100000+1 … for products, links and
 * options, so the same sku has a different, stable id in every store.
 */
import type { Row } from '../db/schema.ts';

/** Per-store catalogue tables, in insertion order (every table after the ones it references). */
export const STORE_CATALOG_TABLES = [
  'categories',
  'products',
  'product_categories',
  'product_media',
  'product_attribute_values',
  'product_configurable_options',
  'product_configurable_option_values',
  'bundle_options',
  'product_links',
  'custom_options',
  'custom_option_values',
  'stock',
  'product_prices',
  'tier_prices',
  'qty_discounts',
  'tax_rules',
  'tax_rates',
  'cms_pages',
  'cms_blocks',
  'url_rewrites',
] as const;

export type StoreCatalogTable = (typeof STORE_CATALOG_TABLES)[number];

/** Complete rows (every column set), so what is written does not depend on database defaults. */
export type StoreRows = { [T in StoreCatalogTable]: Row<T>[] };

export function emptyStoreRows(): StoreRows {
  return Object.fromEntries(STORE_CATALOG_TABLES.map((t) => [t, []])) as unknown as StoreRows;
}

/** Id blocks per store; 100 000 ids per store and sequence are far more than any demo needs. */
export const IDS_PER_STORE = 100_000;

export class IdAllocator {
  private readonly counters = new Map<string, number>();
  constructor(private readonly storeId: number) {}

  /** Next id of a sequence (`product`, `link`, `bundle_option`, `custom_option`, …). */
  next(sequence: string): number {
    const n = (this.counters.get(sequence) ?? 0) + 1;
    if (n >= IDS_PER_STORE) throw new RangeError(`demo id block exhausted for ${sequence}`);
    this.counters.set(sequence, n);
    return this.storeId * IDS_PER_STORE + n;
  }
}
