/**
 * Dates are shown as M/D/YYYY HH:mm (spec §1), in the store's own time zone so that a shopper and
 * the dispensary read the same wall-clock time. Storage is always ISO-8601 UTC.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function parts(date: Date, timeZone: string): Record<string, string> {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, fmt);
  }
  const out: Record<string, string> = {};
  for (const p of fmt.formatToParts(date)) out[p.type] = p.value;
  return out;
}

/**
 * Texts of formatDateTime by zone and minute. `formatToParts` costs microseconds a call, and a
 * store's slot list formats the same instants again for every order placed (issue 15's 4/20 run:
 * ~1 % of a node's CPU). Only instants since 1980: every zone's offset has been whole minutes since,
 * so the instants of one UTC minute read the same (older local mean times had seconds). Bounded:
 * emptied when full.
 */
const dateTimeTexts = new Map<string, string>();
const DATE_TIME_TEXTS_MAX = 20_000;
const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(1980, 0, 1);

/** `11/20/2026 09:05` */
export function formatDateTime(value: Date | string | number, timeZone = 'UTC'): string {
  const date = value instanceof Date ? value : new Date(value);
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw new RangeError(`Invalid date: ${String(value)}`);
  const key = ms >= WHOLE_MINUTE_OFFSETS_SINCE ? `${timeZone}|${Math.floor(ms / 60_000)}` : null;
  const known = key === null ? undefined : dateTimeTexts.get(key);
  if (known !== undefined) return known;
  const p = parts(date, timeZone);
  const text = `${Number(p.month)}/${Number(p.day)}/${p.year} ${p.hour}:${p.minute}`;
  if (key !== null) {
    if (dateTimeTexts.size >= DATE_TIME_TEXTS_MAX) dateTimeTexts.clear();
    dateTimeTexts.set(key, text);
  }
  return text;
}

/** `11/20/2026` */
export function formatDate(value: Date | string | number, timeZone = 'UTC'): string {
  return formatDateTime(value, timeZone).split(' ')[0];
}

/**
 * `2026-11-20 09:05`: the store's wall clock for files a spreadsheet sorts (CSV exports; their header
 * names the zone). Screens use formatDateTime.
 */
export function formatSortableDateTime(value: Date | string | number, timeZone = 'UTC'): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Invalid date: ${String(value)}`);
  const p = parts(date, timeZone);
  return `${p.year}-${p.month.padStart(2, '0')}-${p.day.padStart(2, '0')} ${p.hour}:${p.minute}`;
}
