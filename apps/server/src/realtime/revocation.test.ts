/**
 * Issue 26: a console stream ends at once when its session ends or its access changes (both
 * databases, the real app on loopback, the default 15 s ping so the ping cannot be what ends it).
 * After the change's answer, an order event published at once is never delivered and the stream
 * ends within 500 ms: member disabled, store taken from the member, logout; and a change written
 * straight to the database (as the command line does, no signal at all) still delivers nothing.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { staffTestApp } from '../../test-support/staff/app-for-tests.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { openSse, type SseStream } from '../../test-support/realtime/sse-client.ts';
import type { OrderEventPayload } from '../outbox/append.ts';

const STORE = 1;
const PROMPT_MS = 500;

describeEachDatabase('console stream ends when access ends (issue 26)', (getDb) => {
  let app: FastifyInstance;
  let base: string;
  let owner: StaffTestSession;
  const streams: SseStream[] = [];
  let n = 0;

  beforeAll(async () => {
    ({ app } = await staffTestApp(getDb()));
    await addStaff(getDb().db, { email: 'owner@revoke.test', role: 'owner' });
    owner = await loginStaff(app, 'owner@revoke.test');
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await app?.close();
  });

  const member = async () => {
    const email = `bud${++n}@revoke.test`;
    const id = await addStaff(getDb().db, { email, role: 'budtender', storeIds: [STORE] });
    return { id, session: await loginStaff(app, email) };
  };
  const publish = () => {
    const event_id = `evt_revoke_${++n}`;
    app.outboxDispatcher.hub.publish({
      event_id,
      type: 'order.created',
      store_id: STORE,
      payload: { order_id: 900_000 + n, increment_id: `R${n}`, status: 'pending' } as unknown as OrderEventPayload,
    });
    return event_id;
  };
  /** An open stream that has shown it delivers (one event before the change). */
  const liveStream = async (session: StaffTestSession) => {
    const s = await openSse(`${base}/api/console/stores/${STORE}/events`, { cookie: session.cookie });
    streams.push(s);
    expect(s.status).toBe(200);
    await s.waitFor((f) => f.event === 'ready', 2000);
    const before = publish();
    await s.waitFor((f) => f.event === 'order' && f.data.event_id === before, 2000);
    let endedAt: number | null = null;
    void s.ended.then(() => (endedAt = performance.now()));
    return { s, endedAt: () => endedAt };
  };
  const expectCutOff = async (stream: Awaited<ReturnType<typeof liveStream>>, changedAt: number, after: string[]) => {
    await Promise.race([stream.s.ended, new Promise((r) => setTimeout(r, 3000))]);
    const endedAt = stream.endedAt();
    expect(endedAt, 'the stream ended').not.toBeNull();
    expect(endedAt! - changedAt).toBeLessThan(PROMPT_MS);
    const ids = stream.s.frames.filter((f) => f.event === 'order').map((f) => f.data.event_id);
    for (const id of after) expect(ids).not.toContain(id);
  };
  const patchMember = (id: number, payload: object) =>
    app.inject({ method: 'PATCH', url: `/api/console/staff/${id}`, headers: { ...owner.headers, host: 'downtown.localhost' }, payload });

  it('member disabled: no event after the change, the stream ends at once', async () => {
    const { id, session } = await member();
    const stream = await liveStream(session);
    const res = await patchMember(id, { disabled: true });
    expect(res.statusCode, res.body).toBe(200);
    const changedAt = performance.now();
    const after = [publish(), publish()];
    await expectCutOff(stream, changedAt, after);
  });

  it('store taken from the member: no event after the change, the stream ends at once', async () => {
    const { id, session } = await member();
    const stream = await liveStream(session);
    const res = await patchMember(id, { storeIds: [2] });
    expect(res.statusCode, res.body).toBe(200);
    const changedAt = performance.now();
    const after = [publish(), publish()];
    await expectCutOff(stream, changedAt, after);
  });

  it('logout: no event after it, the stream ends at once; another session of the member keeps its stream', async () => {
    const { session } = await member();
    const other = await loginStaff(app, session.staff.email);
    const stream = await liveStream(session);
    const kept = await liveStream(other);
    const res = await app.inject({ method: 'DELETE', url: '/api/console/session', headers: { ...session.headers, host: 'downtown.localhost' } });
    expect(res.statusCode, res.body).toBe(200);
    const changedAt = performance.now();
    const after = [publish(), publish()];
    await expectCutOff(stream, changedAt, after);
    await kept.s.waitFor((f) => f.event === 'order' && f.data.event_id === after[1], 2000);
    expect(kept.endedAt()).toBeNull();
  });

  it('a change written straight to the database (no signal): the next event is not delivered and ends the stream', async () => {
    const { id, session } = await member();
    const stream = await liveStream(session);
    await getDb().db.updateTable('staff').set({ disabled_at: new Date().toISOString() }).where('id', '=', id).execute();
    const changedAt = performance.now();
    const after = [publish()];
    await expectCutOff(stream, changedAt, after);
  });

  it('a parallel burst of 40 events around a disabling: none after the answer', async () => {
    const { id, session } = await member();
    const stream = await liveStream(session);
    const [res] = await Promise.all([patchMember(id, { disabled: true }), ...Array.from({ length: 20 }, async () => publish())]);
    expect(res.statusCode).toBe(200);
    const changedAt = performance.now();
    const after = Array.from({ length: 20 }, () => publish());
    await expectCutOff(stream, changedAt, after);
  });
});
