/**
 * A product's final price and sale flag as the index filters, sorts and facets them. The prices
 * themselves are the domain's (`productPrice`: cheapest available child, grouped and bundle sums,
 * tier prices) so a price filter agrees with the price on the card. What the index adds is when
 * to ask: every special window's edges are parsed once at index time, and a product is repriced
 * only when the query's `now` crosses one of its own edges.
 */
import {
  type CatalogProduct,
  type SpecialPriceInput,
  availableChildren,
  isSpecialPriceActive,
  productPrice,
} from '@verdant/domain';

/**
 * What the index keeps per product for pricing: the epoch ms at which any special of the product,
 * a child or a kit member starts or ends (the document itself is the index's own). Most products
 * have none and share one frozen empty list (issue 15: memory per product).
 */
export type PreparedProduct = readonly number[];

export interface PricedAt {
  final_price: number;
  sale: boolean;
}

const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Instants where `isSpecialPriceActive` may change: the window opens at `from` and closes just
 * after `to` (a bare date runs through the end of that day, UTC), as the domain rule reads them.
 * A property test holds the domain rule constant between consecutive edges.
 */
export function specialWindowEdges(p: SpecialPriceInput): number[] {
  if (p.special_price == null) return [];
  const edges: number[] = [];
  if (p.special_from_date) {
    const t = Date.parse(p.special_from_date);
    if (!Number.isNaN(t)) edges.push(t);
  }
  if (p.special_to_date) {
    const bare = BARE_DATE.test(p.special_to_date);
    const t = Date.parse(bare ? `${p.special_to_date}T23:59:59.999Z` : p.special_to_date);
    if (!Number.isNaN(t)) edges.push(t + 1);
  }
  return edges;
}

/** Most products have no special window: they share one empty, frozen list (issue 15: memory per product). */
const NO_EDGES: number[] = Object.freeze([]) as unknown as number[];

export function prepareProduct(doc: CatalogProduct): PreparedProduct {
  const edges = specialWindowEdges(doc);
  for (const c of doc.configurable_children ?? []) edges.push(...specialWindowEdges(c));
  for (const l of doc.product_links ?? []) if (l.product) edges.push(...specialWindowEdges(l.product));
  for (const o of doc.bundle_options ?? []) for (const l of o.product_links ?? []) if (l.product) edges.push(...specialWindowEdges(l.product));
  return edges.length === 0 ? NO_EDGES : edges;
}

/**
 * On sale: an active special on the product itself or on any available child — or, for kits, on
 * a member the price is made of (the domain's `sale`, which the card's badge shows too).
 */
export function productOnSale(doc: CatalogProduct, now: Date, customerGroupId = 0): boolean {
  return (
    isSpecialPriceActive(doc, now) ||
    availableChildren(doc).some((c) => isSpecialPriceActive(c, now)) ||
    productPrice(doc, now, customerGroupId).sale
  );
}

// The last answer: the index asks for a product's final_price and then its sale flag at the same
// instant, so one remembered answer spares the second computation. Kept here rather than on each
// prepared product (issue 15: an object and a boxed number per document).
let lastProduct: CatalogProduct | null = null;
let lastNowMs = Number.NaN;
let lastGroupId = Number.NaN;
let lastPriced: PricedAt = { final_price: 0, sale: false };

/** Final price (cents) and sale flag at `nowMs`, computed once per product and instant in a row. */
export function pricedAt(doc: CatalogProduct, nowMs: number, customerGroupId: number): PricedAt {
  if (doc !== lastProduct || nowMs !== lastNowMs || customerGroupId !== lastGroupId) {
    const now = new Date(nowMs);
    lastPriced = { final_price: productPrice(doc, now, customerGroupId).final_price, sale: productOnSale(doc, now, customerGroupId) };
    lastProduct = doc;
    lastNowMs = nowMs;
    lastGroupId = customerGroupId;
  }
  return lastPriced;
}
