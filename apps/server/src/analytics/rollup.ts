/**
 * Keeping the daily rollups (analytics_daily) equal to the sum of every order's current cells
 * (./cells.ts), idempotently:
 *  - `applyOrder` recomputes an order's cells, compares them with the cells kept for it
 *    (analytics_order_facts) and adds only the difference, in one transaction. A replayed event
 *    finds no difference; a cancellation after the fact subtracts the sales cells and adds the
 *    cancellation cell. Two nodes handling the same order at once: the facts row is updated
 *    `WHERE version = :read`, so the second one's transaction rolls back and it tries again.
 *  - the rollup rows are upserted (`ON CONFLICT … DO UPDATE SET x = x + excluded.x`), in key order
 *    so two transactions on PostgreSQL never wait on each other's rows in opposite orders.
 * Run by the outbox consumer after each order event (never in the order's own transaction: an order
 * save writes its outbox row and nothing more, so analytics never slows order taking), and by the
 * rebuild command (`verdant analytics-rebuild`) over a store's whole history.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { FIGURES, orderCells, type Cell, type CellLookups } from './cells.ts';

type Db = Kysely<Database>;

const cellKey = (c: Pick<Cell, 'day' | 'dim' | 'key'>) => `${c.day}|${c.dim}|${c.key}`;

/** new − old, cell by cell; cells whose figures all cancel out are left out (their label aside). */
export function difference(next: Cell[], prev: Cell[]): Cell[] {
  const out = new Map<string, Cell>();
  for (const c of next) out.set(cellKey(c), { ...c });
  for (const c of prev) {
    const had = out.get(cellKey(c));
    if (had) for (const f of FIGURES) had[f] -= c[f];
    else {
      const neg = { ...c };
      for (const f of FIGURES) neg[f] = -c[f];
      out.set(cellKey(c), neg);
    }
  }
  return [...out.values()].filter((c) => FIGURES.some((f) => c[f] !== 0)).sort((a, b) => (cellKey(a) < cellKey(b) ? -1 : 1));
}

const adding = (table: 'analytics_daily' | 'analytics_monthly') => ({
  // A cell taken away (a cancelled order's sales) carries no label: the row keeps its own.
  label: sql<string>`case when excluded.label = '' then ${sql.ref(`${table}.label`)} else excluded.label end`,
  orders: sql<number>`${sql.ref(`${table}.orders`)} + excluded.orders`,
  units: sql<number>`${sql.ref(`${table}.units`)} + excluded.units`,
  grams_mg: sql<number>`${sql.ref(`${table}.grams_mg`)} + excluded.grams_mg`,
  sales_cents: sql<number>`${sql.ref(`${table}.sales_cents`)} + excluded.sales_cents`,
  discount_cents: sql<number>`${sql.ref(`${table}.discount_cents`)} + excluded.discount_cents`,
  total_cents: sql<number>`${sql.ref(`${table}.total_cents`)} + excluded.total_cents`,
});

/** The cells summed by month (day → YYYY-MM), in key order. */
export function byMonth(cells: Cell[]): (Omit<Cell, 'day'> & { month: string })[] {
  const out = new Map<string, Omit<Cell, 'day'> & { month: string }>();
  for (const { day, ...c } of cells) {
    const month = day.slice(0, 7);
    const k = `${month}|${c.dim}|${c.key}`;
    const had = out.get(k);
    if (!had) out.set(k, { ...c, month });
    else for (const f of FIGURES) had[f] += c[f];
  }
  return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, c]) => c);
}

/** Add the cells' figures to the store's daily and monthly rollup rows (one statement per 200 cells). */
export async function addToRollups(db: Db, storeId: number, cells: Cell[]): Promise<void> {
  for (let i = 0; i < cells.length; i += 200)
    await db
      .insertInto('analytics_daily')
      .values(cells.slice(i, i + 200).map((c) => ({ store_id: storeId, day: c.day, dim: c.dim, key: c.key, label: c.label, ...pick(c) })))
      .onConflict((oc) => oc.columns(['store_id', 'dim', 'day', 'key']).doUpdateSet(adding('analytics_daily')))
      .execute();
  const months = byMonth(cells);
  for (let i = 0; i < months.length; i += 200)
    await db
      .insertInto('analytics_monthly')
      .values(months.slice(i, i + 200).map((c) => ({ store_id: storeId, month: c.month, dim: c.dim, key: c.key, label: c.label, ...pick(c) })))
      .onConflict((oc) => oc.columns(['store_id', 'dim', 'month', 'key']).doUpdateSet(adding('analytics_monthly')))
      .execute();
}

