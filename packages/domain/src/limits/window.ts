import type { LimitWindow } from './model.ts';

/**
 * Limit windows in the store's IANA time zone, with Intl only (no date library): the start of a
 * calendar day is found as the first instant whose local date is that day, so a day of 23 or 25
 * hours (DST) and a zone whose clocks skip midnight are both right.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // Throws RangeError for an unknown zone: a store's zone is validated when the stores file loads.
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether Intl knows the zone (for validating a store's `timezone` when the stores file loads). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

/** The calendar date at instant `t` (ms) in the zone. */
export function localDate(t: number, timeZone: string): LocalDate {
  const out: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(t))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return { year: out.year, month: out.month, day: out.day };
}

const key = (d: LocalDate) => d.year * 10_000 + d.month * 100 + d.day;

/** The date `n` calendar days after `d` (n may be negative). */
export function addDays(d: LocalDate, n: number): LocalDate {
  const u = new Date(Date.UTC(d.year, d.month - 1, d.day + n));
  return { year: u.getUTCFullYear(), month: u.getUTCMonth() + 1, day: u.getUTCDate() };
}

/**
 * The first instant (ms) of a calendar date in the zone. Local dates never go backwards as time
 * goes on, so a binary search over the ±30 hours around the date's UTC midnight finds it (every
 * zone's offset is within ±14 h); to the millisecond, in ~38 steps.
 */
export function startOfLocalDate(d: LocalDate, timeZone: string): number {
  const target = key(d);
  const cacheKey = `${timeZone}|${target}`;
  const cached = dayStarts.get(cacheKey);
  if (cached !== undefined) return cached;
  const utcMidnight = Date.UTC(d.year, d.month - 1, d.day);
  let lo = utcMidnight - 30 * 3_600_000; // local date is before the target here
  let hi = utcMidnight + 30 * 3_600_000; // and on or after it here
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (key(localDate(mid, timeZone)) >= target) hi = mid;
    else lo = mid;
  }
  // A pure function of (zone, date): remembered, so a cart update costs one Map lookup per bucket
  // (the search alone is ~1 ms for three buckets). Bounded: cleared when it grows past 2000 days.
  if (dayStarts.size >= 2000) dayStarts.clear();
  dayStarts.set(cacheKey, hi);
  return hi;
}

const dayStarts = new Map<string, number>();

/**
 * The first instant counted by a window, or null for a transaction window (earlier orders never
 * count). An order placed at or after this instant is in the window.
 * - day: today's local midnight.
 * - rolling_days N: local midnight N−1 days before today (today and the N−1 days before it). Calendar
 *   days rather than N×24 h: rules are written in days, it reads the same to a shopper ("since
 *   Nov 12") and does not move by an hour across DST.
 * - month: local midnight on the 1st.
 */
export function windowStart(window: LimitWindow, now: Date, timeZone: string): Date | null {
  if (window.type === 'transaction') return null;
  const today = localDate(now.getTime(), timeZone);
  const first =
    window.type === 'day'
      ? today
      : window.type === 'month'
        ? { year: today.year, month: today.month, day: 1 }
        : addDays(today, -(window.days - 1));
  return new Date(startOfLocalDate(first, timeZone));
}
