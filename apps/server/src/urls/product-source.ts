/**
 * The product `_source` of a URL-mapping answer, shaped by the mapping options of spec §7 that
 * change a document (VSF's url/map and configureProductAsync):
 *  - filterUnavailableVariants: configurable children that are disabled or out of stock are
 *    removed (spec §4), and option values no remaining child carries with them;
 *  - filters.sku (or the child a child's path named) selects a variant; with
 *    fallbackToDefaultWhenNoAvailable an unknown or unavailable one falls back to the default
 *    child (the first available), otherwise nothing is selected;
 *  - separateSelectedVariant: the variant is returned beside the product as `selectedVariant`;
 *    without it the variant's sku, prices, stock, size and image are merged into the product,
 *    which then carries `parentSku` and `is_configured: true`;
 *  - setProductErrors: `errors` as product pages show them (spec §4, §8).
 * The other options of the spec (prefetchGroupProducts, assignProductConfiguration,
 * setConfigurableProductOptions, populateRequestCacheTags) change nothing here: members, options
 * and children are always embedded. The stored document is never mutated.
 */
import {
  availableChildren,
  CATALOG_MESSAGES,
  chooseVariant,
  productErrors,
  type CatalogProduct,
  type ConfigurableChild,
} from '@verdant/domain';

export interface MapOptions {
  filterUnavailableVariants?: boolean;
  fallbackToDefaultWhenNoAvailable?: boolean;
  separateSelectedVariant?: boolean;
  setProductErrors?: boolean;
}

export interface ProductSourceInput {
  product: CatalogProduct;
  /** The child sku asked for (filters.sku, or the child whose path was opened). */
  childSku: string | null;
  options: MapOptions;
  allowOutOfStock: boolean;
  now: Date;
}

export type ProductSource = CatalogProduct & {
  selectedVariant?: ConfigurableChild | null;
  parentSku?: string;
  is_configured?: boolean;
  errors?: Record<string, string>;
};

export function productSource({ product, childSku, options, allowOutOfStock, now }: ProductSourceInput): ProductSource {
  let out: ProductSource = { ...product };
  const available = availableChildren(product, { allowOutOfStock });
  if (options.filterUnavailableVariants && product.type_id === 'configurable') {
    const kept = new Set(available.map((c) => c.size));
    out.configurable_children = available;
    out.configurable_options = product.configurable_options.map((o) =>
      o.attribute_code === 'size' ? { ...o, values: o.values.filter((v) => kept.has(v.value_index)) } : o,
    );
  }

  let selected: ConfigurableChild | null = null;
  let unmatched = false;
  if (childSku && product.type_id === 'configurable') {
    selected = available.find((c) => c.sku === childSku) ?? null;
    if (!selected && options.fallbackToDefaultWhenNoAvailable) {
      selected = chooseVariant(product, {}, { allowOutOfStock, fallbackToDefault: true, now }).child;
    }
    unmatched = selected == null;
  }

  if (selected) {
    if (options.separateSelectedVariant) {
      out.selectedVariant = selected;
    } else {
      const { sku, price, special_price, special_from_date, special_to_date, tier_prices, stock, size, image, status } =
        selected;
      out = {
        ...out,
        sku,
        price,
        special_price,
        special_from_date,
        special_to_date,
        tier_prices,
        stock,
        size,
        status,
        image: image ?? out.image,
        parentSku: product.sku,
        is_configured: true,
      };
    }
  } else if (options.separateSelectedVariant && childSku) {
    out.selectedVariant = null;
  }

  if (options.setProductErrors) {
    const errors: Record<string, string> = { ...productErrors(product, { allowOutOfStock }) };
    if (unmatched && !errors.variants) errors.variants = CATALOG_MESSAGES.noSuchConfiguration;
    out.errors = errors;
  }
  return out;
}

/** Top-level include/exclude of fields, as the catalogue search does for its items. */
export function projectFields<T extends object>(
  doc: T,
  include?: readonly string[],
  exclude?: readonly string[],
): Partial<T> {
  if (!include && !exclude) return doc;
  const out: Record<string, unknown> = {};
  for (const key of include ?? Object.keys(doc)) {
    if (Object.hasOwn(doc, key) && !exclude?.includes(key)) out[key] = (doc as Record<string, unknown>)[key];
  }
  return out as Partial<T>;
}
