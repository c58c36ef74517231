/**
 * What runs when (issue 28 "a calendar of what runs when"): for each day of a range in the store's
 * time zone, the deals (active or paused; ended ones run no more) whose schedule lets them run that
 * day — the day overlaps startsAt … endsAt, the weekday is among `days`, and the hours window (a
 * window past midnight belongs to the day it starts on, as the engine judges it). The engine is the
 * one that decides at the counter; this reads the same schedule fields.
 *
 * Also the per-deal, per-day report of redemptions and discount (store zone), which reads the
 * redemption rows the orders wrote (redemptions.ts): a cancelled order's rows are given back
 * (released_at set) and not counted, so the report matches what the orders kept.
 */
import { addDays, localDate, startOfLocalDate, type LocalDate } from '@verdant/domain';
import type { DealCalendar, DealCalendarDay, DealReport, DealReportRow } from '@verdant/domain/console-api';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { csvNumber, toCsv } from '../http/csv.ts';
import type { StoredDeal } from './repository.ts';

type Db = Kysely<Database>;

export function parseLocalDate(date: string): LocalDate {
  const [year, month, day] = date.split('-').map(Number);
  return { year, month, day };
}

export function localDateText(d: LocalDate): string {
  return `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

/** The calendar of `deals` from `from` to `to` (inclusive, YYYY-MM-DD) in `timeZone`. */
export function dealCalendar(deals: readonly StoredDeal[], from: string, to: string, timeZone: string): DealCalendar {
  const days: DealCalendarDay[] = [];
  const running = deals.filter((d) => d.status !== 'ended').sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
  for (let day = parseLocalDate(from); localDateText(day) <= to; day = addDays(day, 1)) {
    const start = startOfLocalDate(day, timeZone);
    const end = startOfLocalDate(addDays(day, 1), timeZone);
    const weekday = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
    const entries = running.flatMap((d) => {
      const s = d.record.schedule;
      if (s.startsAt && Date.parse(s.startsAt) >= end) return [];
      if (s.endsAt && Date.parse(s.endsAt) <= start) return [];
      if (s.days && !s.days.includes(weekday)) return [];
      return [{ id: d.id, code: d.code, title: d.title, status: d.status as 'active' | 'paused', hours: s.hours ? { from: s.hours.from, to: s.hours.to } : null }];
    });
    days.push({ date: localDateText(day), weekday, deals: entries });
  }
  return { time_zone: timeZone, days };
}

/** Redemptions and discount per deal per day (store zone) from `from` to `to` inclusive. */
export async function dealReport(db: Db, storeId: number, from: string, to: string, timeZone: string): Promise<DealReport> {
  const startIso = new Date(startOfLocalDate(parseLocalDate(from), timeZone)).toISOString();
  const endIso = new Date(startOfLocalDate(addDays(parseLocalDate(to), 1), timeZone)).toISOString();
  const rows = await db
    .selectFrom('deal_redemptions as r')
    .innerJoin('deals as d', 'd.id', 'r.deal_id')
    .select(['r.deal_id', 'r.discount_cents', 'r.created_at', 'd.code', 'd.title'])
    .where('r.store_id', '=', storeId)
    .where('r.released_at', 'is', null)
    .where('r.created_at', '>=', startIso)
    .where('r.created_at', '<', endIso)
    .execute();
  const byKey = new Map<string, DealReportRow>();
  for (const r of rows) {
    const date = localDateText(localDate(Date.parse(r.created_at), timeZone));
    const key = `${date}|${r.deal_id}`;
    const row = byKey.get(key) ?? { date, deal_id: r.deal_id, code: r.code, title: r.title, redemptions: 0, discount_cents: 0 };
    row.redemptions += 1;
    row.discount_cents += Number(r.discount_cents);
    byKey.set(key, row);
  }
  const out = [...byKey.values()].sort((a, b) => a.date.localeCompare(b.date) || a.title.localeCompare(b.title) || a.deal_id - b.deal_id);
  return {
    time_zone: timeZone,
    rows: out,
    totals: { redemptions: out.reduce((s, r) => s + r.redemptions, 0), discount_cents: out.reduce((s, r) => s + r.discount_cents, 0) },
  };
}

/** The report as CSV: one row per deal and day, dollars with two decimals; a total row last. */
export function dealReportCsv(report: DealReport): string {
  const dollars = (cents: number) => csvNumber((cents / 100).toFixed(2));
  return toCsv([
    ['date', 'deal_id', 'deal', 'title', 'redemptions', 'discount'],
    ...report.rows.map((r: DealReportRow) => [r.date, r.deal_id, r.code, r.title, r.redemptions, dollars(r.discount_cents)]),
    ['total', '', '', '', report.totals.redemptions, dollars(report.totals.discount_cents)],
  ]);
}
