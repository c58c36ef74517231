/**
 * The store's deals applied by the server (issue 28): the engine (packages/domain/src/deals) run on
 * the server's own lines and prices, the shopper's facts read from the database and the usage counts
 * of the deals' limits. The cart's totals and the order both go through `evaluateStoreDeals`, so what
 * /api/cart/totals says is what the order charges (for the same cart, moment and usage).
 *
 *  - Lines: one engine line per sellable cart line (its merge key), at its server unit price (after
 *    special and weight prices), by whole units; a bundle (kit) is judged by its own product.
 *  - Shopper: the cart's licence type; the customer's group, account date, birthday and earlier
 *    orders (cancelled ones do not count) when logged in; a guest is never a "first order" or a "new
 *    customer" (nothing to tell it by), and a birthday deal needs the account's birthday.
 *  - Usage: a deal's budget counts the orders holding a redemption (`deals.redeemed`); a per-customer
 *    limit counts the shopper's redemptions in the window (the store's calendar day, the last N days,
 *    or the deal's whole run), by phone digits so a guest and an account with one phone count as one.
 *  - Floor: no unit below the store's setting `deal-floor` ($0.01 unless the store set more; ./floor-section.ts).
 */
import { addDays, dealFloorOf, evaluateDeals, localDate, prepareDeals, startOfLocalDate, type Deal, type DealCartLine, type DealContext, type DealCustomerFacts, type DealFloor, type DealsResult, type DealUsage, type LicenseType, type PreparedDeals, type Store } from '@verdant/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ResolvedLine } from '../cart/resolve.ts';
import { phoneDigits } from '../orders/console/search-keys.ts';
import { dealCatalogFacts } from './facts.ts';
import { DEAL_FLOOR_SECTION } from './floor-section.ts';
import { sectionOf } from '../store-settings/read.ts';
import type { StoredDeal } from './repository.ts';
import { countDealEvaluation } from '../metrics/deal-evaluations.ts';

type Db = Kysely<Database>;

/** The floor when a store set none (issue 28 "No line is ever below $0.01"); a store's own: `storeDealFloor`. */
export const DEAL_FLOOR: DealFloor = { minUnitCents: 1 };

/** The store's setting `deal-floor` as the engine takes it (through the settings' 1 s cache on the app's database). */
export async function storeDealFloor(db: Db, store: Store): Promise<DealFloor> {
  return dealFloorOf((await sectionOf(db, store, DEAL_FLOOR_SECTION)).value);
}

export interface DealShopper {
  licence: LicenseType;
  customerId: number | null;
  /** The phone the order or the account gives (any format); the per-customer key is its digits. */
  phone?: string | null;
}

/** One deal's share of one line, as the order keeps and shows it. */
export interface LineDeal {
  code: string;
  title: string;
  discount: number;
}

export interface StoreDealsOutcome {
  result: DealsResult;
  /** Per resolved line (same order as given): the deals' discount in cents, and each deal's share. */
  lineDiscounts: number[];
  lineDeals: LineDeal[][];
  /** Applied deals with their stored row (limits, id for redemptions). */
  applied: { deal: StoredDeal; discount: number }[];
  customerKey: string | null;
  /** Every deal evaluated, by code. */
  byCode: ReadonlyMap<string, StoredDeal>;
  /** Codes of the deals some line of the cart takes part in (the cart explains only those it missed; issue 28). */
  related: ReadonlySet<string>;
}

export function customerKeyOf(shopper: DealShopper): string | null {
  const digits = shopper.phone ? phoneDigits(shopper.phone) : '';
  if (digits.length >= 7) return digits;
  return shopper.customerId != null ? `customer:${shopper.customerId}` : null;
}

/** The customer's facts the deals' eligibility reads (only what some deal asks for). */
async function customerFacts(db: Db, deals: readonly Deal[], shopper: DealShopper): Promise<{ facts: DealCustomerFacts; phone: string | null }> {
  const facts: DealCustomerFacts = { licence: shopper.licence, previousOrders: null };
  if (shopper.customerId == null) return { facts, phone: shopper.phone ?? null };
  const row = await db.selectFrom('customers').select(['group_id', 'created_at', 'birthday', 'phone']).where('id', '=', shopper.customerId).executeTakeFirst();
  if (!row) return { facts, phone: shopper.phone ?? null };
  facts.groupId = row.group_id;
  facts.createdAt = row.created_at;
  facts.birthday = row.birthday;
  if (deals.some((d) => d.eligibility.firstOrder)) {
    const n = await db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('customer_id', '=', shopper.customerId)
      .where('status', '!=', 'cancelled')
      .executeTakeFirstOrThrow();
    facts.previousOrders = Number(n.n);
  }
  return { facts, phone: shopper.phone ?? row.phone };
}

/** The first instant (ISO) a per-customer window counts from; null: the deal's whole run. */
export function windowStart(deal: Deal, now: Date, timeZone: string): string | null {
  const w = deal.limits.perCustomer?.window;
  if (!w || w.type === 'deal') return null;
  const today = localDate(now.getTime(), timeZone);
  const first = w.type === 'day' ? today : addDays(today, -(w.days - 1));
  return new Date(startOfLocalDate(first, timeZone)).toISOString();
}

