import { describe, expect, it } from 'vitest';
import {
  actionsFrom,
  CANCEL_REASONS,
  checkMove,
  LIFECYCLE_MESSAGES,
  missingVerifications,
  offeredActions,
  ORDER_ACTIONS,
  ORDER_MOVES,
  ORDER_STATUSES,
  READY_BY_MAX_DAYS,
  orderTimeline,
  verificationNeeds,
  type LifecycleOrder,
  type OrderAction,
  type OrderStatus,
} from './order-lifecycle.ts';

const NOW = '2026-11-25T18:00:00.000Z';
const order = (o: Partial<LifecycleOrder> = {}): LifecycleOrder => ({ status: 'submitted', order_type: 'pickup', license_type: 'recreational', hold: [], ready_by: null, ...o });
/** Input that satisfies every guard, so only the table decides. */
const FULL = { readyBy: '2026-11-25T18:20:00.000Z', reason: 'other' as const, idChecked: true, medcardChecked: true };

describe('order state machine', () => {
  it('allows exactly the moves in the table, for every status, order type and action', () => {
    for (const status of ORDER_STATUSES) {
      for (const order_type of ['pickup', 'delivery'] as const) {
        for (const action of ORDER_ACTIONS) {
          const rule = ORDER_MOVES[action];
          const legal = rule.from.includes(status) && rule.orderTypes.includes(order_type);
          // A ready-by an hour ago lets mark_no_show pass its window guard.
          const check = checkMove(order({ status, order_type, ready_by: '2026-11-24T12:00:00.000Z' }), action, FULL, { now: NOW });
          expect({ status, order_type, action, ok: check.ok }).toEqual({ status, order_type, action, ok: legal });
          if (check.ok) expect(check.to).toBe(rule.to);
          else expect(check).toMatchObject({ code: 'not_allowed' });
        }
      }
    }
  });

  it('never leaves a final status', () => {
    for (const status of ['completed', 'cancelled', 'no_show'] as OrderStatus[]) {
      expect(actionsFrom({ status, order_type: 'pickup' })).toEqual([]);
      expect(actionsFrom({ status, order_type: 'delivery' })).toEqual([]);
    }
  });

  it('pickup goes ready_for_pickup, delivery goes out_for_delivery', () => {
    expect(actionsFrom({ status: 'confirmed', order_type: 'pickup' })).toEqual(['mark_ready', 'cancel']);
    expect(actionsFrom({ status: 'confirmed', order_type: 'delivery' })).toEqual(['send_out', 'cancel']);
  });

  it('confirm needs a future ready-by time and no verification hold', () => {
    expect(checkMove(order(), 'confirm', {}, { now: NOW })).toEqual({ ok: false, code: 'invalid', message: LIFECYCLE_MESSAGES.readyByRequired });
    expect(checkMove(order(), 'confirm', { readyBy: '2026-11-25T17:59:00.000Z' }, { now: NOW })).toEqual({ ok: false, code: 'invalid', message: LIFECYCLE_MESSAGES.readyByInPast });
    expect(checkMove(order({ hold: ['id'] }), 'confirm', FULL, { now: NOW })).toEqual({ ok: false, code: 'invalid', message: LIFECYCLE_MESSAGES.verificationHold });
    expect(checkMove(order(), 'confirm', FULL, { now: NOW })).toEqual({ ok: true, to: 'confirmed' });
  });

  it('confirm refuses a ready-by more than 7 days ahead (year 275760 was accepted)', () => {
    const at = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();
    const week = READY_BY_MAX_DAYS * 86_400_000;
    const tooFar = { ok: false, code: 'invalid', message: LIFECYCLE_MESSAGES.readyByTooFar };
    expect(checkMove(order(), 'confirm', { readyBy: at(week) }, { now: NOW })).toEqual({ ok: true, to: 'confirmed' });
    expect(checkMove(order(), 'confirm', { readyBy: at(week + 60_000) }, { now: NOW })).toEqual(tooFar);
    expect(checkMove(order(), 'confirm', { readyBy: '+275760-09-13T00:00:00.000Z' }, { now: NOW })).toEqual(tooFar);
    expect(checkMove(order(), 'confirm', { readyBy: '9999-12-31T23:59:00.000Z' }, { now: NOW })).toEqual(tooFar);
  });

  it('cancel needs one of the reason codes', () => {
    const o = order({ status: 'confirmed' });
    expect(checkMove(o, 'cancel', {}, { now: NOW })).toMatchObject({ ok: false, message: LIFECYCLE_MESSAGES.reasonRequired });
    expect(checkMove(o, 'cancel', { reason: 'nope' as never }, { now: NOW })).toMatchObject({ ok: false, message: LIFECYCLE_MESSAGES.reasonRequired });
    for (const reason of CANCEL_REASONS) expect(checkMove(o, 'cancel', { reason }, { now: NOW })).toEqual({ ok: true, to: 'cancelled' });
  });

  it('complete needs the ID check, and the medical card check for medical orders', () => {
    const rec = order({ status: 'ready_for_pickup' });
    expect(checkMove(rec, 'complete', {}, { now: NOW })).toMatchObject({ ok: false, message: LIFECYCLE_MESSAGES.idCheckRequired });
    expect(checkMove(rec, 'complete', { idChecked: true }, { now: NOW })).toEqual({ ok: true, to: 'completed' });
    const med = order({ status: 'out_for_delivery', order_type: 'delivery', license_type: 'medical' });
    expect(checkMove(med, 'complete', { idChecked: true }, { now: NOW })).toMatchObject({ ok: false, message: LIFECYCLE_MESSAGES.medcardCheckRequired });
    expect(checkMove(med, 'complete', { idChecked: true, medcardChecked: true }, { now: NOW })).toEqual({ ok: true, to: 'completed' });
  });

  it('no-show only once the pickup window after the ready-by time has passed', () => {
    const ready = order({ status: 'ready_for_pickup', ready_by: '2026-11-25T10:00:00.000Z' });
    expect(checkMove(ready, 'mark_no_show', {}, { now: NOW })).toMatchObject({ ok: false, message: LIFECYCLE_MESSAGES.pickupWindowOpen });
    expect(checkMove(ready, 'mark_no_show', {}, { now: NOW, pickupWindowHours: 8 })).toEqual({ ok: true, to: 'no_show' });
    expect(checkMove(ready, 'mark_no_show', {}, { now: '2026-11-26T10:00:00.000Z' })).toEqual({ ok: true, to: 'no_show' });
    expect(checkMove({ ...ready, ready_by: null }, 'mark_no_show', {}, { now: '2027-01-01T00:00:00.000Z' })).toMatchObject({ ok: false });
  });

  it('offers the buttons of the table, blocking confirm while held', () => {
    const offered = offeredActions(order({ hold: ['medcard'] }), { now: NOW });
    expect(offered.map((a) => a.action)).toEqual<OrderAction[]>(['confirm', 'cancel']);
    expect(offered[0].blockedBy).toBe(LIFECYCLE_MESSAGES.verificationHold);
    expect(offered[1].blockedBy).toBeNull();
  });
});

