/**
 * The console editor's live preview of a draft deal (issue 28 "with a live preview: which products
 * match, and what a sample cart would pay"). Nothing is saved and nothing reserved:
 *
 *  - Matching: every sellable product of the store (simple products and variants, enabled) whose
 *    facts (facts.ts — the same the cart reads) are in any of the draft's product sets: the set of a
 *    set discount or mix and match, both sides of buy X get Y, each bundle part, a threshold's
 *    condition set and reward set. A threshold over the whole cart (no set) matches everything.
 *  - Sample cart: the lines are priced as the cart prices them (loadProducts + resolveLine: specials,
 *    weight prices; a guest's group) and the engine is run twice with the store's other active deals:
 *    without the draft and with it (the draft judged as active, at `at`, for a `licence` shopper who is
 *    a guest with no usage: a preview shows what the deal does, not whether a limit is used up).
 *    When the draft replaces a saved deal (`dealId`), that deal's saved record is left out of both.
 *  - Check a cart (`checkCart`): the same sample cart against the store's active deals alone, with the
 *    reason for each deal that does not apply — staff's answer to "why didn't I get the deal?" for a
 *    cart the shopper reads out.
 */
import {
  DEAL_DISPLAY_PRESETS,
  dealDisplayTitle,
  evaluateDeals,
  inProductSet,
  reasonText,
  type Deal,
  type DealCartLine,
  type DealContext,
  type ProductSet,
  type Store,
} from '@verdant/domain';
import type { DealCheck, DealPreview, DealPreviewRequest } from '@verdant/domain/console-api';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { resolveLine, type ResolvedLine } from '../cart/resolve.ts';
import { loadProducts } from '../prices/loader.ts';
import { storeDealFloor } from './apply.ts';
import { dealCatalogFacts } from './facts.ts';
import type { StoredDeal } from './repository.ts';
import { countDealEvaluation } from '../metrics/deal-evaluations.ts';

type Db = Kysely<Database>;

/** Most products looked at for the match count (a store's whole menu; a larger one is counted up to this). */
export const PREVIEW_MAX_PRODUCTS = 20_000;

/** Every product set a deal reads; `undefined` stands for "the whole cart" (a threshold with no set). */
export function setsOf(deal: Deal): (ProductSet | undefined)[] {
  switch (deal.kind) {
    case 'set_discount':
    case 'mix_match':
      return [deal.set];
    case 'buy_get':
      return [deal.buy.set, deal.get.set];
    case 'bundle':
      return deal.items.map((i) => i.set);
    case 'threshold':
      return [deal.condition.set, deal.reward.target === 'set' ? deal.reward.set : undefined];
  }
}

export function storeTimeZone(store: Store): string {
  return store.dispensarySettings.place_info.timezone || 'UTC';
}

export async function previewDeal(
  db: Db,
  input: {
    store: Store;
    draft: Deal;
    others: readonly StoredDeal[];
    request: Required<Pick<DealPreviewRequest, 'licence' | 'sample'>> & { cart: { sku: string; qty: number }[]; at?: string };
    now: Date;
  },
): Promise<DealPreview> {
  const { store, request } = input;
  const draft: Deal = { ...input.draft, status: 'active' };
  const timeZone = storeTimeZone(store);
  const rules = DEAL_DISPLAY_PRESETS.default.rules;

  // Matching products.
  const units = await db
    .selectFrom('products')
    .select(['id', 'sku', 'name'])
    .where('store_id', '=', store.storeId)
    .where('type_id', '=', 'simple')
    .where('status', '<=', 1)
    .orderBy('name')
    .orderBy('sku')
    .limit(PREVIEW_MAX_PRODUCTS)
    .execute();
  const facts = await dealCatalogFacts(
    db,
    store.storeId,
    units.map((u) => u.id),
  );
  const sets = setsOf(draft);
  const matching = units.filter((u) => {
    const product = facts.products.get(u.id);
    return product ? sets.some((set) => inProductSet(product, set, facts.categoryParents)) : false;
  });
  const shown = matching.slice(0, request.sample);
  const priced = shown.length ? await loadProducts(db, store.storeId, shown.map((u) => u.sku), store.tax.userGroupId) : new Map();
  const sample = shown.map((u) => {
    let price = 0;
    try {
      price = resolveLine({ sku: u.sku, qty: 1 }, priced, { now: input.now, groupId: store.tax.userGroupId })[0]?.unitPrice ?? 0;
    } catch {
      price = 0;
    }
    return { sku: u.sku, name: u.name, price_cents: price };
  });

  if (request.cart.length === 0) return { matching: { count: matching.length, sample }, headline: dealDisplayTitle(draft, rules), cart: null };

  const at = request.at ? new Date(request.at) : input.now;
  const { lines, names, unknown, categoryParents } = await sampleCart(db, store, request.cart, at);
  const ctx: DealContext = {
    now: at,
    timeZone,
    customer: { licence: request.licence, previousOrders: null },
    usage: {},
    categoryParents,
  };
  const others = input.others.map((d) => d.record).filter((d) => d.id !== draft.id);
  const floor = await storeDealFloor(db, store);
  countDealEvaluation('preview');
  const without = evaluateDeals(lines, others, ctx, floor);
  countDealEvaluation('preview');
  const withDraft = evaluateDeals(lines, [...others, draft], ctx, floor);
  const mine = withDraft.applied.find((a) => a.dealId === draft.id);
  const missed = withDraft.notApplied.find((n) => n.dealId === draft.id);
  const lineDiscount = (r: typeof without, id: string) => r.lines.find((x) => x.lineId === id)?.discountCents ?? 0;
  return {
    matching: { count: matching.length, sample },
    headline: dealDisplayTitle(draft, rules),
    cart: {
      lines: lines.map((l, i) => ({
        sku: l.product.sku,
        name: names[i],
        qty: l.qty,
        unit_price_cents: l.unitPriceCents,
        without_cents: lineDiscount(without, l.id),
        with_cents: lineDiscount(withDraft, l.id),
      })),
      subtotal_cents: withDraft.subtotalCents,
      without: { discount_cents: without.discountCents, total_cents: without.totalCents },
      with: { discount_cents: withDraft.discountCents, total_cents: withDraft.totalCents },
      draft: mine
        ? { applied: true, discount_cents: mine.discountCents }
        : {
            applied: false,
            reason: missed?.reason ?? 'no_matching_items',
            text: reasonText(draft, missed?.reason ?? 'no_matching_items', missed?.missing, rules),
          },
      unknown,
    },
  };
}