/** Sum a store's monthly rows from its daily rows again (after a bulk load of days, e.g. seed-history). */
export async function monthsFromDays(db: Db, storeId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('analytics_monthly').where('store_id', '=', storeId).execute();
    await sql`
      insert into analytics_monthly (store_id, month, dim, key, label, orders, units, grams_mg, sales_cents, discount_cents, total_cents)
      select store_id, substr(day, 1, 7), dim, key, max(label), sum(orders), sum(units), sum(grams_mg), sum(sales_cents), sum(discount_cents), sum(total_cents)
      from analytics_daily where store_id = ${storeId}
      group by store_id, substr(day, 1, 7), dim, key
    `.execute(trx);
  });
}

function pick(c: Pick<Cell, (typeof FIGURES)[number]>) {
  return { orders: c.orders, units: c.units, grams_mg: c.grams_mg, sales_cents: c.sales_cents, discount_cents: c.discount_cents, total_cents: c.total_cents };
}

/**
 * The cells kept per order, compactly (a busy store keeps 300,000 orders' a year): the order's one
 * day and, per cell, [dim, key, orders, units, grams_mg, sales, discount, total] — no labels (the
 * rollup rows have them; a cell taken away needs none).
 */
export function encodeCells(cells: Cell[]): string {
  return JSON.stringify({ d: cells[0]?.day ?? '', c: cells.map((c) => [c.dim, c.key, ...FIGURES.map((f) => c[f])]) });
}

export function decodeCells(text: string): Cell[] {
  const { d, c } = JSON.parse(text) as { d: string; c: [Cell['dim'], string, ...number[]][] };
  return c.map(([dim, key, ...figures]) => {
    const cell = { day: d, dim, key, label: '' } as Cell;
    FIGURES.forEach((f, i) => (cell[f] = figures[i] ?? 0));
    return cell;
  });
}

class Raced extends Error {}

/**
 * Bring one order's part of the rollups up to date. Returns how many cells changed (0 for a replay).
 * `timeZoneOf` gives the store's zone (store-local days).
 */
export async function applyOrder(db: Db, orderId: number, timeZoneOf: (storeId: number) => string, now: string, lookups: CellLookups = {}): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const store = await trx.selectFrom('orders').select('store_id').where('id', '=', orderId).executeTakeFirst();
        if (!store) return 0; // deleted (data retention): the sums it made stay, as history.
        const current = await orderCells(trx, orderId, timeZoneOf(store.store_id), lookups);
        if (!current) return 0;
        const kept = await trx.selectFrom('analytics_order_facts').select(['cells', 'version']).where('order_id', '=', orderId).executeTakeFirst();
        const diff = difference(current.cells, kept ? (decodeCells(kept.cells)) : []);
        if (!diff.length && kept) return 0;
        const cells = encodeCells(current.cells);
        if (kept) {
          const r = await trx
            .updateTable('analytics_order_facts')
            .set({ cells, version: kept.version + 1, updated_at: now })
            .where('order_id', '=', orderId)
            .where('version', '=', kept.version)
            .executeTakeFirst();
          if (Number(r.numUpdatedRows) !== 1) throw new Raced();
        } else {
          const r = await trx
            .insertInto('analytics_order_facts')
            .values({ order_id: orderId, store_id: current.storeId, cells, version: 1, updated_at: now })
            .onConflict((oc) => oc.column('order_id').doNothing())
            .executeTakeFirst();
          if (Number(r.numInsertedOrUpdatedRows ?? 0) !== 1) throw new Raced();
        }
        await addToRollups(trx, current.storeId, diff);
        return diff.length;
      });
    } catch (err) {
      // Another node applied this order between our read and our write: read again.
      if ((err instanceof Raced || isSerialization(err)) && attempt < 5) continue;
      throw err;
    }
  }
}

function isSerialization(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === '40001' || code === '40P01' || code === 'SQLITE_BUSY';
}

/**
 * Rebuild a store's rollups from its orders: clear its rollups and kept cells, then apply every
 * order, in id order, batch by batch. Returns the number of orders applied. While it runs the
 * dashboard shows a partial history; the consumer keeps applying new events alongside (each order
 * applied once either way, through the kept cells).
 */
export async function rebuildStore(db: Db, storeId: number, timeZone: string, now: string, onProgress?: (n: number) => void): Promise<number> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('analytics_daily').where('store_id', '=', storeId).execute();
    await trx.deleteFrom('analytics_monthly').where('store_id', '=', storeId).execute();
    await trx.deleteFrom('analytics_order_facts').where('store_id', '=', storeId).execute();
  });
  const lookups: CellLookups = {};
  let after = 0;
  let n = 0;
  for (;;) {
    const ids = (await db.selectFrom('orders').select('id').where('store_id', '=', storeId).where('id', '>', after).orderBy('id').limit(500).execute()).map((r) => r.id);
    if (!ids.length) return n;
    for (const id of ids) await applyOrder(db, id, () => timeZone, now, lookups);
    n += ids.length;
    after = ids[ids.length - 1];
    onProgress?.(n);
  }
}
