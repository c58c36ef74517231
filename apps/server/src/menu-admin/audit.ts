/**
 * The menu's history (issue 13, migration 0013): every change to a store's menu from any source is
 * written here, in the same transaction as the change itself, so the history never claims a change
 * that was rolled back and never misses one that was made. It also marks the back-in-stock watches
 * of what came back (issue 30, ../alerts/watches.ts markRestocked), in the same transaction.
 *
 *   await recordMenuChanges(trx, { storeId, source: 'console', actor: { type: 'staff', id, name }, at, changes: [...] });
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database, MenuChangeActorType, MenuChangeSource, Row } from '../db/schema.ts';
import { markRestocked } from '../alerts/watches.ts';

export interface MenuActor {
  type: MenuChangeActorType;
  /** Staff id or API key id; none for the command line. */
  id?: number | null;
  /** Shown in the history: the member's name, the key's name, or e.g. "command line". */
  name: string;
}

export interface MenuChange {
  productId: number | null;
  sku: string;
  externalId?: string | null;
  /** A menu-file column name (menu-import/FORMAT.md): price, special_price, stock, orderable, status, … */
  field: string;
  before: string | null;
  after: string | null;
}

export interface RecordOptions {
  storeId: number;
  source: MenuChangeSource;
  actor: MenuActor;
  at: Date;
  changes: readonly MenuChange[];
  /** Defaults to a new id: one action, one batch. */
  batchId?: string;
}

/** Rows per INSERT: well under SQLite's 32,766 bound variables (13 columns a row). */
const CHUNK = 500;

/** Write the changes of one action; returns its batch id. Call inside the transaction that made them. */
export async function recordMenuChanges(db: Kysely<Database> | Transaction<Database>, opts: RecordOptions): Promise<string> {
  const batchId = opts.batchId ?? randomUUID();
  const at = opts.at.toISOString();
  const rows = opts.changes.map((c) => ({
    store_id: opts.storeId,
    product_id: c.productId,
    sku: c.sku,
    external_id: c.externalId ?? null,
    field: c.field,
    before: c.before,
    after: c.after,
    source: opts.source,
    actor_type: opts.actor.type,
    actor_id: opts.actor.id ?? null,
    actor_name: opts.actor.name,
    batch_id: batchId,
    at,
  }));
  for (let i = 0; i < rows.length; i += CHUNK)
    await db
      .insertInto('menu_changes')
      .values(rows.slice(i, i + CHUNK))
      .execute();
  // Issue 30: every stock change passes here, from every source, in its transaction — the one place
  // back-in-stock watches are marked (alerts/watches.ts; the alert planner messages them after the commit).
  await markRestocked(db, opts.storeId, opts.changes, opts.at);
  return batchId;
}

export interface HistoryQuery {
  productId?: number;
  /** Rows with an id below this one (paging backwards from the newest). */
  beforeId?: number;
  limit?: number;
}

/** A store's history, newest first (one product's with `productId`). */
export async function listMenuChanges(db: Kysely<Database>, storeId: number, q: HistoryQuery = {}): Promise<Row<'menu_changes'>[]> {
  let query = db.selectFrom('menu_changes').selectAll().where('store_id', '=', storeId);
  if (q.productId !== undefined) query = query.where('product_id', '=', q.productId);
  if (q.beforeId !== undefined) query = query.where('id', '<', q.beforeId);
  return query
    .orderBy('id', 'desc')
    .limit(Math.min(Math.max(q.limit ?? 50, 1), 500))
    .execute();
}
