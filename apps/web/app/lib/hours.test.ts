import { describe, expect, it } from 'vitest';
import { formatClock, formatHoursRange, groupHours } from './hours.ts';

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
