/**
 * The stream's long life (both databases), on a Fastify instance with the real staff guard and the
 * real stream route but a 50 ms ping: pings arrive as `: ping` comments, and a stream whose session
 * was revoked, or whose member lost the store, ends at the next ping.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { storesFile } from '../../test-support/catalog/test-app.ts';
import { syncStores } from '../db/index.ts';
import { registerStaffGuard } from '../staff/guard.ts';
import { createSession, revokeSession, STAFF_COOKIE } from '../staff/sessions.ts';
import { addStaff } from '../../test-support/staff/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { registerRealtimeRoutes } from './console-routes.ts';
import { createConsoleHub } from './hub.ts';
import { openSse } from '../../test-support/realtime/sse-client.ts';

describeEachDatabase('console stream: pings and session checks', (getDb) => {
  let app: FastifyInstance;
  let base: string;
  let staffId: number;

  beforeAll(async () => {
    const { db } = getDb();
    await syncStores(db, storesFile);
    staffId = await addStaff(db, { email: 'bud@pings.test', role: 'budtender', storeIds: [1] });
    app = Fastify({ logger: false });
    registerStaffGuard(app, { db });
    registerRealtimeRoutes(app, { db, hub: createConsoleHub(), pingMs: 50 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(() => app?.close());

  const session = async () => {
    const s = await createSession(getDb().db, staffId, new Date(), { mfa: false });
    return { ...s, cookie: `${STAFF_COOKIE}=${s.token}` };
  };
  const until = async (what: string, check: () => boolean) => {
    const end = Date.now() + 3000;
    while (!check()) {
      if (Date.now() > end) throw new Error(`${what}: not within 3 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  it('pings while the session lives; ends once it is revoked', async () => {
    const s = await session();
    const stream = await openSse(`${base}/api/console/stores/1/events`, { cookie: s.cookie });
    expect(stream.status).toBe(200);
    await until('three pings', () => stream.comments.filter((c) => c === ': ping').length >= 3);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    expect(ended).toBe(false);
    await revokeSession(getDb().db, s.id, new Date());
    await until('stream ended after the revocation', () => ended);
  });

  it('ends once the member no longer has the store', async () => {
    const s = await session();
    const stream = await openSse(`${base}/api/console/stores/1/events`, { cookie: s.cookie });
    await stream.waitFor((f) => f.event === 'ready', 2000);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await until('a ping', () => stream.comments.length >= 1);
    await getDb().db.deleteFrom('staff_stores').where('staff_id', '=', staffId).execute();
    await until('stream ended after the store was taken away', () => ended);
    await getDb().db.insertInto('staff_stores').values({ staff_id: staffId, store_id: 1 }).execute();
  });
});
