import type { Cents } from './money.ts';
import type { LicenseType } from './license.ts';

/** The potency of an infused product per package (product-facts.ts reads it from the custom attributes). */
export interface InfusedPotency {
  /** mg of THC in the whole package. */
  thcMg: number | null;
  cbdMg: number | null;
  /** Pieces (or servings) in the package, when it is divided. */
  pieces: number | null;
}

/** Product types of spec §2/§3. */
export const PRODUCT_TYPES = ['simple', 'configurable', 'grouped', 'bundle', 'virtual', 'downloadable'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/** Items with these canna_type values are not cannabis and do not count toward limits (spec §5). */
export const NON_CANNABIS_CANNA_TYPES: readonly number[] = [4, 6];

export const ROOT_CATEGORY_ID = 2;

/** Number of products in each home collection (spec §9). */
export const HOME_COLLECTION_SIZE = 15;

export const HOME_COLLECTIONS = ['new_collection', 'bestsellers', 'specials', 'staff_picks'] as const;
export type HomeCollectionName = (typeof HOME_COLLECTIONS)[number];

export const HOME_COLLECTION_TITLES: Readonly<Record<HomeCollectionName, string>> = {
  new_collection: 'New collection',
  bestsellers: 'Best sellers',
  specials: 'Sale',
  staff_picks: 'Staff picks',
};

export interface SpecialPriceInput {
  price: Cents;
  special_price?: Cents | null;
  special_from_date?: string | null;
  special_to_date?: string | null;
}

/**
 * A special price counts only when it is below the original price and `now` is inside its
 * from/to window; either end may be open (spec §5). Dates are ISO strings; a bare date
 * (YYYY-MM-DD) `to` runs through the end of that day (UTC).
 */
export function isSpecialPriceActive(p: SpecialPriceInput, now: Date = new Date()): boolean {
  if (p.special_price == null || !(p.special_price < p.price) || p.special_price < 0) return false;
  const t = now.getTime();
  if (p.special_from_date) {
    const from = Date.parse(p.special_from_date);
    if (!Number.isNaN(from) && t < from) return false;
  }
  if (p.special_to_date) {
    const bare = /^\d{4}-\d{2}-\d{2}$/.test(p.special_to_date);
    const to = Date.parse(bare ? `${p.special_to_date}T23:59:59.999Z` : p.special_to_date);
    if (!Number.isNaN(to) && t > to) return false;
  }
  return true;
}

/** The price a shopper pays before tax: the active special price, else the price. */
export function finalPriceCents(p: SpecialPriceInput, now: Date = new Date()): Cents {
  return isSpecialPriceActive(p, now) ? (p.special_price as Cents) : p.price;
}

/** What a product tile needs: the same shape from SSR, from the API and (later) from the offline cache. */
/** The deals a product card or page shows (issue 28; made by deals/shopper-view.ts productDealView). */
export interface ProductDealView {
  /** Price of one unit after the per-item deals live now; null when none lowers it. */
  priceCents: Cents | null;
  /** The unit price (before deals) it was judged at: a page shows `priceCents` only while it shows this price. */
  basePriceCents: Cents;
  /** The deals' words under the store's rules, per-item deal first; at most three. */
  words: string[];
  /** The codes of the deals shown. */
  ids: string[];
}

export interface ProductCard {
  id: number;
  sku: string;
  type_id: ProductType;
  name: string;
  slug: string;
  url_path: string;
  brand: string | null;
  image: string | null;
  strain_type: string | null;
  thc_percent: number | null;
  cbd_percent: number | null;
  /** THC/CBD per package and pieces of an infused product (product-facts.ts); null for others. */
  potency: InfusedPotency | null;
  license_type: LicenseType | 'both';
  /** Regular price in cents (for configurables: the cheapest available child). */
  price: Cents;
  /** Price after an active special, in cents. */
  final_price: Cents;
  /** True when the card's price starts at the cheapest of several sizes. */
  price_from: boolean;
  /**
   * Issue 30: the size id (91–95) of the unit the price is for — a configurable's cheapest available
   * size, a simple product's own size — so a card says "from $16.00 / 1 g" and a price per gram; null: no weight.
   */
  price_size: number | null;
  sale: boolean;
  new: boolean;
  staff_pick: boolean;
  best_seller: boolean;
  updated_at: string;
  /** Issue 30: the approved reviews' average and count; absent when unrated or the store shows no reviews. */
  rating?: import('./potency-rating.ts').ProductRating;
  /** Issue 28: the deal live now (words, price after a per-item deal), added by the page's loader; absent: none. */
  deal?: ProductDealView;
}

export type HomeCollections = Record<HomeCollectionName, ProductCard[]>;
