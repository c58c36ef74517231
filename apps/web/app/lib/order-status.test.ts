import { describe, expect, it } from 'vitest';
import {
  holdText,
  isSettled,
  readyByText,
  showsReadyBy,
  statusAnnouncement,
  statusLabel,
  stepTime,
  timelineOf,
  tripProgressOf,
  type OrderStatusView,
} from './order-status.ts';

const LA = 'America/Los_Angeles';
const base: OrderStatusView = { status: 'submitted', order_type: 'pickup', created_at: '2026-11-25T20:00:00.000Z' };

describe('order status view', () => {
  it('shows times on the store clock as M/D/YYYY HH:mm (spec §1)', () => {
    expect(stepTime('2026-11-25T20:05:00.000Z', LA)).toBe('11/25/2026 12:05');
    expect(stepTime('2026-11-25T20:05:00.000Z', 'America/New_York')).toBe('11/25/2026 15:05');
    // Past midnight UTC is still the evening before on the store's clock.
    expect(stepTime('2026-11-26T01:40:00.000Z', LA)).toBe('11/25/2026 17:40');
    expect(stepTime('not a date', LA)).toBe('');
  });

  it('says the ready-by date and time as M/D/YYYY HH:mm on the store clock, today or not', () => {
    expect(readyByText('2026-11-26T01:40:00.000Z', LA)).toBe('Ready by 11/25/2026 17:40');
    expect(readyByText('2026-11-26T17:00:00.000Z', LA)).toBe('Ready by 11/26/2026 09:00');
    expect(readyByText('not a date', LA)).toBe('');
  });

  it('shows the ready-by time from confirmed until it is handed over', () => {
    const readyBy = '2026-11-26T01:40:00.000Z';
    expect(showsReadyBy({ ...base, status: 'confirmed', ready_by: readyBy })).toBe(true);
    expect(showsReadyBy({ ...base, status: 'ready_for_pickup', ready_by: readyBy })).toBe(true);
    expect(showsReadyBy({ ...base, status: 'completed', ready_by: readyBy })).toBe(false);
    expect(showsReadyBy({ ...base, status: 'confirmed', ready_by: null })).toBe(false);
  });

  it('uses the server label, else the domain label', () => {
    expect(statusLabel({ status: 'ready_for_pickup' })).toBe('Ready for pickup');
    expect(statusLabel({ status: 'confirmed', status_label: 'Confirmed!' })).toBe('Confirmed!');
    expect(statusLabel({ status: 'legacy_state' })).toBe('legacy_state');
  });

  it('builds the timeline of an answer that has none from the order type', () => {
    expect(timelineOf(base).map((s) => [s.status, s.state])).toEqual([
      ['submitted', 'current'],
      ['confirmed', 'upcoming'],
      ['ready_for_pickup', 'upcoming'],
      ['completed', 'upcoming'],
    ]);
    expect(timelineOf({ ...base, order_type: 'delivery' }).map((s) => s.status)).toContain('out_for_delivery');
    const served = [{ status: 'confirmed' as const, label: 'Confirmed', at: base.created_at, state: 'current' as const }];
    expect(timelineOf({ ...base, timeline: served })).toBe(served);
  });

  it('stops asking at a final status', () => {
    expect(isSettled({ status: 'completed' })).toBe(true);
    expect(isSettled({ status: 'cancelled' })).toBe(true);
    expect(isSettled({ status: 'no_show' })).toBe(true);
    expect(isSettled({ status: 'ready_for_pickup' })).toBe(false);
  });

  it('names the documents an order is held for', () => {
    expect(holdText([])).toBeNull();
    expect(holdText(undefined)).toBeNull();
    expect(holdText(['id'])).toBe('We need to verify your ID before the store can confirm your order.');
    expect(holdText(['id', 'medcard'])).toBe('We need to verify your ID and medical card before the store can confirm your order.');
  });

  it('announces a change of status only, with the ready-by time when confirmed', () => {
    const confirmed = { ...base, status: 'confirmed', ready_by: '2026-11-26T01:40:00.000Z' };
    expect(statusAnnouncement(null, base, LA)).toBeNull();
    expect(statusAnnouncement(base, { ...base }, LA)).toBeNull();
    expect(statusAnnouncement(base, confirmed, LA)).toBe('Your order is now Confirmed. Ready by 11/25/2026 17:40.');
    expect(statusAnnouncement(confirmed, { ...confirmed, status: 'ready_for_pickup' }, LA)).toBe('Your order is now Ready for pickup.');
  });
});

describe('a delivery on its trip (issue 29)', () => {
  const out: OrderStatusView = { status: 'out_for_delivery', order_type: 'delivery', created_at: '2026-11-25T20:00:00.000Z' };
  const stop2 = { stop: 2, minutes: 15, text: 'Your driver is on the way — you are stop 2, about 15 minutes' };
  const next = { stop: 1, minutes: 5, text: 'Your driver is on the way — you are next, about 5 minutes' };
  it('shows the progress only while out for delivery', () => {
    expect(tripProgressOf({ ...out, trip: stop2 })).toEqual(stop2);
    expect(tripProgressOf({ ...out, status: 'completed', trip: stop2 })).toBeNull();
    expect(tripProgressOf(out)).toBeNull();
  });
  it('announces a new stop number, not the same one again', () => {
    expect(statusAnnouncement({ ...out, trip: stop2 }, { ...out, trip: next }, LA)).toBe('Your driver is on the way — you are next, about 5 minutes.');
    expect(statusAnnouncement({ ...out, trip: next }, { ...out, trip: { ...next, minutes: 4 } }, LA)).toBeNull();
    expect(statusAnnouncement({ ...out, status: 'confirmed' }, { ...out, trip: stop2 }, LA)).toBe('Your driver is on the way — you are stop 2, about 15 minutes.');
    expect(statusAnnouncement({ ...out, trip: next }, { ...out, status: 'completed', trip: null }, LA)).toBe('Your order is now Completed.');
  });
});
