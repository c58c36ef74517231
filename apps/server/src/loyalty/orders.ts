/**
 * Points and the order lifecycle (issue 30 "Loyalty"), each inside the transaction of its move:
 *  - placing redeems the points the shopper chose (kind `redeem`, − points; refused when the balance
 *    is short: orders/place.ts answers "not enough points");
 *  - completing earns (kind `earn`): the store's programme of that moment (./programme.ts) on the
 *    order's lines (pre-tax, after every discount; line discounts already include the share of the
 *    redeemed points, cart/totals.ts), at the earn rate of the customer's tier, with the multipliers
 *    of the weekday the order was PLACED in the store's zone; the account's last purchase moves to
 *    now (expiry counts from it). A recreational order under a medical-only programme earns nothing.
 *  - cancelling or a no-show reverses (kind `reverse`, once): the points the order redeemed come
 *    back and those it earned go, in one entry; earned points already spent are taken only as far as
 *    the balance goes (never negative). Today only orders not yet completed can be cancelled, so in
 *    practice a reversal gives back what was redeemed; the rule holds for completed orders too.
 * Once-only by the ledger's unique (order_id, kind) and the status move's guarded update.
 */
import { pointsForOrder, spendInWindow, tierFor, type LoyaltyProgramme } from '@verdant/domain';
import type { Row } from '../db/schema.ts';
import { dealCatalogFacts } from '../deals/facts.ts';
import { ensureAccount, postEntry, type Db, type Posted } from './ledger.ts';
import { storeLoyalty } from './programme.ts';

const DAY_MS = 86_400_000;

/** Spend (cents, pre-tax after discounts) of the customer's completed orders in the window before `now`, other than `exceptOrderId`. */
export async function spendOf(db: Db, customerId: number, storeId: number, programme: LoyaltyProgramme, now: Date, exceptOrderId: number | null = null): Promise<number> {
  const from = new Date(now.getTime() - programme.tierWindowDays * DAY_MS).toISOString();
  let q = db
    .selectFrom('orders')
    .select(['status_changed_at', 'subtotal_cents', 'discount_cents'])
    .where('customer_id', '=', customerId)
    .where('store_id', '=', storeId)
    .where('status', '=', 'completed')
    .where('status_changed_at', '>', from);
  if (exceptOrderId != null) q = q.where('id', '!=', exceptOrderId);
  const rows = await q.execute();
  return spendInWindow(
    rows.map((r) => ({ at: r.status_changed_at ?? from, cents: Number(r.subtotal_cents) - Number(r.discount_cents) })),
    now,
    programme.tierWindowDays,
  );
}

export async function redeemForOrder(trx: Db, e: { customerId: number; storeId: number; orderId: number; points: number; iso: string }): Promise<Posted | null> {
  return postEntry(trx, { customerId: e.customerId, storeId: e.storeId, orderId: e.orderId, kind: 'redeem', points: -e.points, iso: e.iso });
}

/** Credit what a completed order earns (once). Answers the entry, or null when it earns nothing. */
export async function earnForOrder(trx: Db, order: Row<'orders'>, now: Date): Promise<Posted | null> {
  if (order.customer_id == null) return null;
  const iso = now.toISOString();
  const customerId = order.customer_id;
  await ensureAccount(trx, customerId, order.store_id, iso);
  // A purchase, whatever it earns: expiry counts from here.
  await trx.updateTable('loyalty_accounts').set({ last_purchase_at: iso, updated_at: iso }).where('customer_id', '=', customerId).where('store_id', '=', order.store_id).execute();
  const loyalty = await storeLoyalty(trx, order.store_id);
  if (!loyalty) return null;
  const { programme } = loyalty;
  const items = await trx.selectFrom('order_items').select(['product_id', 'row_total_cents', 'discount_cents']).where('order_id', '=', order.id).orderBy('id').execute();
  const ids = items.flatMap((i) => (i.product_id != null ? [i.product_id] : []));
  const hasProductRules = programme.multipliers.some((m) => m.products && Object.keys(m.products).length > 0);
  const facts = hasProductRules ? await dealCatalogFacts(trx, order.store_id, ids) : null;
  const tier = tierFor(programme, await spendOf(trx, customerId, order.store_id, programme, now, order.id));
  const earning = pointsForOrder(programme, {
    lines: items.map((i) => ({ product: (i.product_id != null && facts?.products.get(i.product_id)) || null, netCents: Number(i.row_total_cents) - Number(i.discount_cents) })),
    // Line discounts already hold each line's share of the redeemed points.
    redeemedCents: 0,
    placedAt: new Date(order.created_at),
    timeZone: loyalty.timeZone,
    licence: order.license_type,
    earnRate: tier.earnRate,
    categoryParents: facts?.categoryParents,
  });
  if (earning.points <= 0) return null;
  const labels = [...new Set(earning.lines.flatMap((l) => (l.label ? [l.label] : [])))];
  const note = [tier.tier ? `${tier.name} tier` : null, ...labels].filter(Boolean).join(', ') || null;
  return postEntry(trx, { customerId, storeId: order.store_id, orderId: order.id, kind: 'earn', points: earning.points, note, iso });
}

/** Reverse what a cancelled (or no-show) order redeemed and earned, once. */
export async function reverseForOrder(trx: Db, order: Row<'orders'>, iso: string): Promise<Posted | null> {
  if (order.customer_id == null) return null;
  const rows = await trx
    .selectFrom('loyalty_ledger')
    .select(['kind', 'points'])
    .where('order_id', '=', order.id)
    .where('kind', 'in', ['earn', 'redeem'])
    .execute();
  const net = -rows.reduce((s, r) => s + Number(r.points), 0);
  if (net === 0) return null;
  return postEntry(trx, { customerId: order.customer_id, storeId: order.store_id, orderId: order.id, kind: 'reverse', points: net, iso, clamp: true });
}

/**
 * A new customer's account, with the sign-up bonus when the programme has one and the customer may
 * earn (a recreational customer under a medical-only programme gets none). Once: only the call that
 * made the account gives it.
 */
export async function openAccountAtSignup(trx: Db, customer: Pick<Row<'customers'>, 'id' | 'store_id' | 'license_type'>, now: Date): Promise<Posted | null> {
  const iso = now.toISOString();
  const made = await ensureAccount(trx, customer.id, customer.store_id, iso);
  if (!made) return null;
  const loyalty = await storeLoyalty(trx, customer.store_id);
  const p = loyalty?.programme;
  if (!p || !p.enabled || p.signupBonus <= 0) return null;
  if (p.eligibility === 'medical' && customer.license_type !== 'medical') return null;
  return postEntry(trx, { customerId: customer.id, storeId: customer.store_id, orderId: null, kind: 'bonus', points: p.signupBonus, note: 'Sign-up bonus', iso });
}
