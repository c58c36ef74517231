import { describe, expect, it } from 'vitest';
import { formatClock, formatClockShort, formatHoursRange, groupHours, openStatus } from './store-hours.ts';

describe('formatClock', () => {
  it('uses the 12-hour clock', () => {
    expect(formatClock('09:00')).toBe('9:00 AM');
    expect(formatClock('12:00')).toBe('12:00 PM');
    expect(formatClock('00:30')).toBe('12:30 AM');
    expect(formatClock('21:45')).toBe('9:45 PM');
    expect(formatClock('24:00')).toBe('12:00 AM');
    expect(formatClock('noon')).toBe('noon');
  });
});

describe('groupHours', () => {
  it('collapses consecutive days with the same hours', () => {
    const day = (d: string, open = '09:00', close = '21:00') => ({ day: d, open, close });
    const week = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map((d) => day(d));
    expect(groupHours([...week, day('Sunday', '10:00', '18:00')])).toEqual([
      { days: 'Monday – Saturday', shortDays: 'Mon – Sat', hours: formatHoursRange('09:00', '21:00') },
      { days: 'Sunday', shortDays: 'Sun', hours: '10:00 AM – 6:00 PM' },
    ]);
    expect(groupHours([day('Monday'), day('Tuesday', '10:00'), day('Wednesday')])).toHaveLength(3);
    expect(groupHours([])).toEqual([]);
  });
});

describe('openStatus (the store\'s time zone)', () => {
  const week = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((day) => ({ day, open: '09:00', close: '21:00' }));
  const LA = 'America/Los_Angeles';
  // 2026-11-25 is a Wednesday; Los Angeles is UTC−8 in November.
  const at = (iso: string) => new Date(iso);

  it('is open between opening and closing, and says when it closes', () => {
    expect(openStatus(week, LA, at('2026-11-25T17:00:00Z'))).toEqual({ open: true, label: 'Open now · closes 9 PM' });
    expect(openStatus(week, LA, at('2026-11-26T04:59:00Z'))).toEqual({ open: true, label: 'Open now · closes 9 PM' });
  });

  it('is closed before opening and after closing, and says when it opens', () => {
    expect(openStatus(week, LA, at('2026-11-25T16:59:00Z'))).toEqual({ open: false, label: 'Closed · opens 9 AM' });
    expect(openStatus(week, LA, at('2026-11-26T05:00:00Z'))).toEqual({ open: false, label: 'Closed · opens tomorrow 9 AM' });
    // One instant, two stores: 6:30 in Los Angeles, 9:30 in New York — the store's zone decides.
    expect(openStatus(week, LA, at('2026-11-25T14:30:00Z'))).toEqual({ open: false, label: 'Closed · opens 9 AM' });
    expect(openStatus(week, 'America/New_York', at('2026-11-25T14:30:00Z'))).toEqual({ open: true, label: 'Open now · closes 9 PM' });
  });

  it('skips closed days and runs late hours past midnight', () => {
    const noSunday = week.filter((d) => d.day !== 'Sunday');
    // Saturday 22:00 in LA → next opening Monday.
    expect(openStatus(noSunday, LA, at('2026-11-29T06:00:00Z')).label).toBe('Closed · opens Monday 9 AM');
    const late = week.map((d) => ({ ...d, open: '18:00', close: '02:00' }));
    // Thursday 01:30 in LA is still Wednesday night's opening.
    expect(openStatus(late, LA, at('2026-11-26T09:30:00Z'))).toEqual({ open: true, label: 'Open now · closes 2 AM' });
    expect(openStatus([], LA, at('2026-11-26T09:30:00Z'))).toEqual({ open: false, label: 'Closed' });
  });

  it('shortens whole hours only', () => {
    expect(formatClockShort('21:00')).toBe('9 PM');
    expect(formatClockShort('21:30')).toBe('9:30 PM');
  });
});
