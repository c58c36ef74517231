/**
 * Issue 14 "open now / opens at everywhere the store's hours are shown": the status line from the
 * store's hours settings, holidays included, and — for a store without settings of its own — the
 * same line as the opening hours gave before (store-hours.ts openStatus), at every quarter hour of
 * a week.
 */
import { describe, expect, it } from 'vitest';
import { openStatus } from '../store-hours.ts';
import { hoursFromOpeningHours, hoursStatus, type HoursSettings } from './slots.ts';

const LA = 'America/Los_Angeles';
const OPENING = [
  ...['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map((day) => ({ day, open: '09:00', close: '21:00' })),
  { day: 'Sunday', open: '10:00', close: '18:00' },
];

describe('hoursStatus with a holiday', () => {
  const withHolidays = (): HoursSettings => ({
    ...hoursFromOpeningHours(OPENING),
    exceptions: [
      { date: '2026-12-24', label: 'Christmas Eve', order_types: ['pickup', 'delivery'], closed: false, open: '09:00', close: '14:00' },
      { date: '2026-12-25', label: 'Christmas', order_types: ['pickup', 'delivery'], closed: true },
      { date: '2026-12-26', label: 'Inventory', order_types: ['pickup'], closed: true },
    ],
  });

  it('says closed on a holiday at an hour the week has the store open, and when it opens next', () => {
    const s = withHolidays();
    // Friday 12/25/2026 12:00 PST: a Friday is 9–21, the holiday closes it; Saturday is closed for pickup too.
    const noon = new Date('2026-12-25T20:00:00Z');
    expect(hoursStatus(s, 'pickup', LA, noon)).toEqual({
      open: false,
      label: 'Closed · opens Sunday 10 AM',
      opensAt: '2026-12-27T18:00:00.000Z',
    });
    // Delivery is not in Saturday's exception: it opens the next morning.
    expect(hoursStatus(s, 'delivery', LA, noon)).toEqual({
      open: false,
      label: 'Closed · opens tomorrow 9 AM',
      opensAt: '2026-12-26T17:00:00.000Z',
    });
  });

  it('closes early on a day of other hours, then names the day after the holiday', () => {
    const s = withHolidays();
    expect(hoursStatus(s, 'pickup', LA, new Date('2026-12-24T21:00:00Z')).label).toBe('Open now · closes 2 PM'); // 13:00 PST
    expect(hoursStatus(s, 'pickup', LA, new Date('2026-12-24T23:00:00Z')).label).toBe('Closed · opens Sunday 10 AM'); // 15:00 PST
    // The evening before: the short day is tomorrow.
    expect(hoursStatus(s, 'pickup', LA, new Date('2026-12-24T06:00:00Z')).label).toBe('Closed · opens tomorrow 9 AM'); // 22:00 PST on 12/23
  });

  it('names the date when the next opening is a week or more away', () => {
    const s: HoursSettings = {
      ...hoursFromOpeningHours(OPENING),
      exceptions: Array.from({ length: 8 }, (_, i) => ({
        date: `2026-08-${String(3 + i).padStart(2, '0')}`,
        label: 'Summer break',
        order_types: ['pickup' as const, 'delivery' as const],
        closed: true,
      })),
    };
    // Monday 8/3/2026 12:00 PDT: closed through 8/10; opens Tuesday 8/11 — eight days on.
    expect(hoursStatus(s, 'pickup', LA, new Date('2026-08-03T19:00:00Z')).label).toBe('Closed · opens 8/11/2026 9 AM');
  });
});

describe('a store without hours settings of its own', () => {
  it('shows the same line as its opening hours did, every quarter hour of a week (DST week included)', () => {
    const defaults = hoursFromOpeningHours(OPENING);
    for (const from of ['2026-06-15T00:00:00Z', '2026-11-01T00:00:00Z']) {
      for (let t = new Date(from).getTime(), end = t + 7 * 86_400_000; t < end; t += 15 * 60_000) {
        const at = new Date(t);
        const before = openStatus(OPENING, LA, at);
        const now = hoursStatus(defaults, 'pickup', LA, at);
        expect({ open: now.open, label: now.label }, at.toISOString()).toEqual(before);
      }
    }
  });
});
