/** Opening hours as a shopper reads them (en-US, 12-hour clock). */
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
