/**
 * Product loading of spec §4: by sku; a status of 2 or more throws "Product query returned empty
 * result product status = N"; visibility 1 (not visible individually) answers the configurable
 * parent when the store blocks direct access to children (the page then redirects, 301), and
 * otherwise throws "… visibility = N". Unknown skus and products outside the store's visible
 * categories are null. The thrown errors are 404s when they reach the API.
 */
import type { CatalogProduct, Store } from '@verdant/domain';
import { ApiError } from '../http/envelope.ts';
import type { StoreCatalog } from './store-catalog.ts';
import { hiddenCategoryIds, inHiddenCategory, isEnabled } from './visibility.ts';

/** Spec §8 messages that product and category loading throw. */
export const LOOKUP_MESSAGES = {
  productStatus: (status: number) => `Product query returned empty result product status = ${status}`,
  productVisibility: (visibility: number) => `Product query returned empty result visibility = ${visibility}`,
  category: (key: string, value: string | number) => `Category query returned empty result ${key} = ${value}`,
  cms: 'CMS query returned empty result',
  searchKey: 'Please provide the search key ...',
  noParentSku: "Product doesn't have parentSku, please check if this is configurable product",
} as const;

/** A spec §8 "empty result" error: thrown by the services, answered 404 by the API. */
export class CatalogNotFoundError extends ApiError {
  constructor(message: string) {
    super(404, message);
    this.name = 'CatalogNotFoundError';
  }
}

function assertEnabled(product: CatalogProduct): void {
  if (!isEnabled(product)) throw new CatalogNotFoundError(LOOKUP_MESSAGES.productStatus(product.status));
}

/**
 * The product a product page shows for `sku` (a parent or a child sku), or null when the store has
 * no such product (or hides it). See the file comment for the thrown errors.
 */
export function loadProduct(catalog: StoreCatalog, store: Store, sku: string): CatalogProduct | null {
  const product = catalog.productBySku(sku);
  if (!product) return null;
  assertEnabled(product);
  let shown = product;
  if (product.visibility === 1) {
    const parent = catalog.parentOfChild(product.sku);
    if (!parent || !store.catalog.preventConfigurableChildrenDirectAccess) {
      throw new CatalogNotFoundError(LOOKUP_MESSAGES.productVisibility(product.visibility));
    }
    assertEnabled(parent);
    shown = parent;
  }
  return inHiddenCategory(shown, hiddenCategoryIds(store, catalog.allCategories())) ? null : shown;
}

/**
 * Products for the compare page and the wishlist, in the order asked, each once: a child sku
 * stands for its parent; unknown, disabled, hidden or not individually visible ones are left out.
 */
export function productsBySku(catalog: StoreCatalog, store: Store, skus: readonly string[]): CatalogProduct[] {
  const out = new Map<number, CatalogProduct>();
  for (const sku of skus) {
    try {
      const product = loadProduct(catalog, store, sku);
      if (product && !out.has(product.id)) out.set(product.id, product);
    } catch (error) {
      if (!(error instanceof CatalogNotFoundError)) throw error;
    }
  }
  return [...out.values()];
}

/** The configurable parent of a child sku (spec §7 lookup by configurable_children.sku). */
export function parentOfChildSku(catalog: StoreCatalog, store: Store, childSku: string): CatalogProduct {
  const parent = catalog.parentOfChild(childSku);
  if (!parent) {
    const product = catalog.productBySku(childSku);
    // Known but not a child of anything: the spec's message for exactly this case.
    if (product) throw new CatalogNotFoundError(LOOKUP_MESSAGES.noParentSku);
    throw new CatalogNotFoundError(`No product with child sku ${childSku}`);
  }
  assertEnabled(parent);
  if (inHiddenCategory(parent, hiddenCategoryIds(store, catalog.allCategories()))) {
    throw new CatalogNotFoundError(`No product with child sku ${childSku}`);
  }
  return parent;
}
