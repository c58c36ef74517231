/**
 * A year of a busy store, generated in PostgreSQL in seconds (issue 31 bench: "a year of a busy
 * store, e.g. 300,000 orders"), for the bench and for trying the dashboard at size
 * (`npm run analytics -- seed-history`). PostgreSQL only: it leans on generate_series.
 *
 * Orders: `orders` rows spread evenly over the days (no items: nothing here reads them), one in
 * twenty cancelled, one in four delivery. Rollups: the `total`, `placed`, `type`, `hour` and
 * `cancel` cells are summed from those orders, by the store's local day, as the consumer would;
 * the item and customer dimensions (category, brand, product, kind, ZIP, deal, slot, licence,
 * customer) get cells in the shape a busy store's would have — 300 products, 30 brands, 40 ZIP
 * codes… a day — with the day's orders shared among them. What the bench measures is reading
 * that many rows, so their count and shape are what must be real.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { monthsFromDays } from './rollup.ts';

export interface HistoryOptions {
  storeId: number;
  timeZone: string;
  orders: number;
  days: number;
  /** The last day (store-local, YYYY-MM-DD). */
  endDay: string;
}

/** Returns how many orders and rollup rows it wrote. */
export async function seedHistory(db: Kysely<Database>, o: HistoryOptions): Promise<{ orders: number; rollupRows: number }> {
  const salt = Math.random().toString(36).slice(2, 8);
  const tz = o.timeZone;
  const end = `${o.endDay}T23:59:00`;
  const span = o.days * 86_400 - 120;
  await sql`
    insert into orders (increment_id, store_id, customer_id, idempotency_key, status, order_type, license_type, subtotal_cents, discount_cents, total_cents,
                        personal_details, verification_needs, status_changed_at, created_at, updated_at)
    select 'H' || ${salt} || '-' || g, ${o.storeId}, null, 'history-' || ${salt} || '-' || g,
           case when g % 20 = 0 then 'cancelled' else 'completed' end,
           case when g % 4 = 0 then 'delivery' else 'pickup' end,
           'recreational', 3000 + (g % 70) * 100, (g % 7) * 100, 3500 + (g % 70) * 118, '{}', '[]', t.ts, t.ts, t.ts
    from generate_series(1, ${o.orders}::int) g,
         lateral (select to_char(((${end}::timestamp at time zone ${tz}) - make_interval(secs => ((${o.orders}::bigint - g) * ${span}::bigint / ${o.orders}::bigint)::double precision)) at time zone 'UTC',
                                 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ts) t
  `.execute(db);
  const local = sql`to_char((created_at::timestamptz) at time zone ${tz}, 'YYYY-MM-DD')`;
  const hour = sql`to_char((created_at::timestamptz) at time zone ${tz}, 'HH24')`;
  const firstDay = sql`(${o.endDay}::date - ${o.days - 1}::int)`;
  const fromOrders = (dim: string, key: ReturnType<typeof sql>, where: ReturnType<typeof sql>) => sql`
    insert into analytics_daily (store_id, day, dim, key, label, orders, units, grams_mg, sales_cents, discount_cents, total_cents)
    select ${o.storeId}, ${local}, ${dim}, ${key}, '', count(*), count(*) * 2, count(*) * 3500, sum(subtotal_cents - discount_cents), sum(discount_cents), sum(total_cents)
    from orders where store_id = ${o.storeId} and idempotency_key like ${`history-${salt}-%`} and ${where}
    group by 2, 4
    on conflict (store_id, dim, day, key) do update set orders = analytics_daily.orders + excluded.orders, units = analytics_daily.units + excluded.units,
      grams_mg = analytics_daily.grams_mg + excluded.grams_mg, sales_cents = analytics_daily.sales_cents + excluded.sales_cents,
      discount_cents = analytics_daily.discount_cents + excluded.discount_cents, total_cents = analytics_daily.total_cents + excluded.total_cents`;
  await fromOrders('placed', sql`''`, sql`true`).execute(db);
  await fromOrders('total', sql`''`, sql`status <> 'cancelled'`).execute(db);
  await fromOrders('type', sql`order_type`, sql`status <> 'cancelled'`).execute(db);
  await fromOrders('hour', hour, sql`status <> 'cancelled'`).execute(db);
  await fromOrders('cancel', sql`'cancelled:' || (array['sold_out','customer_request','no_id','other'])[1 + (id % 4)]`, sql`status = 'cancelled'`).execute(db);

  // The item and customer dimensions: n keys a day, each a share of the day's orders (a long tail).
  const perDay = Math.max(1, Math.round(o.orders / o.days));
  const shaped: [string, number, string][] = [
    ['product', 300, 'Product'],
    ['brand', 30, 'Brand'],
    ['category', 8, 'Category'],
    ['kind', 5, 'Kind'],
    ['zip', 40, ''],
    ['deal', 10, 'Deal'],
    ['slot', 12, ''],
    ['licence', 2, ''],
    ['customer', 3, ''],
  ];
  for (const [dim, keys, label] of shaped)
    await sql`
      insert into analytics_daily (store_id, day, dim, key, label, orders, units, grams_mg, sales_cents, discount_cents, total_cents)
      select ${o.storeId}, to_char(d, 'YYYY-MM-DD'), ${dim},
             case when ${dim} = 'zip' then (95800 + k)::text when ${dim} = 'slot' then lpad((9 + k)::text, 2, '0') || ':00'
                  when ${dim} = 'licence' then (array['recreational','medical'])[k] when ${dim} = 'customer' then (array['new','returning','guest'])[k] else k::text end,
             case when ${label} = '' then '' else ${label} || ' ' || k end,
             x.n, x.n * 2, x.n * 1750, x.n * 4200, x.n * 150, x.n * 4900
      from generate_series(${firstDay}, ${o.endDay}::date, interval '1 day') d
      cross join generate_series(1, ${keys}::int) k
      cross join lateral (select greatest(1, round(${perDay}::double precision * 2 / (${keys}::double precision * (1 + k % 7)) ))::int as n) x
      on conflict (store_id, dim, day, key) do update set orders = analytics_daily.orders + excluded.orders, units = analytics_daily.units + excluded.units,
        grams_mg = analytics_daily.grams_mg + excluded.grams_mg, sales_cents = analytics_daily.sales_cents + excluded.sales_cents,
        discount_cents = analytics_daily.discount_cents + excluded.discount_cents, total_cents = analytics_daily.total_cents + excluded.total_cents
    `.execute(db);
  await sql`
    insert into analytics_funnel (store_id, day, step, count)
    select ${o.storeId}, to_char(d, 'YYYY-MM-DD'), s.step, (${perDay} * s.mult)::bigint
    from generate_series(${firstDay}, ${o.endDay}::date, interval '1 day') d
    cross join (values ('visit', 9), ('product_view', 14), ('add_to_cart', 3), ('checkout_started', 2)) s(step, mult)
    on conflict (store_id, day, step) do update set count = analytics_funnel.count + excluded.count
  `.execute(db);
  await monthsFromDays(db, o.storeId);
  const rows = await db.selectFrom('analytics_daily').select((eb) => eb.fn.countAll<string>().as('n')).where('store_id', '=', o.storeId).executeTakeFirstOrThrow();
  await sql`analyze analytics_daily`.execute(db);
  await sql`analyze analytics_monthly`.execute(db);
  await sql`analyze orders`.execute(db);
  return { orders: o.orders, rollupRows: Number(rows.n) };
}
