/**
 * Issue 26 "New orders easy to miss", both databases: an order is "New" (opened_at null) in the
 * queue until a member of staff opens it; the first opening is recorded once under 40 parallel
 * openings, with one `order.updated` push carrying it, and the flag stays gone on every later read.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test-support/databases.ts';
import { lifecycleHarness, type LifecycleHarness } from '../../../test-support/orders/lifecycle/testing.ts';

describeEachDatabase('console: orders opened by staff', (getDb) => {
  let h: LifecycleHarness;
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
  });
  afterAll(async () => h?.app.close());

  const rowOf = async (id: number) =>
    (await h.get('/api/console/stores/1/orders?status=submitted')).body.result.items.find((i: { id: number }) => i.id === id);

  it('is new until opened; 40 openings at once record one, with one push', async () => {
    const o = await h.place();
    expect((await rowOf(o.id)).opened_at).toBeNull();
    expect((await h.get(`/api/console/stores/1/orders/${o.id}`)).body.result.opened_at).toBeNull();

    const answers = await Promise.all(
      Array.from({ length: 40 }, () => h.console('POST', `/api/console/stores/1/orders/${o.id}/opened`, {})),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.body.result.first)).toHaveLength(1);
    const at = h.clock.now.toISOString();
    expect(new Set(answers.map((a) => a.body.result.opened_at))).toEqual(new Set([at]));

    const pushes = await h.db
      .selectFrom('outbox_events')
      .select(['type', 'payload'])
      .where('order_id', '=', o.id)
      .where('type', '=', 'order.updated')
      .execute();
    expect(pushes).toHaveLength(1);
    expect(JSON.parse(pushes[0].payload)).toMatchObject({ order_id: o.id, opened_at: at, status: 'submitted' });

    expect((await rowOf(o.id)).opened_at).toBe(at);
    const row = await h.db.selectFrom('orders').select(['opened_at', 'opened_by', 'version']).where('id', '=', o.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ opened_at: at, opened_by: h.owner.staff.id, version: 1 });
  });

  it('answers 404 for an order of no such id, and 400 for a bad id', async () => {
    expect((await h.console('POST', '/api/console/stores/1/orders/999999/opened', {})).status).toBe(404);
    expect((await h.console('POST', '/api/console/stores/1/orders/abc/opened', {})).status).toBe(400);
    expect((await h.console('POST', `/api/console/stores/1/orders/${2 ** 31}/opened`, {})).status).toBe(400);
  });
});
