import { describe, expect, it } from 'vitest';
import {
  availableSlots,
  hoursFromOpeningHours,
  hoursStatus,
  slotAt,
  zonedInstant,
  type HoursSettings,
} from './slots.ts';
import { hoursSettingsSchema } from './schema.ts';

const LA = 'America/Los_Angeles';
const WEEK = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map((day) => ({ day, open: '09:00', close: '21:00' }));
const base = (): HoursSettings => hoursFromOpeningHours([...WEEK, { day: 'Sunday', open: '10:00', close: '18:00' }]);

describe('zonedInstant', () => {
  it('converts local wall time to the instant on both sides of DST', () => {
    // 2026-03-08: clocks go forward in Los Angeles; 2026-11-01: back.
    expect(zonedInstant('2026-03-07', 9 * 60, LA).toISOString()).toBe('2026-03-07T17:00:00.000Z');
    expect(zonedInstant('2026-03-08', 9 * 60, LA).toISOString()).toBe('2026-03-08T16:00:00.000Z');
    expect(zonedInstant('2026-10-31', 9 * 60, LA).toISOString()).toBe('2026-10-31T16:00:00.000Z');
    expect(zonedInstant('2026-11-01', 9 * 60, LA).toISOString()).toBe('2026-11-01T17:00:00.000Z');
    // Inside the spring-forward gap: just after it.
    expect(zonedInstant('2026-03-08', 2 * 60 + 30, LA).toISOString()).toBe('2026-03-08T10:30:00.000Z');
  });
});

describe('availableSlots', () => {
  it('starts after the lead time and ends before closing', () => {
    const s = base();
    s.pickup.slots = { length_minutes: 30, lead_minutes: 45, days_ahead: 0, capacity: 5 };
    // Monday 2026-06-15 12:00 PDT = 19:00Z; ready at 12:45 → the first slot of the grid from 9:00 after it is 1:00 PM
    const slots = availableSlots(s, 'pickup', LA, new Date('2026-06-15T19:00:00Z'));
    expect(slots[0]).toMatchObject({
      start: '2026-06-15T20:00:00.000Z',
      end: '2026-06-15T20:30:00.000Z',
      label: '6/15/2026 13:00 – 13:30',
      remaining: 5,
    });
    expect(slots.at(-1)!.end <= '2026-06-16T04:00:00.000Z').toBe(true);
    expect(slots.at(-1)!.label).toBe('6/15/2026 20:30 – 21:00');
  });

  it('aligns slots to the opening time when the lead falls before opening', () => {
    const s = base();
    s.pickup.slots = { length_minutes: 60, lead_minutes: 30, days_ahead: 1, capacity: null };
    const slots = availableSlots(s, 'pickup', LA, new Date('2026-06-15T12:00:00Z')); // 5:00 AM PDT
    expect(slots[0]).toMatchObject({ start: '2026-06-15T16:00:00.000Z', remaining: null });
    expect(slots.filter((x) => x.start.startsWith('2026-06-15'))).toHaveLength(8); // 9–16 PDT until midnight UTC
    expect(slots).toHaveLength(24); // 12 on Monday, 12 on Tuesday
  });

  it('counts an hour more or fewer of slots on DST days (real minutes)', () => {
    const s = base();
    s.pickup.weekly = [{ day: 'Sunday', open: '00:00', close: '04:00' }];
    s.pickup.slots = { length_minutes: 30, lead_minutes: 0, days_ahead: 0, capacity: null };
    expect(availableSlots(s, 'pickup', LA, new Date('2026-03-08T08:00:00Z'))).toHaveLength(6); // 3 real hours
    expect(availableSlots(s, 'pickup', LA, new Date('2026-11-01T07:00:00Z'))).toHaveLength(10); // 5 real hours
    expect(availableSlots(s, 'pickup', LA, new Date('2026-10-25T07:00:00Z'))).toHaveLength(8);
  });

  it('leaves out full slots and shows what is left', () => {
    const s = base();
    s.delivery.slots = { length_minutes: 15, lead_minutes: 0, days_ahead: 0, capacity: 2 };
    const now = new Date('2026-06-15T16:00:00Z');
    const taken = new Map([
      ['2026-06-15T16:00:00.000Z', 2],
      ['2026-06-15T16:15:00.000Z', 1],
    ]);
    const slots = availableSlots(s, 'delivery', LA, now, taken);
    expect(slots[0]).toMatchObject({ start: '2026-06-15T16:15:00.000Z', remaining: 1 });
  });

  it('follows exceptions: a closed holiday and shorter hours, per order type', () => {
    const s = base();
    s.exceptions = hoursSettingsSchema.parse({
      ...s,
      exceptions: [
        { date: '2026-11-26', label: 'Thanksgiving', closed: true },
        { date: '2026-11-27', closed: false, open: '12:00', close: '14:00', order_types: ['delivery'] },
      ],
    }).exceptions;
    s.pickup.slots = { length_minutes: 60, lead_minutes: 0, days_ahead: 1, capacity: null };
    s.delivery.slots = { length_minutes: 60, lead_minutes: 0, days_ahead: 1, capacity: null };
    const wed = new Date('2026-11-26T12:00:00Z'); // Thanksgiving 4 AM PST
    expect(availableSlots(s, 'pickup', LA, wed).every((x) => x.start >= '2026-11-27')).toBe(true);
    expect(availableSlots(s, 'delivery', LA, wed).map((x) => x.label)).toEqual(['11/27/2026 12:00 – 13:00', '11/27/2026 13:00 – 14:00']);
    expect(hoursStatus(s, 'pickup', LA, wed)).toEqual({
      open: false,
      label: 'Closed · opens tomorrow 9 AM',
      opensAt: '2026-11-27T17:00:00.000Z',
    });
    expect(hoursStatus(s, 'delivery', LA, new Date('2026-11-27T20:30:00Z'))).toMatchObject({ open: true, label: 'Open now · closes 2 PM' });
  });

  it('names a bookable slot and refuses other starts', () => {
    const s = base();
    s.pickup.slots = { length_minutes: 30, lead_minutes: 60, days_ahead: 0, capacity: 1 };
    const now = new Date('2026-06-15T19:00:00Z');
    expect(slotAt(s, 'pickup', LA, now, '2026-06-15T20:00:00Z')).toMatchObject({ start: '2026-06-15T20:00:00.000Z' });
    expect(slotAt(s, 'pickup', LA, now, '2026-06-15T19:30:00.000Z')).toBeNull(); // inside the lead time
    expect(slotAt(s, 'pickup', LA, now, '2026-06-15T20:10:00.000Z')).toBeNull(); // not a slot start
    expect(slotAt(s, 'pickup', LA, now, 'soon')).toBeNull();
  });
});

