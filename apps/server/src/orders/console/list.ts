/**
 * The console's order queue: newest first, filtered by status, type, store-local dates and a
 * search (order number, customer name, phone: index range scans, see search-keys.ts), paged by a
 * keyset cursor over (created_at, id) — the `orders (store_id, status, created_at)` index serves
 * it, and a page costs the same at order 10 000 as at order 50. Counts per status follow the same
 * filters except the status one (the queue's tabs).
 */
import { arrivalOf } from '../curbside/arrival.ts';
import { FINAL_STATUSES, ORDER_STATUSES, type OrderStatus } from '@verdant/domain';
import type { OrderList, OrderQuery, OrderSummary } from '@verdant/domain/console-api';
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ApiError } from '../../http/envelope.ts';
import { isDbId } from '../../http/ids.ts';
import { dayStartUtc, holdOf, nextDay, type Db, type StoreFacts } from '../lifecycle/store-facts.ts';
import { orderPrefix } from '../number.ts';
import { searchTerms, type PrefixRange, type SearchTerms } from './search-keys.ts';

export type { OrderQuery, OrderSummary } from '@verdant/domain/console-api';

export const LIST_MESSAGES = { badCursor: 'The page link is no longer valid; start from the first page.' } as const;

type Q = SelectQueryBuilder<Database, 'orders', object>;

