/**
 * Which daily rollup cells an order counts in, from the order as it is now (issue 31 analytics).
 * A cell is (store-local day, dimension, key) with the figures the order adds to it. The rollup
 * (./rollup.ts) keeps, per order, the cells it applied, and applies only the difference when the
 * order changes, so the rollups always equal the sum of every order's current cells.
 *
 * What counts (decided here; docs/operators/analytics.md):
 *  - an order is dated by the store-local day and hour it was PLACED (`created_at`): the dashboard
 *    answers "what did shoppers order on Tuesday", and a cancellation after the fact moves the
 *    order out of Tuesday's sales into Tuesday's cancellations rather than changing another day;
 *  - sales cells (total, type, licence, slot, hour, ZIP, customer, category, brand, product, kind,
 *    deal) hold every order that is not cancelled or a no-show: booked sales, whether completed yet
 *    or not (the daily report of completed, paid orders stays in orders/report.ts);
 *  - `placed` counts every order placed (the funnel's last step), whatever became of it;
 *  - `cancel` counts cancelled and no-show orders by status and reason, with the sales they lost.
 * Money: `sales_cents` is net of discounts, before taxes and fees (line totals − line discounts);
 * `total_cents` is what the order comes to. Grams are milligrams (integers), from the sizes of
 * weighed lines (SIZE_WEIGHTS_GRAMS); units are item quantities.
 */
import { SIZE_WEIGHTS_GRAMS, limitKindOf } from '@verdant/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { orderLineDeals } from '../deals/order-lines.ts';

