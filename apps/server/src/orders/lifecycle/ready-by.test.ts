/**
 * Issue 26 "Ready-by ignores the booked slot and the hours", both databases: the order's detail
 * offers the booked slot's start (or the next opening) as the ready-by; a confirm whose ready-by
 * falls while the store is closed for the order's type is refused unless staff insist, and the
 * insisting is recorded in the order's history.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test-support/databases.ts';
import { lifecycleHarness, type LifecycleHarness } from '../../../test-support/orders/lifecycle/testing.ts';

const CLOSED_MESSAGE =
  'The store is closed at that ready-by time (Closed · opens 9 AM). Choose a time when it is open, or tick “Store closed — confirm anyway”.';

describeEachDatabase('ready-by and the store’s hours', (getDb) => {
  let h: LifecycleHarness;
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
  });
  afterAll(async () => h?.app.close());

  const detail = async (id: number) => (await h.get(`/api/console/stores/1/orders/${id}`)).body.result;
  const history = async (id: number) => (await detail(id)).history.filter((e: { to_status: string }) => e.to_status === 'confirmed');

  it('offers the booked slot’s start at 4:52 AM, refuses a ready-by while closed, confirms the slot', async () => {
    // Monday 2026-06-15 4:52 AM in Sacramento (UTC−7): downtown opens at 9.
    await h.at('2026-06-15T11:52:00.000Z');
    const o = await h.place({ type: 'pickup' });
    const before = await detail(o.id);
    expect(before.slot_start).toBe('2026-06-15T16:00:00.000Z');
    expect(before.ready_by_plan).toMatchObject({ default: '2026-06-15T16:00:00.000Z', basis: 'slot', open_now: false, status_label: 'Closed · opens 9 AM' });

    // What the console used to send: now + 20 minutes, 5:12 AM. Refused with or without an explicit false.
    // (Sent raw, past the harness's `move`, which insists by default.)
    for (const body of [{}, { confirmClosed: false }]) {
      const r = await h.console('POST', `/api/console/stores/1/orders/${o.id}/transitions`, {
        action: 'confirm',
        readyBy: '2026-06-15T12:12:00.000Z',
        ...body,
      });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ result: CLOSED_MESSAGE, errorCode: 'store_closed', meta: { opensAt: '2026-06-15T16:00:00.000Z' } });
    }
    const still = await detail(o.id);
    expect(still).toMatchObject({ status: 'submitted', version: before.version, ready_by: null });

    const ok = await h.move(o.id, { action: 'confirm', readyBy: before.ready_by_plan.default, confirmClosed: false });
    expect(ok.status).toBe(200);
    expect(ok.body.result).toMatchObject({ status: 'confirmed', ready_by: '2026-06-15T16:00:00.000Z', ready_by_plan: null });
    expect((await history(o.id))[0].data).toEqual({ action: 'confirm', readyBy: '2026-06-15T16:00:00.000Z' });
  });

  it('confirms a ready-by while closed when staff insist, and says so in the history', async () => {
    await h.at('2026-06-15T11:52:00.000Z');
    const o = await h.place({ type: 'pickup' });
    const r = await h.move(o.id, { action: 'confirm', readyBy: '2026-06-15T12:30:00.000Z', confirmClosed: true });
    expect(r.status).toBe(200);
    expect((await history(o.id))[0].data).toEqual({ action: 'confirm', readyBy: '2026-06-15T12:30:00.000Z', storeClosed: true });
  });

  it('while open, offers twenty minutes from now; a closed day (exception) refuses it; closing time itself is fine', async () => {
    await h.at('2026-06-15T19:03:00.000Z'); // 12:03 PM
    const o = await h.place({ type: 'pickup', body: { slot_start: null } });
    const plan = (await detail(o.id)).ready_by_plan;
    expect(plan).toMatchObject({ default: '2026-06-15T19:25:00.000Z', basis: 'soon', open_now: true, status_label: 'Open now · closes 9 PM' });

    // 9:01 PM is after closing; 9:00 PM is not.
    expect((await h.move(o.id, { action: 'confirm', readyBy: '2026-06-16T04:01:00.000Z', confirmClosed: false })).body.errorCode).toBe('store_closed');

    // The manager closes pickup for the rest of the day: the same default is now refused.
    const section = (await h.get('/api/console/stores/1/settings/sections/hours')).body.result;
    const closed = {
      ...section.value,
      exceptions: [{ date: '2026-06-15', order_types: ['pickup'], closed: true, label: 'Inventory' }],
    };
    const put = await h.console('PUT', '/api/console/stores/1/settings/sections/hours', { value: closed, version: section.version });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const refused = await h.move(o.id, { action: 'confirm', readyBy: plan.default, confirmClosed: false });
    expect(refused.status).toBe(400);
    expect(refused.body.errorCode).toBe('store_closed');
    expect((await detail(o.id)).ready_by_plan).toMatchObject({ basis: 'next_open', default: '2026-06-16T16:00:00.000Z', open_now: false });
    const back = (await h.get('/api/console/stores/1/settings/sections/hours')).body.result;
    await h.console('PUT', '/api/console/stores/1/settings/sections/hours', { value: section.value, version: back.version });
    expect((await h.move(o.id, { action: 'confirm', readyBy: '2026-06-16T04:00:00.000Z', confirmClosed: false })).status).toBe(200);
  });

  it('decides 40 parallel confirms of one order once: a closed ready-by never slips through', async () => {
    await h.at('2026-06-15T11:52:00.000Z');
    const o = await h.place({ type: 'pickup' });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        h.move(o.id, { action: 'confirm', readyBy: i % 2 ? '2026-06-15T12:30:00.000Z' : '2026-06-15T16:00:00.000Z', confirmClosed: false }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400).every((a) => a.body.errorCode === 'store_closed')).toBe(true);
    expect(statuses.filter((s) => s === 400)).toHaveLength(20);
    expect((await detail(o.id)).ready_by).toBe('2026-06-15T16:00:00.000Z');
  });
  it('auto-confirm: ready at the booked slot’s start when that is later than its minutes, else its minutes from now', async () => {
    expect((await h.console('PUT', '/api/console/stores/1/settings/orders', { auto_confirm: true, auto_confirm_minutes: 30 })).status).toBe(200);
    try {
      await h.at('2026-06-15T11:52:00.000Z'); // 4:52 AM: the order is booked for the 9 AM slot
      const night = await h.place({ type: 'pickup' });
      expect(night.result.status).toBe('confirmed');
      expect(await detail(night.id)).toMatchObject({ slot_start: '2026-06-15T16:00:00.000Z', ready_by: '2026-06-15T16:00:00.000Z' });
      await h.at('2026-06-15T19:03:00.000Z'); // 12:03 PM, open, no slot
      const noon = await h.place({ type: 'pickup' });
      expect(await detail(noon.id)).toMatchObject({ slot_start: null, ready_by: '2026-06-15T19:33:00.000Z' });
    } finally {
      await h.console('PUT', '/api/console/stores/1/settings/orders', { auto_confirm: false });
    }
  });
});