export function encodeCursor(createdAt: string, id: number): string {
  return Buffer.from(`${createdAt}|${id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: number } {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!createdAt || !Number.isFinite(Date.parse(createdAt)) || !/^\d{1,10}$/.test(id ?? '') || !isDbId(Number(id)))
    throw new ApiError(400, LIST_MESSAGES.badCursor, { errorCode: 'invalid_request' });
  return { createdAt, id: Number(id) };
}

/**
 * The store's orders, or with a search the store's orders that match it (search-keys.ts has the
 * rule) as index range scans: each alternative carries the store, `store_id = ? and key >= ? and
 * key < ?`, so both databases read `(store_id, key)` ranges — SQLite's OR-by-union, PostgreSQL's
 * bitmap OR — and never the store's whole order list. The store is not repeated outside the
 * alternatives: SQLite would then walk `(store_id, created_at)` for the order and test every order.
 */
function storeOrders(db: Db, store: StoreFacts, search: string | undefined): Q {
  const q: Q = db.selectFrom('orders');
  const terms = search ? searchTerms(search, orderPrefix(store.code)) : null;
  if (!terms) return q.where('orders.store_id', '=', store.id);
  return q.where((eb: ExpressionBuilder<Database, 'orders'>) => {
    const inRange = (column: 'increment_id' | SearchColumn, r: PrefixRange) =>
      eb.and([eb('orders.store_id', '=', store.id), eb(`orders.${column}`, '>=', r.from), eb(`orders.${column}`, '<', r.to)]);
    const ors = [...terms.phone, ...terms.name].map((t) => inRange(t.column, t.range));
    if (terms.number) ors.push(inRange('increment_id', terms.number));
    return eb.or(ors);
  });
}

type SearchColumn = SearchTerms['phone' | 'name'][number]['column'];

function filtered(db: Db, store: StoreFacts, query: OrderQuery, withStatus: boolean): Q {
  let q = storeOrders(db, store, query.q);
  if (withStatus && query.status?.length) q = q.where('orders.status', 'in', query.status);
  if (query.type) q = q.where('orders.order_type', '=', query.type);
  if (query.from) q = q.where('orders.created_at', '>=', dayStartUtc(query.from, store.timezone));
  if (query.to) q = q.where('orders.created_at', '<', dayStartUtc(nextDay(query.to), store.timezone));
  return q;
}

export function customerNameOf(personalDetails: string): { name: string; phone: string; email: string | null } {
  try {
    const p = JSON.parse(personalDetails) as { firstName?: string; lastName?: string; phone?: string; emailAddress?: string };
    return { name: [p.firstName, p.lastName].filter(Boolean).join(' '), phone: p.phone ?? '', email: p.emailAddress ?? null };
  } catch {
    return { name: '', phone: '', email: null };
  }
}

function parseAddress(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The page's query (exported for the plan test: a search must read the search indexes). */
export function pageQuery(db: Db, store: StoreFacts, query: OrderQuery) {
  let page = filtered(db, store, query, true);
  const bySlot = query.sort === 'slot';
  // When an order is due: its slot's start, or when it was placed (ASAP). ISO text on both databases.
  const due = sql<string>`coalesce(orders.slot_start, orders.created_at)`;
  if (query.cursor) {
    const c = decodeCursor(query.cursor);
    page = bySlot
      ? page.where((eb) => eb.or([eb(due, '>', c.createdAt), eb.and([eb(due, '=', c.createdAt), eb('orders.id', '>', c.id)])]))
      : page.where((eb) =>
          eb.or([eb('orders.created_at', '<', c.createdAt), eb.and([eb('orders.created_at', '=', c.createdAt), eb('orders.id', '<', c.id)])]),
        );
  }
  const selected = page
    .leftJoin('customers', 'customers.id', 'orders.customer_id')
    .select([
      'orders.id',
      'orders.increment_id',
      'orders.status',
      'orders.order_type',
      'orders.license_type',
      'orders.created_at',
      'orders.ready_by',
      'orders.personal_details',
      'orders.total_cents',
      'orders.verification_needs',
      'orders.version',
      'orders.customer_id',
      'customers.id_status',
      'customers.medcard_status',
      'customers.medcard_expiry',
    ])
    .select((eb) =>
      eb
        .selectFrom('order_items')
        .select((e) => e.fn.coalesce(e.fn.sum<number>('order_items.qty'), e.lit(0)).as('n'))
        .whereRef('order_items.order_id', '=', 'orders.id')
        .as('item_count'),
    );
  const ordered = bySlot
    ? selected.select(due.as('due')).orderBy(due, 'asc').orderBy('orders.id', 'asc')
    : selected.orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc');
  return ordered.limit(query.limit + 1);
}

export async function listOrders(
  db: Db,
  store: StoreFacts,
  query: OrderQuery,
): Promise<OrderList> {
  const rows = await pageQuery(db, store, query).execute();
  const more = rows.length > query.limit;
  const pageRows = more ? rows.slice(0, query.limit) : rows;
  // The page's time slots (issue 14) by primary key, apart from the indexed page query (its plan is tested by search.test.ts).
  const slots = new Map(
    pageRows.length
      ? (
          await db
            .selectFrom('orders')
            .select(['id', 'slot_start', 'slot_end', 'shipping_address', 'opened_at', 'curbside_arrived_at', 'curbside_car', 'curbside_bay'])
            .where(
              'id',
              'in',
              pageRows.map((r) => r.id),
            )
            .execute()
        ).map((r) => [r.id, r] as const)
      : [],
  );
  const items = pageRows.map((r): OrderSummary => {
    const who = customerNameOf(r.personal_details);
    const docs =
      r.customer_id != null && r.id_status && r.medcard_status
        ? { id_status: r.id_status, medcard_status: r.medcard_status, medcard_expiry: r.medcard_expiry }
        : null;
    return {
      id: r.id,
      increment_id: r.increment_id,
      status: r.status,
      order_type: r.order_type,
      license_type: r.license_type,
      created_at: r.created_at,
      ready_by: r.ready_by,
      slot_start: slots.get(r.id)?.slot_start ?? null,
      slot_end: slots.get(r.id)?.slot_end ?? null,
      shipping_address: parseAddress(slots.get(r.id)?.shipping_address ?? null),
      opened_at: slots.get(r.id)?.opened_at ?? null,
      curbside: slots.has(r.id) ? arrivalOf(slots.get(r.id)!) : null,
      customer_name: who.name,
      phone: who.phone,
      total_cents: r.total_cents,
      item_count: Number(r.item_count ?? 0),
      hold: FINAL_STATUSES.includes(r.status) ? [] : holdOf(r, docs, store.timezone),
      version: r.version,
    };
  });
  const last = pageRows.at(-1);
  const grouped = await filtered(db, store, query, false)
    .select(['orders.status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('orders.status')
    .execute();
  const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  for (const g of grouped) if (g.status in counts) counts[g.status] = Number(g.n);
  const lastKey = last ? (query.sort === 'slot' ? String((last as { due?: string }).due ?? last.created_at) : last.created_at) : null;
  return { items, nextCursor: more && last && lastKey ? encodeCursor(lastKey, last.id) : null, counts };
}
