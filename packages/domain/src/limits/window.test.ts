import { describe, expect, it } from 'vitest';
import { addDays, isKnownTimeZone, localDate, startOfLocalDate, windowStart } from './window.ts';

const iso = (d: Date | null) => d?.toISOString() ?? null;

describe('limit windows in the store time zone', () => {
  it('a transaction window counts no earlier orders', () => {
    expect(windowStart({ type: 'transaction' }, new Date('2026-11-25T18:00:00Z'), 'America/Los_Angeles')).toBeNull();
  });

  it('a day starts at local midnight, not UTC midnight', () => {
    // 23:00 on Nov 24 in Los Angeles is already Nov 25 in UTC.
    expect(iso(windowStart({ type: 'day' }, new Date('2026-11-25T07:00:00Z'), 'America/Los_Angeles'))).toBe('2026-11-24T08:00:00.000Z');
    // 00:30 on Nov 25 in Los Angeles.
    expect(iso(windowStart({ type: 'day' }, new Date('2026-11-25T08:30:00Z'), 'America/Los_Angeles'))).toBe('2026-11-25T08:00:00.000Z');
  });

  it('DST days: the 25-hour day of November and the 23-hour day of March', () => {
    // 2026-11-01 (clocks go back): the day began at 00:00 PDT = 07:00Z; at 23:30 PST it is 07:30Z next day.
    expect(iso(windowStart({ type: 'day' }, new Date('2026-11-02T07:30:00Z'), 'America/Los_Angeles'))).toBe('2026-11-01T07:00:00.000Z');
    expect(iso(windowStart({ type: 'day' }, new Date('2026-11-02T08:00:00Z'), 'America/Los_Angeles'))).toBe('2026-11-02T08:00:00.000Z');
    // 2026-03-08 (clocks go forward): began at 00:00 PST = 08:00Z; 23:00 PDT = 06:00Z next day.
    expect(iso(windowStart({ type: 'day' }, new Date('2026-03-09T06:00:00Z'), 'America/Los_Angeles'))).toBe('2026-03-08T08:00:00.000Z');
    expect(
      startOfLocalDate({ year: 2026, month: 3, day: 9 }, 'America/Los_Angeles') -
        startOfLocalDate({ year: 2026, month: 3, day: 8 }, 'America/Los_Angeles'),
    ).toBe(23 * 3_600_000);
  });

  it('a zone whose clocks skip midnight: the day starts at the first instant that has its date', () => {
    // Santiago, 2026-09-06: 23:59:59 (−04) is followed by 01:00 (−03); 00:00 does not exist.
    expect(new Date(startOfLocalDate({ year: 2026, month: 9, day: 6 }, 'America/Santiago')).toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });

  it('rolling N days: today and the N−1 calendar days before, from local midnight', () => {
    const now = new Date('2026-11-25T18:00:00Z'); // 12:00 CST, Nov 25
    expect(iso(windowStart({ type: 'rolling_days', days: 14 }, now, 'America/Chicago'))).toBe('2026-11-12T06:00:00.000Z');
    expect(iso(windowStart({ type: 'rolling_days', days: 1 }, now, 'America/Chicago'))).toBe('2026-11-25T06:00:00.000Z');
    // Across the November DST change: 14 days back from Nov 10 is Oct 28, still CDT (−05).
    expect(iso(windowStart({ type: 'rolling_days', days: 14 }, new Date('2026-11-10T18:00:00Z'), 'America/Chicago'))).toBe(
      '2026-10-28T05:00:00.000Z',
    );
  });

  it('a month starts on the 1st at local midnight (before a DST change in it)', () => {
    expect(iso(windowStart({ type: 'month' }, new Date('2026-11-25T18:00:00Z'), 'America/Los_Angeles'))).toBe('2026-11-01T07:00:00.000Z');
    // Just after local midnight on Dec 1 the month is December even though UTC is later.
    expect(iso(windowStart({ type: 'month' }, new Date('2026-12-01T08:00:00Z'), 'America/Los_Angeles'))).toBe('2026-12-01T08:00:00.000Z');
  });

  it('calendar arithmetic crosses months and years', () => {
    expect(addDays({ year: 2026, month: 1, day: 5 }, -13)).toEqual({ year: 2025, month: 12, day: 23 });
    expect(localDate(Date.parse('2026-01-01T05:59:59Z'), 'America/Chicago')).toEqual({ year: 2025, month: 12, day: 31 });
  });

  it('an unknown time zone is an error, not a silent UTC', () => {
    expect(() => windowStart({ type: 'day' }, new Date(), 'Mars/Olympus')).toThrow(RangeError);
    expect(isKnownTimeZone('Mars/Olympus')).toBe(false);
    expect(isKnownTimeZone('America/Los_Angeles')).toBe(true);
  });
});
