/**
 * Carts in memory, in front of SQLite (issue 4: cart update throughput). Reading a cart and its
 * lines was the largest single cost of a cart change once commits were grouped; a cart being
 * edited is read again within seconds, so the server keeps the last committed copy of recent carts.
 *
 * Only for SQLite: one server process owns the database file, so every write to carts goes
 * through this process. With PostgreSQL several nodes write, and carts are always read from the
 * database (cartCacheFor answers null).
 *
 * How the copy never lies:
 *  - Every write to a cart or its lines runs in a write transaction (../db/group-commit.ts) and
 *    calls `writing()` once it has written: the copy goes at once (later units of the same group
 *    and readers fall through to the database), and after the COMMIT (only then) the writer puts
 *    the cart as it committed it, or it stays gone. A unit that fails before writing leaves the
 *    copy as it was: nothing changed.
 *  - A read that misses fills the copy only if no cart at all was written meanwhile (one clock
 *    for all carts, moved by every forget/put), so a slow read never overwrites a newer copy.
 *    Under many writes some fills are skipped; writers put their carts themselves.
 *  - Placing an order re-reads everything from the database, whatever is here.
 * The copy is shared, never mutated: callers treat the rows as read-only.
 */
import type { Kysely } from 'kysely';
import { sqlitePrepareOf } from '../db/compiled.ts';
import type { TransactionHooks } from '../db/group-commit.ts';
import type { Row } from '../db/schema.ts';

type CartRow = Row<'carts'>;
type CartLineRow = Row<'cart_items'>;

export interface CachedCart {
  cart: CartRow;
  rows: readonly CartLineRow[];
}

/** Recent carts kept; the oldest put is dropped first. */
export const CART_CACHE_SIZE = 20_000;

export class CartCache {
  private readonly entries = new Map<string, CachedCart>();
  /** Moves with every forget/put of any cart. */
  private clock = 0;

  constructor(private readonly capacity = CART_CACHE_SIZE) {}

  get size(): number {
    return this.entries.size;
  }

  /** The committed copy of a cart of this store, if kept. */
  get(token: string, storeId: number): CachedCart | undefined {
    const hit = this.entries.get(token);
    return hit && hit.cart.store_id === storeId ? hit : undefined;
  }

  /** Drop the copy (a write is about to happen, or happened without telling what it wrote). */
  forget(token: string): void {
    this.entries.delete(token);
    this.clock += 1;
  }

  /**
   * A write to the cart inside `tx`: the copy goes now and stays gone whatever the outcome, or, with
   * `committed`, is put back as the writer says it committed it (computed when the COMMIT is done).
   */
  writing(token: string, tx: TransactionHooks, committed?: () => CachedCart): void {
    this.forget(token);
    tx.afterRollback(() => this.forget(token));
    tx.afterCommit(committed ? () => this.put(token, committed()) : () => this.forget(token));
  }

  /** The cart as a writer committed it. */
  put(token: string, entry: CachedCart): void {
    this.entries.delete(token);
    this.entries.set(token, entry);
    this.clock += 1;
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Taken before a read from the database; fill() keeps the read only if no cart was written since. */
  stamp(): number {
    return this.clock;
  }

  fill(token: string, entry: CachedCart, stamp: number): void {
    if (this.clock !== stamp) return;
    this.put(token, entry);
  }
}

const caches = new WeakMap<Kysely<any>, CartCache>();

/** The cart cache of a SQLite database (the root instance, not a transaction); null otherwise. */
export function cartCacheFor(db: Kysely<any>): CartCache | null {
  if (db.isTransaction || !sqlitePrepareOf(db)) return null;
  let cache = caches.get(db);
  if (!cache) {
    cache = new CartCache();
    caches.set(db, cache);
  }
  return cache;
}