describe('hoursStatus', () => {
  it('says open now, opens later today, tomorrow or on a weekday', () => {
    const s = base();
    expect(hoursStatus(s, 'pickup', LA, new Date('2026-06-15T19:00:00Z')).label).toBe('Open now · closes 9 PM');
    expect(hoursStatus(s, 'pickup', LA, new Date('2026-06-15T12:00:00Z')).label).toBe('Closed · opens 9 AM');
    expect(hoursStatus(s, 'pickup', LA, new Date('2026-06-16T05:00:00Z')).label).toBe('Closed · opens tomorrow 9 AM');
    s.pickup.weekly = [{ day: 'Friday', open: '10:00', close: '12:00' }];
    expect(hoursStatus(s, 'pickup', LA, new Date('2026-06-15T19:00:00Z')).label).toBe('Closed · opens Friday 10 AM');
    s.pickup.weekly = [];
    expect(hoursStatus(s, 'pickup', LA, new Date('2026-06-15T19:00:00Z'))).toEqual({ open: false, label: 'Closed', opensAt: null });
  });

  it('keeps an overnight span open after midnight', () => {
    const s = base();
    s.pickup.weekly = [{ day: 'Monday', open: '18:00', close: '02:00' }];
    // Tuesday 1:00 AM PDT
    expect(hoursStatus(s, 'pickup', LA, new Date('2026-06-16T08:00:00Z')).label).toBe('Open now · closes 2 AM');
  });
});

describe('hoursSettingsSchema', () => {
  it('refuses a day twice, a bad slot length and an open exception without hours', () => {
    const s = base();
    const bad = hoursSettingsSchema.safeParse({
      ...s,
      pickup: {
        ...s.pickup,
        weekly: [...s.pickup.weekly, { day: 'Monday', open: '08:00', close: '09:00' }],
        slots: { ...s.pickup.slots, length_minutes: 20 },
      },
      exceptions: [{ date: '2026-12-24', closed: false }],
    });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['pickup.slots.length_minutes', 'exceptions.0']));
    expect(hoursSettingsSchema.safeParse(s).success).toBe(true);
  });
});
