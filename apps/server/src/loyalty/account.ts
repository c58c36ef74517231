/**
 * What the shopper's account shows of their points (issue 30): the balance, the tier and what is
 * needed for the next, the points about to expire with the date, and the history (newest first).
 * Read-only: the account row is made when the customer signs up or first earns or redeems.
 */
import { expiryOf, nextTier, spendInWindow, tierFor, type LoyaltyAccountView, type Store } from '@verdant/domain';
import { sectionOf } from '../store-settings/read.ts';
import type { Db } from './ledger.ts';
import { LOYALTY_SECTION } from './section.ts';

export const HISTORY_LIMIT = 50;

export async function loyaltyAccountView(db: Db, store: Store, customer: { id: number; license_type: 'medical' | 'recreational' }, now: Date): Promise<LoyaltyAccountView> {
  const { value: p } = await sectionOf(db, store, LOYALTY_SECTION);
  const account = await db.selectFrom('loyalty_accounts').selectAll().where('customer_id', '=', customer.id).where('store_id', '=', store.storeId).executeTakeFirst();
  const from = new Date(now.getTime() - p.tierWindowDays * 86_400_000).toISOString();
  const orders = await db
    .selectFrom('orders')
    .select(['status_changed_at', 'subtotal_cents', 'discount_cents'])
    .where('customer_id', '=', customer.id)
    .where('store_id', '=', store.storeId)
    .where('status', '=', 'completed')
    .where('status_changed_at', '>', from)
    .execute();
  const spend = spendInWindow(
    orders.map((o) => ({ at: o.status_changed_at ?? from, cents: Number(o.subtotal_cents) - Number(o.discount_cents) })),
    now,
    p.tierWindowDays,
  );
  const tier = tierFor(p, spend);
  const next = nextTier(p, spend);
  const rows = await db
    .selectFrom('loyalty_ledger')
    .leftJoin('orders', 'orders.id', 'loyalty_ledger.order_id')
    .select(['loyalty_ledger.id', 'loyalty_ledger.kind', 'loyalty_ledger.points', 'loyalty_ledger.balance_after', 'loyalty_ledger.created_at', 'loyalty_ledger.note', 'orders.increment_id'])
    .where('loyalty_ledger.customer_id', '=', customer.id)
    .where('loyalty_ledger.store_id', '=', store.storeId)
    .orderBy('loyalty_ledger.id', 'desc')
    .limit(HISTORY_LIMIT)
    .execute();
  const balance = Math.max(0, Number(account?.balance ?? 0));
  const dates = account && balance > 0 ? expiryOf(p, account.last_purchase_at ?? account.created_at) : null;
  return {
    enabled: p.enabled,
    earns: p.enabled && (p.eligibility === 'all' || customer.license_type === 'medical'),
    eligibility: p.eligibility,
    balance,
    earn_rate: tier.earnRate,
    tier: { name: tier.name, earn_rate: tier.earnRate },
    next_tier: next ? { name: next.tier.name, earn_rate: next.tier.earnRate, needed_cents: next.neededCents } : null,
    spend_cents: spend,
    tier_window_days: p.tierWindowDays,
    expiry: dates ? { points: balance, expires_at: dates.expiresAt.toISOString() } : null,
    multipliers: p.multipliers.map((m) => ({ label: m.label, multiplier: m.multiplier })),
    history: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      points: Number(r.points),
      balance_after: Number(r.balance_after),
      at: r.created_at,
      order_number: r.increment_id ?? null,
      note: r.note,
    })),
  };
}
