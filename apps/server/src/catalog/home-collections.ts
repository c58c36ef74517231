/**
 * The four home lists (spec §2, §6, §7, §9): new collection, best sellers, specials and staff
 * picks, 15 each, newest first (created_at, then id, descending), for one store and licence type,
 * read from the store's in-memory catalogue (no SQL per page view).
 *
 * A product qualifies when it is catalogue-visible (visibility 2 or 4: a listing, not search
 * only), enabled (status 0 or 1), in stock (for configurables: the parent's stock says so and at
 * least one child is enabled and in stock; for kits: at least one member can be sold), labelled
 * for the shopper's licence type or both, and not in a category the store's compliance settings
 * hide (or a descendant of one). Cards are priced by the domain rule (toProductCard): the
 * cheapest available child for configurables, the sum of available members for grouped
 * products, the default selections for bundles (spec §4). Operator-pinned skus
 * (`best_sellers`) lead the best-sellers list.
 */
import {
  HOME_COLLECTION_SIZE,
  availableChildren,
  isMemberAvailable,
  toProductCard,
  type CatalogCategory,
  type CatalogProduct,
  type HomeCollections,
  type LicenseType,
  type ProductCard,
  type Store,
} from '@verdant/domain';
import { hiddenCategoryIds, inHiddenCategory, isEnabled } from './visibility.ts';

/** Visibility values a catalogue listing shows (2 catalogue, 4 catalogue and search). */
export const CATALOG_VISIBILITY: readonly number[] = [2, 4];

export interface CatalogView {
  allProducts(): Iterable<CatalogProduct>;
  allCategories(): Iterable<CatalogCategory>;
}

/** Something of it can be bought: configurables need a child, kits a member. */
function sellable(p: CatalogProduct): boolean {
  if (!p.stock.is_in_stock) return false;
  if (p.type_id === 'configurable') return availableChildren(p).length > 0;
  if (p.type_id === 'grouped' || p.type_id === 'bundle') {
    const links = [...p.product_links, ...p.bundle_options.flatMap((o) => o.product_links)];
    return links.some((l) => l.product != null && isMemberAvailable(l.product));
  }
  return true;
}

/** The products a home list may show for a licence type, newest first (also /sale's products on deal, issue 28). */
export function listedProducts(catalog: CatalogView, store: Store, licenseType: LicenseType): CatalogProduct[] {
  const hidden = hiddenCategoryIds(store, catalog.allCategories());
  return [...catalog.allProducts()]
    .filter(
      (p) =>
        CATALOG_VISIBILITY.includes(p.visibility) &&
        isEnabled(p) &&
        (p.license_type === licenseType || p.license_type === 'both') &&
        !inHiddenCategory(p, hidden) &&
        sellable(p),
    )
    .sort((a, b) => (a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1));
}

export function homeCollections(catalog: CatalogView, store: Store, licenseType: LicenseType, now: Date = new Date()): HomeCollections {
  const eligible = listedProducts(catalog, store, licenseType);
  // A card (the domain's pricing) only for what a list takes: the first 15 of each, in order. Pricing
  // every eligible product (a thousand and more) was most of a home render's cost, paid again after
  // every order, which changes the store's catalogue and so drops this list's cache (issue 15, 4/20).
  // `new`, `staff_pick` and `best_seller` are the product's own flags (the card copies them); only
  // `sale` needs the card.
  const cards = new Map<number, ProductCard>();
  const card = (p: CatalogProduct) => {
    let c = cards.get(p.id);
    if (!c) cards.set(p.id, (c = toProductCard(p, now, store.tax.userGroupId)));
    return c;
  };
  const first = (take: (p: CatalogProduct) => boolean, lead: ProductCard[] = []): ProductCard[] => {
    const list = lead.slice(0, HOME_COLLECTION_SIZE);
    for (const p of eligible) {
      if (list.length >= HOME_COLLECTION_SIZE) break;
      if (take(p)) list.push(card(p));
    }
    return list;
  };
  const pinned = store.dispensarySettings.best_sellers;
  const pinnedCards = pinned.flatMap((sku) => eligible.filter((p) => p.sku === sku).map(card));
  return {
    new_collection: first((p) => p.new),
    bestsellers: first((p) => p.best_seller && !pinned.includes(p.sku), pinnedCards),
    specials: first((p) => card(p).sale),
    staff_picks: first((p) => p.staff_pick),
  };
}