/** A cart staff typed in, priced as the cart prices it (specials, weight prices; a guest's group), as engine lines. */
export async function sampleCart(db: Db, store: Store, cart: readonly { sku: string; qty: number }[], at: Date) {
  const ctxPrices = { now: at, groupId: store.tax.userGroupId };
  const products = await loadProducts(db, store.storeId, cart.map((l) => l.sku), ctxPrices.groupId);
  const resolved: ResolvedLine[] = [];
  const unknown: string[] = [];
  for (const l of cart) {
    try {
      const [line] = resolveLine({ sku: l.sku, qty: l.qty }, products, ctxPrices);
      if (line) resolved.push(line);
      else unknown.push(l.sku);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      unknown.push(l.sku);
    }
  }
  const cartFacts = await dealCatalogFacts(
    db,
    store.storeId,
    resolved.map((l) => l.productId),
  );
  const names: string[] = [];
  const lines: DealCartLine[] = resolved.flatMap((l, i) => {
    const product = cartFacts.products.get(l.productId);
    if (!product) return [];
    names.push(l.name);
    return [{ id: `line-${String(i).padStart(3, '0')}`, product: { ...product, sku: l.sku, size: l.size ?? product.size }, unitPriceCents: l.unitPrice, qty: l.qty }];
  });
  return { lines, names, unknown, categoryParents: cartFacts.categoryParents };
}

/**
 * POST /deals/check: the store's active deals on a cart staff typed in — what applies per line and
 * why each other deal does not — for a guest of `licence`, limits unused (as the preview).
 */
export async function checkCart(
  db: Db,
  input: { store: Store; deals: readonly StoredDeal[]; cart: { sku: string; qty: number }[]; licence: 'medical' | 'recreational'; at: Date },
): Promise<DealCheck> {
  const { lines, names, unknown, categoryParents } = await sampleCart(db, input.store, input.cart, input.at);
  const records = input.deals.map((d) => d.record);
  const byCode = new Map(records.map((r) => [r.id, r]));
  countDealEvaluation('preview');
  const result = evaluateDeals(
    lines,
    records,
    { now: input.at, timeZone: storeTimeZone(input.store), customer: { licence: input.licence, previousOrders: null }, usage: {}, categoryParents },
    await storeDealFloor(db, input.store),
  );
  const rules = DEAL_DISPLAY_PRESETS.default.rules;
  const title = (code: string) => byCode.get(code)?.title ?? code;
  return {
    lines: lines.map((l, i) => ({
      sku: l.product.sku,
      name: names[i],
      qty: l.qty,
      unit_price_cents: l.unitPriceCents,
      deals: (result.lines.find((r) => r.lineId === l.id)?.deals ?? []).filter((d) => d.discountCents > 0).map((d) => ({ code: d.dealId, title: title(d.dealId), discount_cents: d.discountCents })),
    })),
    applied: result.applied.map((a) => ({ code: a.dealId, title: title(a.dealId), discount_cents: a.discountCents })),
    not_applied: result.notApplied.flatMap((n) => {
      const record = byCode.get(n.dealId);
      return record ? [{ code: n.dealId, title: record.title, reason: n.reason, text: reasonText(record, n.reason, n.missing, rules) }] : [];
    }),
    subtotal_cents: result.subtotalCents,
    discount_cents: result.discountCents,
    unknown,
  };
}
