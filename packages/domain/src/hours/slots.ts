/**
 * Ordering hours and time slots of a store (issue 14 "Hours and time slots"), the same code in the
 * browser and on the server. A store has weekly hours per order type (pickup, delivery), dated
 * exceptions (holidays: closed, or other hours), all in the store's time zone, and per order type a
 * slot length (15/30/60 min), a preparation lead time, how many days ahead a shopper may book and a
 * capacity per slot (null: unlimited).
 *
 * Times are computed as real instants: a slot is `length` real minutes long starting at a local
 * wall-clock time converted to UTC with the zone's offset of that day, so DST days have one hour
 * more or fewer of slots and every slot's start is the right instant.
 */
import type { HoursSettings } from './schema.ts';
import { WEEKDAY_NAMES, type HoursOrderType } from './names.ts';
import { formatDate, formatDateTime } from '../dates.ts';
import { formatClockShort, type HoursEntry } from '../store-hours.ts';

export { HOURS_ORDER_TYPES, WEEKDAY_NAMES, type HoursOrderType } from './names.ts';
export const SLOT_LENGTHS = [15, 30, 60] as const;

export type { HoursException, HoursSettings, SlotRules } from './schema.ts';

/* ---------------------------------------------------------------- time zone arithmetic */

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
function zoneParts(at: Date, timeZone: string) {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    partsFormatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(at)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute, second: p.second };
}

