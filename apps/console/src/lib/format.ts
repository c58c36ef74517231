import { formatMoney } from '@verdant/domain';

export const money = (cents: number | null | undefined): string => formatMoney(cents ?? 0);

/** A moment in the store's own time zone: `Nov 25, 2026, 2:05 PM`. */
export function dateTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export function clock(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
}

/** `YYYY-MM-DD` of a moment in a time zone (the store's day). */
export function dayIn(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** `HH:MM` (24 h) of a moment in a time zone, for `<input type="time">`. */
export function timeIn(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('hour')}:${get('minute')}`;
}

/** Offset of a time zone from UTC at a moment, in minutes (e.g. -480 for Los Angeles in winter). */
function offsetMinutes(date: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60000);
}

/**
 * The ISO instant of a wall-clock `HH:MM` in the store's zone, on the store's today — or tomorrow
 * when that time has already passed today (a ready-by of 00:30 typed at 23:50 means after midnight).
 */
export function readyByInstant(hhmm: string, timeZone: string, now = new Date()): string {
  const [h, m] = hhmm.split(':').map(Number);
  const today = dayIn(now, timeZone);
  const build = (day: string) => {
    const [y, mo, d] = day.split('-').map(Number);
    const guess = new Date(Date.UTC(y, mo - 1, d, h, m));
    return new Date(guess.getTime() - offsetMinutes(guess, timeZone) * 60000);
  };
  let at = build(today);
  if (at.getTime() <= now.getTime()) at = build(dayIn(new Date(now.getTime() + 24 * 3600 * 1000), timeZone));
  return at.toISOString();
}

export function titleCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1).replace(/_/g, ' ');
}