/** This customer's redemptions of a deal in its window (not given back). */
export async function customerRedemptions(db: Db, deal: StoredDeal, key: string, now: Date, timeZone: string): Promise<number> {
  let q = db
    .selectFrom('deal_redemptions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('deal_id', '=', deal.id)
    .where('customer_key', '=', key)
    .where('released_at', 'is', null);
  const from = windowStart(deal.record, now, timeZone);
  if (from) q = q.where('created_at', '>=', from);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/**
 * Each store's deals prepared for the engine (prepare.ts), kept while the store's active deals are
 * the same record objects (the repository hands out one object per stored record text:
 * repository.ts `recordOf`), so a cart read prepares them once per deal version, not per request.
 */
const preparedByStore = new Map<number, PreparedDeals>();

export function preparedDealsOf(storeId: number, records: readonly Deal[]): PreparedDeals {
  const known = preparedByStore.get(storeId);
  if (known && sameRecords(known.source, records)) return known;
  const fresh = prepareDeals(records);
  preparedByStore.set(storeId, fresh);
  return fresh;
}

function sameRecords(a: readonly Deal[], b: readonly Deal[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export interface EvaluateStoreDealsInput {
  store: Store;
  deals: readonly StoredDeal[];
  lines: readonly ResolvedLine[];
  shopper: DealShopper;
  couponApplied: boolean;
  pointsRedeemed: boolean;
  now: Date;
  /** Counts to use instead of reading them (the order's reservation loop: a deal found exhausted). */
  usageOverride?: Readonly<Record<string, DealUsage>>;
}

/**
 * Run the engine for a cart or an order on `db` (the app's database for a cart read; the order's
 * transaction for an order). Null when the store has no active deal or nothing sellable: no query.
 */
export async function evaluateStoreDeals(db: Db, input: EvaluateStoreDealsInput): Promise<StoreDealsOutcome | null> {
  if (input.deals.length === 0 || input.lines.length === 0) return null;
  const timeZone = input.store.dispensarySettings.place_info.timezone || 'UTC';
  const records = input.deals.map((d) => d.record);
  const prepared = preparedDealsOf(input.store.storeId, records);
  const catalog = await dealCatalogFacts(
    db,
    input.store.storeId,
    input.lines.map((l) => l.productId),
  );
  const { facts: customer, phone } = await customerFacts(db, records, input.shopper);
  const customerKey = customerKeyOf({ ...input.shopper, phone });
  const usage: Record<string, DealUsage> = {};
  for (const d of input.deals) {
    const u: DealUsage = {};
    if (d.record.limits.budget != null) u.totalRedemptions = d.redeemed;
    if (d.record.limits.perCustomer && customerKey) u.customerRedemptions = await customerRedemptions(db, d, customerKey, input.now, timeZone);
    const over = input.usageOverride?.[d.code];
    usage[d.code] = { ...u, ...over };
  }
  const engineLines: DealCartLine[] = [];
  const lineIndex = new Map<string, number>();
  input.lines.forEach((l, i) => {
    const product = catalog.products.get(l.productId);
    if (!product) return;
    // The line's merge key: the same whatever order the lines come in (cart rows or an order's merged lines).
    const id = lineIndex.has(l.key) ? `${l.key}#${i}` : l.key;
    lineIndex.set(id, i);
    engineLines.push({ id, product: { ...product, sku: l.sku, size: l.size ?? product.size }, unitPriceCents: l.unitPrice, qty: l.qty });
  });
  const ctx: DealContext = {
    now: input.now,
    timeZone,
    customer,
    usage,
    couponApplied: input.couponApplied,
    pointsRedeemed: input.pointsRedeemed,
    categoryParents: catalog.categoryParents,
  };
  countDealEvaluation('cart');
  const result = evaluateDeals(engineLines, prepared, ctx, await storeDealFloor(db, input.store));
  const byCode = new Map(input.deals.map((d) => [d.code, d]));
  const lineDiscounts = input.lines.map(() => 0);
  const lineDeals: LineDeal[][] = input.lines.map(() => []);
  for (const r of result.lines) {
    const i = lineIndex.get(r.lineId);
    if (i === undefined) continue;
    lineDiscounts[i] += r.discountCents;
    for (const d of r.deals) if (d.discountCents > 0) lineDeals[i].push({ code: d.dealId, title: byCode.get(d.dealId)?.title ?? d.dealId, discount: d.discountCents });
  }
  const applied = result.applied.flatMap((a) => {
    const deal = byCode.get(a.dealId);
    return deal ? [{ deal, discount: a.discountCents }] : [];
  });
  const related: ReadonlySet<string> = prepared.touching(
    engineLines.map((l) => l.product),
    catalog.categoryParents,
  );
  return { result, lineDiscounts, lineDeals, applied, customerKey, byCode, related };
}