describe('verification holds', () => {
  it('medical orders need ID and card, delivery needs ID, recreational pickup nothing up front', () => {
    expect(verificationNeeds({ license_type: 'medical', order_type: 'pickup' })).toEqual(['id', 'medcard']);
    expect(verificationNeeds({ license_type: 'recreational', order_type: 'delivery' })).toEqual(['id']);
    expect(verificationNeeds({ license_type: 'recreational', order_type: 'pickup' })).toEqual([]);
  });

  it('re-checks the card expiry on the order date', () => {
    const docs = { id_status: 'verified' as const, medcard_status: 'verified' as const, medcard_expiry: '2026-11-24' };
    expect(missingVerifications(['id', 'medcard'], docs, '2026-11-25')).toEqual(['medcard']);
    expect(missingVerifications(['id', 'medcard'], { ...docs, medcard_expiry: '2026-11-25' }, '2026-11-25')).toEqual([]);
    expect(missingVerifications(['id'], { ...docs, id_status: 'pending' }, '2026-11-25')).toEqual(['id']);
    expect(missingVerifications(['id', 'medcard'], null, '2026-11-25')).toEqual(['id', 'medcard']);
  });
});

describe('shopper timeline', () => {
  it('walks the order type’s path with the times reached', () => {
    const steps = orderTimeline({ status: 'confirmed', order_type: 'pickup', created_at: '2026-11-25T17:00:00.000Z' }, [{ status: 'confirmed', at: '2026-11-25T17:05:00.000Z' }]);
    expect(steps.map((s) => [s.status, s.state, s.at])).toEqual([
      ['submitted', 'done', '2026-11-25T17:00:00.000Z'],
      ['confirmed', 'current', '2026-11-25T17:05:00.000Z'],
      ['ready_for_pickup', 'upcoming', null],
      ['completed', 'upcoming', null],
    ]);
    expect(orderTimeline({ status: 'completed', order_type: 'delivery', created_at: NOW }, []).map((s) => s.state)).toEqual(['done', 'done', 'done', 'done']);
  });

  it('ends at the cancellation, after the steps that happened', () => {
    const steps = orderTimeline({ status: 'cancelled', order_type: 'delivery', created_at: NOW }, [
      { status: 'confirmed', at: '2026-11-25T18:01:00.000Z' },
      { status: 'cancelled', at: '2026-11-25T18:02:00.000Z' },
    ]);
    expect(steps.map((s) => [s.status, s.state])).toEqual([
      ['submitted', 'done'],
      ['confirmed', 'done'],
      ['cancelled', 'current'],
    ]);
  });
});
