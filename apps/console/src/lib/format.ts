import { formatMoney } from '@verdant/domain';

export const money = (cents: number | null | undefined): string => formatMoney(cents ?? 0);

/*
 * Dates and times in the console (issue 26: four formats and the raw zone name showed). One style
 * everywhere, always in the store's own time zone, and the zone named in words:
 *   date        Nov 25, 2026          (weekday: Wed, Nov 25, 2026)
 *   dateTime    Nov 25, 2026, 2:05 PM
 *   time        2:05 PM
 *   slotRange   Nov 25, 2026, 2:00 – 2:30 PM   (over midnight: …, 11:30 PM – Nov 26, 2026, 12:30 AM)
 *   zoneLabel   Pacific time           (America/Los_Angeles)
 * A missing value shows as an em dash. A calendar day (`YYYY-MM-DD`, e.g. a report's row) is that
 * day, never shifted by a zone; an instant (ISO string, Date, epoch ms) is read in the store's zone.
 */
type Instant = string | number | Date;
type Maybe<T> = T | null | undefined;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat('en-US', { timeZone, ...options })));
  return f;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The instant to format and the zone to read it in: a calendar day is its own noon in UTC. */
function resolve(value: Instant, timeZone: string): { at: Date; zone: string } | null {
  if (typeof value === 'string' && DAY.test(value)) return { at: new Date(`${value}T12:00:00Z`), zone: 'UTC' };
  const at = value instanceof Date ? value : new Date(value);
  return Number.isNaN(at.getTime()) ? null : { at, zone: timeZone };
}

/** `Nov 25, 2026` (with `{ weekday: true }`: `Wed, Nov 25, 2026`) in the store's zone; a `YYYY-MM-DD` day as is. */
export function date(value: Maybe<Instant>, timeZone: string, options: { weekday?: boolean } = {}): string {
  const r = value == null || value === '' ? null : resolve(value, timeZone);
  if (!r) return '—';
  return formatter(r.zone, { year: 'numeric', month: 'short', day: 'numeric', ...(options.weekday ? { weekday: 'short' } : {}) }).format(r.at);
}

/** A moment in the store's own time zone: `Nov 25, 2026, 2:05 PM`. */
export function dateTime(value: Maybe<Instant>, timeZone: string): string {
  const r = value == null || value === '' ? null : resolve(value, timeZone);
  if (!r) return '—';
  return formatter(r.zone, { dateStyle: 'medium', timeStyle: 'short' }).format(r.at);
}

/** The time of day of a moment in the store's zone: `2:05 PM`. */
export function time(value: Maybe<Instant>, timeZone: string): string {
  const r = value == null || value === '' ? null : resolve(value, timeZone);
  if (!r) return '—';
  return formatter(r.zone, { hour: 'numeric', minute: '2-digit' }).format(r.at);
}

/** Older name of `time`. */
export const clock = time;

/** A booked time slot in the store's zone: `Nov 25, 2026, 2:00 – 2:30 PM` (the date once when both ends share it). */
export function slotRange(start: Maybe<Instant>, end: Maybe<Instant>, timeZone: string): string {
  const a = start == null || start === '' ? null : resolve(start, timeZone);
  const b = end == null || end === '' ? null : resolve(end, timeZone);
  if (!a) return '—';
  if (!b) return dateTime(start, timeZone);
  return formatter(timeZone, { dateStyle: 'medium', timeStyle: 'short' }).formatRange(a.at, b.at);
}

/** A range of calendar days (a report's dates): `Nov 19 – 25, 2026`, `Nov 25, 2026` for one day. */
export function dayRange(from: string, to: string): string {
  const a = resolve(from, 'UTC');
  const b = resolve(to, 'UTC');
  if (!a || !b) return `${date(from, 'UTC')} – ${date(to, 'UTC')}`;
  return formatter('UTC', { year: 'numeric', month: 'short', day: 'numeric' }).formatRange(a.at, b.at);
}

/**
 * The store's zone in words: `Pacific time` for America/Los_Angeles, `Mountain standard time` for
 * America/Phoenix, `UTC`; a zone without a common name as its city and offset: `Kolkata time (GMT+05:30)`.
 */
export function zoneLabel(timeZone: string, at: Date = new Date()): string {
  if (/^(Etc\/)?(UTC|GMT|Universal|Zulu)$/i.test(timeZone)) return 'UTC';
  let name: string | undefined;
  try {
    name = formatter(timeZone, { timeZoneName: 'longGeneric' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
  } catch {
    return timeZone;
  }
  const city = (timeZone.split('/').at(-1) ?? timeZone).replace(/_/g, ' ');
  if (!name || /^GMT/.test(name)) return name ? `${city} time (${name})` : timeZone;
  return name.replace(/ Standard Time$/, ' standard time').replace(/ Time$/, ' time');
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
