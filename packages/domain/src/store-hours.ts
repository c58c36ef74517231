/**
 * Opening hours as a shopper reads them (en-US, 12-hour clock), one format everywhere (footer,
 * contact page, store locator, the CMS text the demo writes), and whether the store is open now
 * in its own time zone ("Open now · closes 9 PM" / "Closed · opens 9 AM").
 */
export interface HoursEntry {
  day: string;
  open: string;
  close: string;
}

/** `09:00` → `9:00 AM`, `21:30` → `9:30 PM`, `00:00` → `12:00 AM`. Unparseable input is returned as is. */
export function formatClock(hhmm: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm);
  if (!m) return hhmm;
  const h = Number(m[1]);
  if (h > 24) return hhmm;
  const suffix = h % 24 < 12 ? 'AM' : 'PM';
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}:${m[2]} ${suffix}`;
}

/** `9:00 AM – 9:00 PM` */
export function formatHoursRange(open: string, close: string): string {
  return `${formatClock(open)} – ${formatClock(close)}`;
}

export interface HoursGroup {
  /** `Monday` or `Monday – Saturday` */
  days: string;
  /** `Mon` or `Mon – Sat` */
  shortDays: string;
  hours: string;
}

/** Consecutive days with the same hours collapse into one line (as on a shop door). */
export function groupHours(entries: readonly HoursEntry[]): HoursGroup[] {
  const groups: { first: string; last: string; hours: string }[] = [];
  for (const e of entries) {
    const hours = formatHoursRange(e.open, e.close);
    const prev = groups.at(-1);
    if (prev && prev.hours === hours) prev.last = e.day;
    else groups.push({ first: e.day, last: e.day, hours });
  }
  return groups.map((g) => ({
    days: g.first === g.last ? g.first : `${g.first} – ${g.last}`,
    shortDays: g.first === g.last ? g.first.slice(0, 3) : `${g.first.slice(0, 3)} – ${g.last.slice(0, 3)}`,
    hours: g.hours,
  }));
}

/** `09:00` → `9 AM`, `21:30` → `9:30 PM`: the short form of a status line. */
export function formatClockShort(hhmm: string): string {
  return formatClock(hhmm).replace(':00 ', ' ');
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const weekdayFormatters = new Map<string, Intl.DateTimeFormat>();

/** The weekday (0 = Sunday) and minutes since midnight of an instant, in a time zone. */
function localClock(now: Date, timeZone: string): { weekday: number; minutes: number } {
  let fmt = weekdayFormatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    weekdayFormatters.set(timeZone, fmt);
  }
  const parts: Record<string, string> = {};
  for (const p of fmt.formatToParts(now)) parts[p.type] = p.value;
  return { weekday: WEEKDAYS.indexOf(parts.weekday as (typeof WEEKDAYS)[number]), minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

const toMinutes = (hhmm: string) => {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
};

export interface OpenStatus {
  open: boolean;
  /** `Open now · closes 9 PM`, `Closed · opens 9 AM`, `Closed · opens Tuesday 9 AM`, `Closed`. */
  label: string;
}

/**
 * Open or closed at `now` in the store's time zone. A closing time at or before the opening time
 * runs past midnight (`18:00`–`02:00`), so the day before may still be open in the small hours.
 * A day the list does not name is a closed day.
 */
export function openStatus(entries: readonly HoursEntry[], timeZone: string, now: Date): OpenStatus {
  const { weekday, minutes } = localClock(now, timeZone);
  const byDay = new Map(entries.map((e) => [e.day, e]));
  const span = (day: number) => {
    const e = byDay.get(WEEKDAYS[(day + 7) % 7]);
    if (!e) return null;
    const open = toMinutes(e.open);
    let close = toMinutes(e.close);
    if (Number.isNaN(open) || Number.isNaN(close)) return null;
    if (close <= open) close += 24 * 60;
    return { open, close, entry: e };
  };
  const yesterday = span(weekday - 1);
  if (yesterday && minutes + 24 * 60 < yesterday.close) return { open: true, label: `Open now · closes ${formatClockShort(yesterday.entry.close)}` };
  const today = span(weekday);
  if (today && minutes >= today.open && minutes < today.close) return { open: true, label: `Open now · closes ${formatClockShort(today.entry.close)}` };
  if (today && minutes < today.open) return { open: false, label: `Closed · opens ${formatClockShort(today.entry.open)}` };
  for (let ahead = 1; ahead <= 7; ahead++) {
    const next = span(weekday + ahead);
    if (next) {
      const when = ahead === 1 ? 'tomorrow' : WEEKDAYS[(weekday + ahead) % 7];
      return { open: false, label: `Closed · opens ${when} ${formatClockShort(next.entry.open)}` };
    }
  }
  return { open: false, label: 'Closed' };
}
