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

/** `11/20/2026 09:05` */
export function formatDateTime(value: Date | string | number, timeZone = 'UTC'): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Invalid date: ${String(value)}`);
  const p = parts(date, timeZone);
  return `${Number(p.month)}/${Number(p.day)}/${p.year} ${p.hour}:${p.minute}`;
}

/** `11/20/2026` */
export function formatDate(value: Date | string | number, timeZone = 'UTC'): string {
  return formatDateTime(value, timeZone).split(' ')[0];
}