export const DIMENSIONS = [
  'total',
  'placed',
  'type',
  'licence',
  'slot',
  'hour',
  'zip',
  'customer',
  'category',
  'brand',
  'product',
  'kind',
  'deal',
  'cancel',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export interface Figures {
  orders: number;
  units: number;
  grams_mg: number;
  sales_cents: number;
  discount_cents: number;
  total_cents: number;
}

export interface Cell extends Figures {
  day: string;
  dim: Dimension;
  key: string;
  label: string;
}

export const ZERO: Figures = { orders: 0, units: 0, grams_mg: 0, sales_cents: 0, discount_cents: 0, total_cents: 0 };
export const FIGURES = Object.keys(ZERO) as (keyof Figures)[];

const zoned = new Map<string, Intl.DateTimeFormat>();
/** Store-local day (YYYY-MM-DD) and hour (00–23) and minute of an ISO instant. */
export function localParts(iso: string, timeZone: string): { day: string; hour: string; minute: string } {
  let f = zoned.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    zoned.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  return { day: `${p.year}-${p.month}-${p.day}`, hour: p.hour, minute: p.minute };
}

type Db = Kysely<Database>;

/** Per-run lookups (brand names): a rebuild of many orders reads them once. */
export interface CellLookups {
  brands?: Map<string, string>;
}

async function brandNames(db: Db, lookups: CellLookups): Promise<Map<string, string>> {
  if (lookups.brands) return lookups.brands;
  const row = await db.selectFrom('attributes').select('options').where('attribute_code', '=', 'brand_id').executeTakeFirst();
  const map = new Map<string, string>();
  try {
    for (const o of JSON.parse(row?.options ?? '[]') as { value: string; label: string }[]) map.set(String(o.value), o.label);
  } catch {
    /* no brand names: keys stand for themselves */
  }
  lookups.brands = map;
  return map;
}

const KIND_LABELS: Record<string, string> = { flower: 'Flower', preroll: 'Pre-roll', concentrate: 'Concentrate', infused: 'Infused', other: 'Other' };

/** The order's cells now; null when the order no longer exists (its cells are then left as they were). */
export async function orderCells(db: Db, orderId: number, timeZone: string, lookups: CellLookups = {}): Promise<{ storeId: number; cells: Cell[] } | null> {
  const o = await db
    .selectFrom('orders')
    .select([
      'id',
      'store_id',
      'customer_id',
      'search_phone',
      'status',
      'order_type',
      'license_type',
      'subtotal_cents',
      'discount_cents',
      'total_cents',
      'shipping_address',
      'slot_start',
      'cancel_reason',
      'created_at',
    ])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!o) return null;
  const items = await db
    .selectFrom('order_items as i')
    .leftJoin('products as p', 'p.id', 'i.product_id')
    .select(['i.product_id', 'i.sku', 'i.parent_sku', 'i.name', 'i.qty', 'i.size', 'i.uom', 'i.row_total_cents', 'i.discount_cents', 'i.deal_discounts', 'p.parent_id', 'p.brand_id', 'p.canna_type'])
    .where('i.order_id', '=', orderId)
    .orderBy('i.id')
    .execute();

  const { day, hour } = localParts(o.created_at, timeZone);
  const cells: Cell[] = [];
  const add = (dim: Dimension, key: string, label: string, f: Partial<Figures>) => cells.push({ day, dim, key, label, ...ZERO, ...f });
  const units = items.reduce((n, i) => n + i.qty, 0);
  const gramsOf = (i: (typeof items)[number]) => (i.uom === 'g' && i.size != null ? Math.round(i.qty * (SIZE_WEIGHTS_GRAMS[i.size] ?? 0) * 1000) : 0);
  const grams = items.reduce((n, i) => n + gramsOf(i), 0);
  const sales = o.subtotal_cents - o.discount_cents;
  const whole: Figures = { orders: 1, units, grams_mg: grams, sales_cents: sales, discount_cents: o.discount_cents, total_cents: o.total_cents };

  add('placed', '', '', { orders: 1 });
  if (o.status === 'cancelled' || o.status === 'no_show') {
    const reason = o.cancel_reason ?? (o.status === 'no_show' ? 'no_show' : 'other');
    add('cancel', `${o.status}:${reason}`, '', { orders: 1, sales_cents: sales, total_cents: o.total_cents });
    return { storeId: o.store_id, cells: merge(cells) };
  }

  add('total', '', '', whole);
  add('type', o.order_type, '', whole);
  add('licence', o.license_type, '', whole);
  add('hour', hour, '', whole);
  add('slot', o.slot_start ? localParts(o.slot_start, timeZone).hour + ':' + localParts(o.slot_start, timeZone).minute : 'asap', '', whole);
  if (o.order_type === 'delivery') add('zip', zipOf(o.shipping_address), '', whole);
  add('customer', await customerKind(db, o), '', whole);

  // Item dimensions: the line's product, its parent's categories and brand, its kind.
  const productIds = [...new Set(items.flatMap((i) => [i.product_id, i.parent_id]).filter((x): x is number => x != null))];
  const categories = productIds.length
    ? await db
        .selectFrom('product_categories as pc')
        .innerJoin('categories as c', (j) => j.onRef('c.id', '=', 'pc.category_id').onRef('c.store_id', '=', 'pc.store_id'))
        .select(['pc.product_id', 'c.id', 'c.name', 'c.level'])
        .where('pc.product_id', 'in', productIds)
        .where('pc.store_id', '=', o.store_id)
        .where('c.level', '>=', 2)
        .orderBy('c.level')
        .orderBy('pc.position')
        .execute()
    : [];
  const firstCategory = new Map<number, { id: number; name: string }>();
  for (const c of categories) if (!firstCategory.has(c.product_id)) firstCategory.set(c.product_id, { id: c.id, name: c.name });
  const brands = await brandNames(db, lookups);
  let parentBrands = new Map<number, { brand_id: number | null; canna_type: number | null }>();
  const parentIds = [...new Set(items.map((i) => i.parent_id).filter((x): x is number => x != null))];
  if (parentIds.length)
    parentBrands = new Map(
      (await db.selectFrom('products').select(['id', 'brand_id', 'canna_type']).where('id', 'in', parentIds).execute()).map((p) => [p.id, p]),
    );
  for (const i of items) {
    const line: Figures = {
      orders: 1,
      units: i.qty,
      grams_mg: gramsOf(i),
      sales_cents: i.row_total_cents - i.discount_cents,
      discount_cents: i.discount_cents,
      total_cents: 0,
    };
    const parent = i.parent_id != null ? parentBrands.get(i.parent_id) : undefined;
    const category = (i.parent_id != null ? firstCategory.get(i.parent_id) : undefined) ?? (i.product_id != null ? firstCategory.get(i.product_id) : undefined);
    add('category', category ? String(category.id) : 'none', category?.name ?? 'Uncategorised', line);
    const brandId = i.brand_id ?? parent?.brand_id ?? null;
    add('brand', brandId != null ? String(brandId) : 'none', brandId != null ? (brands.get(String(brandId)) ?? `Brand ${brandId}`) : 'No brand', line);
    add('product', i.parent_sku ?? i.sku, i.name, line);
    const kind = limitKindOf(i.canna_type ?? parent?.canna_type ?? null) ?? 'other';
    add('kind', kind, KIND_LABELS[kind], line);
    for (const d of orderLineDeals(i.deal_discounts)) add('deal', d.id, d.title, { orders: 1, discount_cents: d.discount_cents });
  }
  return { storeId: o.store_id, cells: merge(cells) };
}

function zipOf(address: string | null): string {
  try {
    const zip = (JSON.parse(address ?? '{}') as { zip?: unknown }).zip;
    return typeof zip === 'string' && zip.trim() ? zip.trim().slice(0, 5) : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** New: no earlier order at the store by the same customer (account, else phone); guest: neither. */
async function customerKind(db: Db, o: { id: number; store_id: number; customer_id: number | null; search_phone: string; created_at: string }): Promise<string> {
  let q = db.selectFrom('orders').select('id').where('store_id', '=', o.store_id).where('created_at', '<', o.created_at).where('id', '!=', o.id);
  if (o.customer_id != null) q = q.where('customer_id', '=', o.customer_id);
  else if (o.search_phone) q = q.where('search_phone', '=', o.search_phone);
  else return 'guest';
  return (await q.limit(1).executeTakeFirst()) ? 'returning' : 'new';
}

/** One cell per (day, dim, key): an order with two lines of one brand counts once in its orders. */
export function merge(cells: Cell[]): Cell[] {
  const out = new Map<string, Cell>();
  for (const c of cells) {
    const k = `${c.day}|${c.dim}|${c.key}`;
    const had = out.get(k);
    if (!had) {
      out.set(k, { ...c });
      continue;
    }
    for (const f of FIGURES) if (f !== 'orders') had[f] += c[f];
    had.orders = Math.max(had.orders, c.orders);
  }
  return [...out.values()];
}
