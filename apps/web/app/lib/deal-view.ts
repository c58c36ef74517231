/**
 * Deals on the storefront's pages (issue 28): loaders ask the server which deals are live now for
 * their products (AppContext.services.productDeals, judged at this moment for a guest of the page's
 * licence) and hand the cards on with `deal`; components draw prices under the store's display rules
 * (root data `store.dealDisplay`: Massachusetts adult use shows the resulting price alone, no "sale").
 * A card with a deal is a new object, so the card fragment cache (its key holds the card) never
 * serves a card's markup with another deal state.
 */
import type { DealDisplayRules, LicenseType, ProductCard, ProductDealView, Store } from '@verdant/domain';
import type { StorefrontServices } from './context.ts';
import { useOptionalRootData } from './root-data.ts';

export function withDeals(cards: readonly ProductCard[], bySku: Readonly<Record<string, ProductDealView>>): ProductCard[] {
  return cards.map((c) => (bySku[c.sku] ? { ...c, deal: bySku[c.sku] } : c));
}

/** The cards of a page with the deals live now (one call for all of them). */
export async function cardsWithDeals(services: StorefrontServices, store: Store, licenseType: LicenseType, cards: readonly ProductCard[]): Promise<ProductCard[]> {
  if (cards.length === 0) return [...cards];
  const deals = await services.productDeals(store, licenseType, cards.map((c) => c.sku));
  return withDeals(cards, deals.bySku);
}

/** The display rules of this page (its shopper's licence). */
export function useDealDisplay(): { preset: string; rules: DealDisplayRules } {
  const data = useOptionalRootData();
  return data?.store.dealDisplay?.[data.shopper.licenseType] ?? DEFAULT_DISPLAY;
}

const DEFAULT_DISPLAY = { preset: 'default', rules: { noFreeWord: true, noSaleWord: false, noPercentOff: false, noStrikethrough: false } };
