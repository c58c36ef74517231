/**
 * Budgets and per-customer limits taken inside the order's transaction (issue 28), and given back
 * once when the order is cancelled.
 *
 * Reserving, after the engine chose the order's deals (./apply.ts), for each applied deal with a
 * limit, in deal id order (two orders never wait on each other in a cycle):
 *  - a per-customer limit: on PostgreSQL a transaction advisory lock on (schema, deal, customer key)
 *    first, then the customer's redemptions in the window are counted again; the lock is held to
 *    the commit, so the next order of that customer counts this one. SQLite runs one write
 *    transaction at a time, so there is nothing to lock;
 *  - a budget: `UPDATE deals SET redeemed = redeemed + 1 WHERE id = ? AND redeemed < budget`, a
 *    conditional update (PostgreSQL makes a concurrent one wait for the row and judge the committed
 *    value), never read-then-write.
 * A deal that fails is re-evaluated as used up (`budget_exhausted` / `limit_reached`) with the
 * budgets already taken in this transaction kept for the deals still applied and given back for
 * the others, and the engine chooses again: the order charges the new total (the shopper sees it on
 * the order's answer; nothing is charged before a person pays at pickup or delivery).
 *
 * Giving back: `released_at` set on the order's redemption rows `WHERE released_at IS NULL` (the
 * "once"), and each deal's counter goes down by the rows that changed, in the cancel's transaction.
 */
import { sql, type Kysely } from 'kysely';
import type { DealUsage } from '@verdant/domain';
import type { Database } from '../db/schema.ts';
import { customerRedemptions, evaluateStoreDeals, type EvaluateStoreDealsInput, type StoreDealsOutcome } from './apply.ts';
import { isPostgres } from './repository.ts';

type Db = Kysely<Database>;

export async function reserveStoreDeals(trx: Db, input: EvaluateStoreDealsInput): Promise<StoreDealsOutcome | null> {
  const timeZone = input.store.dispensarySettings.place_info.timezone || 'UTC';
  const override: Record<string, DealUsage> = {};
  const taken = new Set<number>();
  const locked = new Set<string>();
  // Each round either succeeds or rules one more deal out: at most one round per deal, plus one.
  for (let round = 0; round <= input.deals.length; round++) {
    const outcome = await evaluateStoreDeals(trx, { ...input, usageOverride: override });
    if (!outcome) return null;
    const limited = outcome.applied.filter((a) => a.deal.record.limits.budget != null || a.deal.record.limits.perCustomer).sort((a, b) => a.deal.id - b.deal.id);
    let failed: { code: string; usage: DealUsage } | null = null;
    for (const { deal } of limited) {
      const per = deal.record.limits.perCustomer;
      if (per && outcome.customerKey) {
        const lockKey = `verdant:deal-customer:${deal.id}:${outcome.customerKey}`;
        if (isPostgres(trx) && !locked.has(lockKey)) {
          await sql`select pg_advisory_xact_lock(hashtextextended(coalesce(current_schema(), '') || ${lockKey}, 0))`.execute(trx);
          locked.add(lockKey);
        }
        const used = await customerRedemptions(trx, deal, outcome.customerKey, input.now, timeZone);
        if (used >= per.max) {
          failed = { code: deal.code, usage: { customerRedemptions: used } };
          break;
        }
      }
      const budget = deal.record.limits.budget;
      if (budget != null && !taken.has(deal.id)) {
        const res = await trx
          .updateTable('deals')
          .set((eb) => ({ redeemed: eb('redeemed', '+', 1) }))
          .where('id', '=', deal.id)
          .where('redeemed', '<', budget)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) {
          failed = { code: deal.code, usage: { totalRedemptions: budget } };
          break;
        }
        taken.add(deal.id);
      }
    }
    if (!failed) {
      const applied = new Set(outcome.applied.map((a) => a.deal.id));
      for (const id of taken) if (!applied.has(id)) await giveBackBudget(trx, id, 1);
      return outcome;
    }
    override[failed.code] = { ...override[failed.code], ...failed.usage };
  }
  throw new Error('deals: the reservation did not settle');
}

async function giveBackBudget(trx: Db, dealId: number, n: number): Promise<void> {
  await trx
    .updateTable('deals')
    .set((eb) => ({ redeemed: eb('redeemed', '-', n) }))
    .where('id', '=', dealId)
    .where('redeemed', '>=', n)
    .execute();
}

/** One redemption row per applied deal of the order (also those without a limit: reports read them). */
export async function recordRedemptions(trx: Db, orderId: number, storeId: number, outcome: StoreDealsOutcome | null, iso: string): Promise<void> {
  if (!outcome || outcome.applied.length === 0) return;
  await trx
    .insertInto('deal_redemptions')
    .values(
      outcome.applied.map((a) => ({
        deal_id: a.deal.id,
        order_id: orderId,
        store_id: storeId,
        customer_key: outcome.customerKey ?? `order:${orderId}`,
        discount_cents: a.discount,
        created_at: iso,
      })),
    )
    .execute();
}

/**
 * Give the order's redemptions back, once: each row this call released lowers its deal's counter
 * when the deal has a budget (the counter is kept for those only). Returns how many rows it released (0 when released before).
 */
export async function releaseRedemptions(trx: Db, orderId: number, iso: string): Promise<number> {
  const rows = await trx.selectFrom('deal_redemptions').select(['id', 'deal_id']).where('order_id', '=', orderId).where('released_at', 'is', null).orderBy('deal_id').execute();
  let released = 0;
  for (const r of rows) {
    const res = await trx.updateTable('deal_redemptions').set({ released_at: iso }).where('id', '=', r.id).where('released_at', 'is', null).executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) continue;
    released += 1;
    const deal = await trx.selectFrom('deals').select(['record']).where('id', '=', r.deal_id).executeTakeFirst();
    const budgeted = deal ? (JSON.parse(deal.record) as { limits?: { budget?: number } }).limits?.budget != null : false;
    if (budgeted) await giveBackBudget(trx, r.deal_id, 1);
  }
  return released;
}
