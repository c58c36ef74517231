/**
 * The named tax lines of orders (issue 14): written with the order, in its transaction, and summed
 * for the store's tax report. Only the lines charged on something are written (an exempt or
 * unrelated line is not stated on the receipt), in the store's order.
 */
import type { TaxLineTotal } from '@verdant/domain';
import type { OrderTaxLine, TaxReportLine } from '@verdant/domain/console-api';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { dayStartUtc, nextDay, type StoreFacts } from '../orders/lifecycle/store-facts.ts';

export async function recordOrderTaxLines(
  trx: Kysely<Database>,
  orderId: number,
  lines: readonly TaxLineTotal[] | undefined,
): Promise<void> {
  const rows = (lines ?? [])
    .map((l, position) => ({ l, position }))
    .filter(({ l }) => l.taxable > 0)
    .map(({ l, position }) => ({
      order_id: orderId,
      position,
      code: l.code,
      title: l.title,
      kind: l.kind,
      rate: l.rate,
      taxable_cents: l.taxable,
      amount_cents: l.amount,
    }));
  if (rows.length) await trx.insertInto('order_tax_lines').values(rows).execute();
}

export type { OrderTaxLine, TaxReportLine } from '@verdant/domain/console-api';

/** An order's stated tax lines, in receipt order. */
export async function orderTaxLines(db: Kysely<Database>, orderId: number): Promise<OrderTaxLine[]> {
  return db
    .selectFrom('order_tax_lines')
    .select(['code', 'title', 'kind', 'rate', 'taxable_cents', 'amount_cents'])
    .where('order_id', '=', orderId)
    .orderBy('position')
    .execute();
}

/**
 * The tax report per named line over store-local days `from`..`to`: the same orders as the daily
 * report (completed, by the day they were completed), one row per line code, title and rate (a
 * rate changed mid-range gives two rows, so each row's amount is its rate of its taxable amount).
 */
export async function taxLinesReport(db: Kysely<Database>, store: StoreFacts, from: string, to: string): Promise<TaxReportLine[]> {
  const rows = await db
    .selectFrom('order_tax_lines as t')
    .innerJoin('orders as o', 'o.id', 't.order_id')
    .select(['t.code', 't.title', 't.kind', 't.rate', 't.position', 't.order_id', 't.taxable_cents', 't.amount_cents'])
    .where('o.store_id', '=', store.id)
    .where('o.status', '=', 'completed')
    .where('o.status_changed_at', '>=', dayStartUtc(from, store.timezone))
    .where('o.status_changed_at', '<', dayStartUtc(nextDay(to), store.timezone))
    .orderBy('t.position')
    .orderBy('t.code')
    .execute();
  const out = new Map<string, TaxReportLine & { ids: Set<number> }>();
  for (const r of rows) {
    const key = `${r.code}|${r.title}|${r.rate}`;
    const line = out.get(key) ?? {
      code: r.code,
      title: r.title,
      kind: r.kind,
      rate: r.rate,
      taxable_cents: 0,
      amount_cents: 0,
      orders: 0,
      ids: new Set<number>(),
    };
    line.taxable_cents += r.taxable_cents;
    line.amount_cents += r.amount_cents;
    line.ids.add(r.order_id);
    line.orders = line.ids.size;
    out.set(key, line);
  }
  return [...out.values()].map(({ ids: _ids, ...l }) => l);
}
