/**
 * Index schemas of the catalogue entities (spec §3, §7, §9). One index per store and entity type.
 */
import {
  type CatalogAttribute,
  type CatalogCategory,
  type CatalogProduct,
  availableChildren,
  infusedPotency,
  potencyRangeOf,
  ratingFloorsOf,
} from '@verdant/domain';
import { SEARCH_BOOSTS } from '../constants.ts';
import { createIndex } from '../engine/create-index.ts';
import type { IndexSchema, TextOptions } from '../engine/schema.ts';
import type { SearchIndex } from '../types.ts';
import type { CmsBlockDocument, CmsPageDocument, TaxRuleDocument } from './documents.ts';
import { type PreparedProduct, prepareProduct, pricedAt } from './pricing.ts';

/** Fields the product schema adds to the document's own (filter, sort and aggregate on them). */
export const PRODUCT_FIELDS = {
  /** Final price in cents at the query's `now` (computed). */
  finalPrice: 'final_price',
  /** An active special on the product or a child (computed). */
  sale: 'sale',
  /** The product's own size and the sizes of its sellable configurable children (derived). */
  sizes: 'sizes',
  /** The product's sku and its children's skus (derived): lookups by any of them. */
  skus: 'skus',
  /** Issue 30: THC / CBD in mg per package (edibles, tinctures, topicals: the thc_mg / cbd_mg attributes). */
  thcMg: 'thc_mg',
  cbdMg: 'cbd_mg',
  /** Issue 30: the potency filters' range keys the product falls in (potency-rating.ts), none when unknown. */
  thcRange: 'thc_range',
  cbdRange: 'cbd_range',
  thcMgRange: 'thc_mg_range',
  cbdMgRange: 'cbd_mg_range',
  /** Issue 30: the rating floors the product's average reaches (`4`, `3`). */
  ratingFloors: 'rating_floors',
} as const;

/** A range key as a field value: absent (unknown potency) rather than null. */
const rangeOf = (key: Parameters<typeof potencyRangeOf>[0], value: number | null | undefined) => potencyRangeOf(key, value) ?? undefined;

/** The sizes a shopper can buy the product in: its own and its available children's. */
function productSizes(doc: CatalogProduct): number[] {
  const sizes: number[] = doc.size != null ? [doc.size] : [];
  for (const c of availableChildren(doc)) if (c.size != null && !sizes.includes(c.size)) sizes.push(c.size);
  return sizes;
}

export interface ProductIndexOptions {
  /** Whose tier prices the final price includes (the store's guest/default group). Default 0. */
  customerGroupId?: number;
  /** Text tuning other than the defaults (the search-precision bench compares settings). */
  textOptions?: Partial<TextOptions>;
}

export function createProductSchema({ customerGroupId = 0, textOptions }: ProductIndexOptions = {}): IndexSchema<CatalogProduct, PreparedProduct> {
  return {
    name: 'product',
    ...(textOptions ? { textOptions } : {}),
    // Spec §9 boosts; a child's sku finds its parent (the old query OR-ed configurable_children.sku in).
    text: { ...SEARCH_BOOSTS, 'configurable_children.sku': SEARCH_BOOSTS.sku },
    defaultSort: [{ field: 'updated_at', order: 'desc' }],
    derived: {
      [PRODUCT_FIELDS.sizes]: productSizes,
      [PRODUCT_FIELDS.skus]: (doc) => [doc.sku, ...(doc.configurable_children ?? []).map((c) => c.sku)],
      // Potency as the card shows it: the product's % (a product with sizes: the one they agree on),
      // and the mg per package of infused products.
      [PRODUCT_FIELDS.thcMg]: (doc) => infusedPotency(doc)?.thcMg ?? undefined,
      [PRODUCT_FIELDS.cbdMg]: (doc) => infusedPotency(doc)?.cbdMg ?? undefined,
      [PRODUCT_FIELDS.thcRange]: (doc) => rangeOf('thc', doc.thc_percent),
      [PRODUCT_FIELDS.cbdRange]: (doc) => rangeOf('cbd', doc.cbd_percent),
      [PRODUCT_FIELDS.thcMgRange]: (doc) => rangeOf('thc_mg', infusedPotency(doc)?.thcMg),
      [PRODUCT_FIELDS.cbdMgRange]: (doc) => rangeOf('cbd_mg', infusedPotency(doc)?.cbdMg),
      [PRODUCT_FIELDS.ratingFloors]: (doc) => ratingFloorsOf(doc.rating),
    },
    computed: {
      prepare: prepareProduct,
      changesAt: (edges) => edges,
      fields: {
        [PRODUCT_FIELDS.finalPrice]: (_edges, nowMs, doc) => pricedAt(doc, nowMs, customerGroupId).final_price,
        [PRODUCT_FIELDS.sale]: (_edges, nowMs, doc) => pricedAt(doc, nowMs, customerGroupId).sale,
      },
    },
  };
}

export const productSchema = createProductSchema();

export const categorySchema: IndexSchema<CatalogCategory> = {
  name: 'category',
  text: { name: 2, url_key: 1 },
  defaultSort: [{ field: 'position', order: 'asc' }],
};

export const attributeSchema: IndexSchema<CatalogAttribute> = {
  name: 'attribute',
  id: (doc) => doc.attribute_id,
  text: { frontend_label: 2, attribute_code: 1 },
  defaultSort: [{ field: 'position', order: 'asc' }],
};

export const taxRuleSchema: IndexSchema<TaxRuleDocument> = {
  name: 'taxrule',
  text: { code: 1 },
  defaultSort: [
    { field: 'priority', order: 'asc' },
    { field: 'position', order: 'asc' },
  ],
};

export const cmsPageSchema: IndexSchema<CmsPageDocument> = {
  name: 'cms_page',
  text: { title: 3, content_heading: 2, meta_keywords: 2, content: 1, identifier: 1 },
  defaultSort: [{ field: 'identifier', order: 'asc' }],
};

export const cmsBlockSchema: IndexSchema<CmsBlockDocument> = {
  name: 'cms_block',
  text: { title: 2, content: 1, identifier: 1 },
  defaultSort: [{ field: 'identifier', order: 'asc' }],
};

export const createProductIndex = (options?: ProductIndexOptions): SearchIndex<CatalogProduct> =>
  createIndex(options ? createProductSchema(options) : productSchema);
export const createCategoryIndex = (): SearchIndex<CatalogCategory> => createIndex(categorySchema);
export const createAttributeIndex = (): SearchIndex<CatalogAttribute> => createIndex(attributeSchema);
export const createTaxRuleIndex = (): SearchIndex<TaxRuleDocument> => createIndex(taxRuleSchema);
export const createCmsPageIndex = (): SearchIndex<CmsPageDocument> => createIndex(cmsPageSchema);
export const createCmsBlockIndex = (): SearchIndex<CmsBlockDocument> => createIndex(cmsBlockSchema);
