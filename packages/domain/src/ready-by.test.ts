import { describe, expect, it } from 'vitest';
import { hoursFromOpeningHours, type HoursSettings } from './hours/slots.ts';
import { openAt, readyByPlan } from './ready-by.ts';

const LA = 'America/Los_Angeles';
const WEEK = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map((day) => ({ day, open: '09:00', close: '21:00' }));
const hours = (): HoursSettings => hoursFromOpeningHours([...WEEK, { day: 'Sunday', open: '10:00', close: '18:00' }]);
// Monday 2026-06-15, PDT (UTC−7).
const at = (local: string) => new Date(`2026-06-15T${local}:00-07:00`);

describe('openAt (issue 26: no ready-by while the store is closed)', () => {
  it('is open from opening to closing time inclusive, per order type and exceptions', () => {
    const s = hours();
    expect(openAt(s, 'pickup', LA, at('04:53'))).toBe(false);
    expect(openAt(s, 'pickup', LA, at('09:00'))).toBe(true);
    expect(openAt(s, 'pickup', LA, at('21:00'))).toBe(true);
    expect(openAt(s, 'pickup', LA, at('21:01'))).toBe(false);
    s.exceptions.push({ date: '2026-06-15', order_types: ['pickup'], closed: true, label: 'Inventory' } as HoursSettings['exceptions'][number]);
    expect(openAt(s, 'pickup', LA, at('12:00'))).toBe(false);
    expect(openAt(s, 'delivery', LA, at('12:00'))).toBe(true);
  });
});

describe('readyByPlan', () => {
  it('defaults to the booked slot’s start, whatever the time now', () => {
    const plan = readyByPlan(hours(), 'pickup', LA, at('04:52'), '2026-06-15T16:00:00.000Z');
    expect(plan).toMatchObject({ default: '2026-06-15T16:00:00.000Z', basis: 'slot', open_now: false, status_label: 'Closed · opens 9 AM' });
  });

  it('without a slot: twenty minutes from now (rounded up to 5) while open, else the next opening', () => {
    expect(readyByPlan(hours(), 'pickup', LA, at('12:03'), null)).toMatchObject({ default: '2026-06-15T19:25:00.000Z', basis: 'soon', open_now: true });
    // 4:52 AM: not 5:15 AM, but 9 AM when the store opens.
    expect(readyByPlan(hours(), 'pickup', LA, at('04:52'), null)).toMatchObject({ default: '2026-06-15T16:00:00.000Z', basis: 'next_open' });
    // 8:50 PM: twenty minutes on the store is closed; Tuesday 9 AM.
    expect(readyByPlan(hours(), 'pickup', LA, at('20:50'), null)).toMatchObject({ default: '2026-06-16T16:00:00.000Z', basis: 'next_open' });
    // A slot already begun is no default.
    expect(readyByPlan(hours(), 'pickup', LA, at('12:03'), '2026-06-15T19:00:00.000Z').basis).toBe('soon');
  });

  it('lists the opening intervals still ahead for the form', () => {
    const plan = readyByPlan(hours(), 'pickup', LA, at('04:52'), null);
    expect(plan.open[0]).toEqual({ start: '2026-06-15T16:00:00.000Z', end: '2026-06-16T04:00:00.000Z' });
    expect(plan.open.length).toBeGreaterThan(3);
  });
});
