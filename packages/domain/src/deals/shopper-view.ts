/**
 * What the storefront shows of the deals (issue 28 "Shown to the shopper, and explained"): which
 * display preset a store follows (its setting `deal-display`), the deals a product card or page shows
 * with the price after a per-item deal, and how a price is drawn under the store's rules.
 *
 * The price after a deal is the engine's own answer (evaluateDeals) for a cart holding one unit of the
 * product with the per-item deals (set_discount) that are live now for a guest of the page's licence:
 * so the page says what an order of that unit alone pays (apps/server/src/deals/page-price.test.ts
 * holds the two together on both databases). Group deals (mix and match, buy X get Y, bundles) and
 * thresholds that reward a set show their words only: one unit cannot earn them. Order-level
 * thresholds ("Spend $100, get 10% off your order") are shown on /sale, never on a product.
 * The words come from words.ts under the store's rules; the numbers never depend on the rules.
 */
import type { Cents } from '../money.ts';
import type { ProductDealView } from '../catalog.ts';
import { evaluateDeals } from './engine.ts';
import { eligibilityReason, prepareProduct, preparedInSet } from './match.ts';
import type { Deal, DealContext, DealFloor, DealProductFacts } from './model.ts';
import { dealDisplayTitle, type DealDisplayRules } from './words.ts';


/**
 * Whether a product takes part in the deal (a discounted item, a group member, a buy or a reward
 * item; an order-level threshold: every product). The cart says why a related deal was missed.
 */
export function dealTouchesProduct(deal: Deal, product: DealProductFacts, parents?: DealContext['categoryParents']): boolean {
  if (deal.kind === 'threshold' && deal.reward.target === 'order') return !deal.condition.set || preparedInSet(prepareProduct(product, parents), deal.condition.set);
  return touches(deal, prepareProduct(product, parents));
}

/** Whether one unit of the product takes part in the deal (as a discounted item, a group member, a buy or a reward item). */
function touches(deal: Deal, p: ReturnType<typeof prepareProduct>): boolean {
  switch (deal.kind) {
    case 'set_discount':
    case 'mix_match':
      return preparedInSet(p, deal.set);
    case 'buy_get':
      return preparedInSet(p, deal.buy.set) || preparedInSet(p, deal.get.set);
    case 'bundle':
      return deal.items.some((i) => preparedInSet(p, i.set));
    case 'threshold':
      return deal.reward.target === 'set' && preparedInSet(p, deal.reward.set);
  }
}

/**
 * The deals live now for a guest shopper of the context's licence (status, dates, days, hours,
 * licence, budget; never a first-order, group or birthday deal: a page is the same for everyone).
 */
export function liveDealsForPages(deals: readonly Deal[], ctx: DealContext): Deal[] {
  return deals.filter((d) => eligibilityReason(d, ctx) === null);
}

/**
 * The view of one sellable item (a simple product or one size of a configurable) at its unit price.
 * `deals` should already be the live ones (liveDealsForPages); `ctx.customer` is a guest.
 */
export function productDealView(product: DealProductFacts, unitPriceCents: Cents, deals: readonly Deal[], ctx: DealContext, rules: DealDisplayRules, floor: DealFloor = {}): ProductDealView | null {
  const prepared = prepareProduct(product, ctx.categoryParents);
  const related = deals.filter((d) => touches(d, prepared));
  if (related.length === 0) return null;
  const itemDeals = related.filter((d) => d.kind === 'set_discount');
  let priceCents: Cents | null = null;
  const applied: string[] = [];
  if (itemDeals.length > 0 && unitPriceCents > 0) {
    const result = evaluateDeals([{ id: 'unit', product, unitPriceCents, qty: 1 }], itemDeals, ctx, floor);
    if (result.discountCents > 0) {
      priceCents = unitPriceCents - result.discountCents;
      applied.push(...result.applied.map((a) => a.dealId));
    }
  }
  const shown = [...related.filter((d) => applied.includes(d.id)), ...related.filter((d) => d.kind !== 'set_discount')].slice(0, 3);
  if (shown.length === 0 && priceCents === null) return null;
  const words = shown.map((d) => dealDisplayTitle(d, rules)).filter((w): w is string => !!w);
  return { priceCents, basePriceCents: unitPriceCents, words, ids: shown.map((d) => d.id) };
}