/** Milliseconds the zone is ahead of UTC at an instant. */
function offsetMs(at: Date, timeZone: string): number {
  const p = zoneParts(at, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - (at.getTime() - at.getUTCMilliseconds());
}

/** The local calendar date (YYYY-MM-DD) of an instant in a zone. */
function localDate(at: Date, timeZone: string): string {
  const p = zoneParts(at, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** A calendar date plus days (pure date arithmetic, no zone). */
function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

function weekdayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/**
 * The instant of a local wall-clock time (minutes after midnight, may exceed 24 h for the next day)
 * on a date in a zone. A time inside the spring-forward gap lands just after it (02:30 → 03:30).
 */
export function zonedInstant(date: string, minutes: number, timeZone: string): Date {
  // Memoised (issue 15, SSR profile): every page's open-now line walks 16 days of hours, two
  // instants a day, three Intl formatToParts calls each — ~100 per render and the top self time of
  // an uncached render. The answer is a pure function of its three inputs, so it is kept as a number
  // (each caller gets a Date of its own); the map is emptied past a bound no storefront reaches.
  const key = `${timeZone}|${date}|${minutes}`;
  const known = zonedInstants.get(key);
  if (known !== undefined) return new Date(known);
  const instant = computeZonedInstant(date, minutes, timeZone);
  if (zonedInstants.size >= 10_000) zonedInstants.clear();
  zonedInstants.set(key, instant.getTime());
  return instant;
}

const zonedInstants = new Map<string, number>();

function computeZonedInstant(date: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d, 0, minutes);
  const first = wall - offsetMs(new Date(wall), timeZone);
  const second = wall - offsetMs(new Date(first), timeZone);
  const third = wall - offsetMs(new Date(second), timeZone);
  // Stable: the instant. Not stable: the wall time is in the spring-forward gap; take the later reading.
  return new Date(third === second ? second : Math.max(second, third));
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/* ---------------------------------------------------------------- opening intervals */

export interface OpenInterval {
  start: Date;
  end: Date;
  /** The local date the hours belong to (an overnight span ends the next day). */
  date: string;
  /** The local HH:mm of opening and closing, as the store wrote them. */
  open: string;
  close: string;
  /** The exception's label when the day's hours come from an exception. */
  exception?: string;
}

/** The hours of one local date for an order type: null when closed that day. */
export function hoursOn(
  settings: HoursSettings,
  type: HoursOrderType,
  date: string,
): { open: string; close: string; exception?: string } | null {
  const exception = settings.exceptions.find((e) => e.date === date && e.order_types.includes(type));
  if (exception)
    return exception.closed ? null : { open: exception.open!, close: exception.close!, exception: exception.label || undefined };
  const w = settings[type].weekly.find((e) => e.day === WEEKDAY_NAMES[weekdayOf(date)]);
  return w ? { open: w.open, close: w.close } : null;
}

/** Opening intervals whose hours belong to the local dates `from` … `from + days - 1`. */
export function openIntervals(settings: HoursSettings, type: HoursOrderType, timeZone: string, from: string, days: number): OpenInterval[] {
  const out: OpenInterval[] = [];
  for (let i = 0; i < days; i++) {
    const date = addDays(from, i);
    const h = hoursOn(settings, type, date);
    if (!h) continue;
    const open = toMinutes(h.open);
    let close = toMinutes(h.close);
    if (close <= open) close += 24 * 60;
    out.push({
      start: zonedInstant(date, open, timeZone),
      end: zonedInstant(date, close, timeZone),
      date,
      open: h.open,
      close: h.close,
      ...(h.exception ? { exception: h.exception } : {}),
    });
  }
  return out;
}

/* ---------------------------------------------------------------- labels */

/** `6/15/2026 13:00 – 13:30`: the one date format of spec §1 (M/D/YYYY HH:mm, store zone), then the end's time. */
export function slotLabel(start: Date | string, end: Date | string, timeZone: string): string {
  return `${formatDateTime(start, timeZone)} – ${formatDateTime(end, timeZone).split(' ')[1]}`;
}

export interface HoursStatus {
  open: boolean;
  /** `Open now · closes 9 PM`, `Closed · opens 9 AM`, `Closed · opens tomorrow 9 AM`, `Closed · opens Friday 10 AM`, `Closed · opens 12/24/2026 10 AM`, `Closed` (same words as ../store-hours.ts). */
  label: string;
  /** When closed: the next opening, as an instant. */
  opensAt: string | null;
}

/** Open now, or when it next opens (up to two weeks ahead), for an order type, exceptions included. */
export function hoursStatus(settings: HoursSettings, type: HoursOrderType, timeZone: string, now: Date): HoursStatus {
  const today = localDate(now, timeZone);
  const intervals = openIntervals(settings, type, timeZone, addDays(today, -1), 16);
  const current = intervals.find((i) => i.start <= now && now < i.end);
  if (current) return { open: true, label: `Open now · closes ${formatClockShort(current.close)}`, opensAt: null };
  const next = intervals.find((i) => i.start > now);
  if (!next) return { open: false, label: 'Closed', opensAt: null };
  const day = next.date;
  const when =
    day === today
      ? ''
      : day === addDays(today, 1)
        ? 'tomorrow '
        : day < addDays(today, 7)
          ? `${WEEKDAY_NAMES[weekdayOf(day)]} `
          : `${formatDate(next.start, timeZone)} `;
  return { open: false, label: `Closed · opens ${when}${formatClockShort(next.open)}`, opensAt: next.start.toISOString() };
}

/* ---------------------------------------------------------------- slots */

export interface Slot {
  /** ISO instants (UTC). */
  start: string;
  end: string;
  label: string;
  /** Places left; null when the slot has no capacity limit. */
  remaining: number | null;
}

/**
 * The bookable slots of an order type from `now`: every `length` minutes from the opening of each
 * day's hours, that fit before closing, start at least `lead` minutes from now, on today and the
 * next `days_ahead` local dates, and are not full (`taken`: orders per slot start ISO).
 */
export function availableSlots(
  settings: HoursSettings,
  type: HoursOrderType,
  timeZone: string,
  now: Date,
  taken: ReadonlyMap<string, number> = new Map(),
): Slot[] {
  const rules = settings[type].slots;
  const lengthMs = rules.length_minutes * 60_000;
  const earliest = now.getTime() + rules.lead_minutes * 60_000;
  const today = localDate(now, timeZone);
  const out: Slot[] = [];
  // Yesterday's overnight hours may still run today.
  for (const interval of openIntervals(settings, type, timeZone, addDays(today, -1), rules.days_ahead + 2)) {
    if (interval.date > addDays(today, rules.days_ahead)) continue;
    for (let t = interval.start.getTime(); t + lengthMs <= interval.end.getTime(); t += lengthMs) {
      if (t < earliest) continue;
      const start = new Date(t);
      const end = new Date(t + lengthMs);
      const iso = start.toISOString();
      const remaining = rules.capacity == null ? null : rules.capacity - (taken.get(iso) ?? 0);
      if (remaining != null && remaining <= 0) continue;
      out.push({ start: iso, end: end.toISOString(), label: slotLabel(start, end, timeZone), remaining });
    }
  }
  return out;
}

export const SLOT_MESSAGES = {
  slotUnavailable: 'The chosen time slot is no longer available. Please choose another time.',
  slotFull: 'The chosen time slot is full. Please choose another time.',
  closedRefused: (status: string) => `We are not taking orders right now (${status}). Please come back when we are open.`,
  noSlots: 'There is no time slot available in the coming days. Please call the store.',
} as const;

/**
 * Which slot a chosen start names, if it is bookable at `now` (capacity not counted: the server
 * counts it in the order's transaction). Null when the start is not one of the store's slots.
 */
export function slotAt(settings: HoursSettings, type: HoursOrderType, timeZone: string, now: Date, start: string): Slot | null {
  const wanted = new Date(start);
  if (Number.isNaN(wanted.getTime())) return null;
  return availableSlots(settings, type, timeZone, now).find((s) => s.start === wanted.toISOString()) ?? null;
}

/** Today's behaviour as settings: the store's opening hours for both order types, no exceptions, orders outside hours taken for the next slot. */
export function hoursFromOpeningHours(weekly: readonly { day: string; open: string; close: string }[]): HoursSettings {
  const w = weekly.filter((e): e is HoursSettings['pickup']['weekly'][number] => (WEEKDAY_NAMES as readonly string[]).includes(e.day));
  return {
    pickup: { weekly: w.map((e) => ({ ...e })), slots: { length_minutes: 30, lead_minutes: 15, days_ahead: 2, capacity: null } },
    delivery: { weekly: w.map((e) => ({ ...e })), slots: { length_minutes: 60, lead_minutes: 45, days_ahead: 2, capacity: null } },
    exceptions: [],
    outside_hours: 'next_slot',
  };
}

const MONDAY_FIRST = [...WEEKDAY_NAMES.slice(1), WEEKDAY_NAMES[0]];

/** The weekly hours of an order type as a week table shows them, Monday first (the console saves Sunday first). */
export function weekTable(hours: HoursSettings, type: HoursOrderType): HoursEntry[] {
  return MONDAY_FIRST.flatMap((day) => hours[type].weekly.filter((w) => w.day === day)).map(({ day, open, close }) => ({
    day,
    open,
    close,
  }));
}
