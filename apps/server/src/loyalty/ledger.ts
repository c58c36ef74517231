/**
 * The loyalty ledger (migration 0034): every change of a customer's points in a store is ONE
 * `loyalty_ledger` row with the balance after it, written in the same transaction as the change of
 * `loyalty_accounts.balance`. Rules that hold under any burst, on both databases:
 *  - one account at a time: the account row is locked first (FOR UPDATE on PostgreSQL; SQLite runs
 *    one writer at a time), so entries are written in the order the balance changes;
 *  - never negative: a debit beyond the balance is refused (or, with `clamp`, cut to the balance),
 *    the move itself is `UPDATE … SET balance = balance + :d WHERE … AND balance + :d >= 0`, and the
 *    table checks `balance >= 0` besides;
 *  - once per order and kind: the ledger row is inserted `ON CONFLICT (order_id, kind) DO NOTHING`
 *    before the balance moves; only the insert that wrote a row moves it (a second
 *    earn/redeem/reverse of the same order changes nothing);
 *  - one sign-up bonus: the account row is created once (unique customer, store) and only the call
 *    that created it gives the bonus (and a partial unique index allows one `bonus` row).
 * 1 point = 1 cent when redeemed (spec §8, as before).
 */
import { PostgresAdapter, type Kysely } from 'kysely';
import type { LoyaltyLedgerKind } from '@verdant/domain';
import type { Database } from '../db/schema.ts';

export type Db = Kysely<Database>;

export interface LedgerEntry {
  customerId: number;
  storeId: number;
  orderId: number | null;
  kind: LoyaltyLedgerKind;
  /** Signed: + credits, − debits. */
  points: number;
  note?: string | null;
  iso: string;
  /**
   * A debit larger than the balance: `clamp` takes what there is (a reversal of points already
   * spent, an expiry); otherwise nothing is written and the call answers null.
   */
  clamp?: boolean;
}

export interface Posted {
  id: number;
  points: number;
  balanceAfter: number;
}

function locksRows(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The account row of a customer in a store, made if missing; answers whether this call made it. */
export async function ensureAccount(trx: Db, customerId: number, storeId: number, iso: string, opts: { bonusAt?: string | null } = {}): Promise<boolean> {
  const made = await trx
    .insertInto('loyalty_accounts')
    .values({ customer_id: customerId, store_id: storeId, balance: 0, last_purchase_at: null, bonus_at: opts.bonusAt ?? iso, reminded_for: null, created_at: iso, updated_at: iso })
    .onConflict((oc) => oc.columns(['customer_id', 'store_id']).doNothing())
    .executeTakeFirst();
  return Number(made.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/**
 * Write one change. Answers the row written, or null when nothing was (the order's entry of this
 * kind exists already, or a debit without `clamp` exceeds the balance, or a clamped debit found 0).
 * Call inside a transaction.
 */
export async function postEntry(trx: Db, e: LedgerEntry): Promise<Posted | null> {
  if (!Number.isSafeInteger(e.points) || e.points === 0) return null;
  await ensureAccount(trx, e.customerId, e.storeId, e.iso);
  // The account row's lock first (PostgreSQL; SQLite has one writer): entries of one account are
  // written one after another, so ledger ids follow the order of the balance's changes.
  let q = trx.selectFrom('loyalty_accounts').select('balance').where('customer_id', '=', e.customerId).where('store_id', '=', e.storeId);
  if (locksRows(trx)) q = q.forUpdate();
  const balance = Number((await q.executeTakeFirst())?.balance ?? 0);
  const points = e.clamp && e.points < 0 ? -Math.min(-e.points, balance) : e.points;
  if (points === 0 || balance + points < 0) return null;
  // The claim: a second entry of the same order and kind writes nothing and moves nothing.
  const inserted = await trx
    .insertInto('loyalty_ledger')
    .values({ customer_id: e.customerId, store_id: e.storeId, order_id: e.orderId, kind: e.kind, points, balance_after: balance + points, note: e.note ?? null, created_at: e.iso })
    .$call((b) => (e.orderId != null ? b.onConflict((oc) => oc.columns(['order_id', 'kind']).doNothing()) : b))
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return null;
  // The guard that holds whatever the lock: never below 0.
  const moved = await trx
    .updateTable('loyalty_accounts')
    .set((eb) => ({ balance: eb('balance', '+', points), updated_at: e.iso }))
    .where('customer_id', '=', e.customerId)
    .where('store_id', '=', e.storeId)
    .where((eb) => eb(eb('balance', '+', points), '>=', 0))
    .returning('balance')
    .executeTakeFirst();
  if (!moved || Number(moved.balance) !== balance + points) throw new Error(`loyalty balance of customer ${e.customerId} moved under its lock`);
  return { id: inserted.id, points, balanceAfter: balance + points };
}

/** The balance (1 point = 1 cent); guests and customers without an account have none. */
export async function balanceOf(db: Db, customerId: number | null, storeId: number): Promise<number> {
  if (customerId == null) return 0;
  const row = await db.selectFrom('loyalty_accounts').select('balance').where('customer_id', '=', customerId).where('store_id', '=', storeId).executeTakeFirst();
  return Math.max(0, Number(row?.balance ?? 0));
}

/** Give points by hand or in tests (kind `adjust`, no order). */
export async function adjustPoints(db: Db, customerId: number, storeId: number, points: number, iso = new Date().toISOString(), note: string | null = null): Promise<Posted | null> {
  return db.transaction().execute((trx) => postEntry(trx, { customerId, storeId, orderId: null, kind: 'adjust', points, note, iso, clamp: true }));
}

