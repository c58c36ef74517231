import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import { keyvalBackend } from './idb-store.ts';
import { createPersistentCache } from './persistent-cache.ts';
import { createSyncQueue, type SyncQueueOptions } from './sync-queue.ts';
import { fillTaskUrl, SYNC_COPY } from './sync-task.ts';
import { fakeAuthorized, fakeServer, json, quietLogger, sharedLocks, tick } from '../../test-support/offline/test-kit.ts';

/** One browser: one IndexedDB, one lock manager. Each `tab()` is a page with its own queue instance. */
function browser(route?: Parameters<typeof fakeServer>[0]) {
  const idb = new IDBFactory();
  const server = fakeServer(route);
  const lock = sharedLocks();
  const notify = vi.fn();
  const state = { cartId: 'cart-1' as string | null, token: 'tok' as string | null };
  const tab = (o: Partial<SyncQueueOptions> = {}) =>
    createSyncQueue({
      name: 'downtown',
      backend: keyvalBackend('verdant-sync-downtown', 'tasks', idb),
      fetch: server.fetch,
      lock,
      notify,
      cartId: () => state.cartId,
      token: () => state.token,
      autoProcess: false,
      logger: quietLogger,
      ...o,
    });
  return { idb, server, lock, notify, state, tab };
}

const post = (url: string, body: unknown = {}) => ({ url, payload: { method: 'POST' as const, body } });

describe('sync queue: order and persistence (spec §4 Offline and sync tasks)', () => {
  it('stores tasks before resolving and sends them in creation order after a reload', async () => {
    const b = browser();
    const before = b.tab();
    await before.queue(post('/api/user/me', { n: 1 }));
    await before.queue(post('/api/cart/update?cartId={{cartId}}', { n: 2 }));
    await before.queue(post('/api/user/me', { n: 3 }));
    expect(b.server.sent).toHaveLength(0);

    const after = b.tab(); // the page was reloaded: a new instance over the same IndexedDB
    expect((await after.pending()).map((t) => (t.payload.body as { n: number }).n)).toEqual([1, 2, 3]);
    const report = await after.process();
    expect(report.stopped).toBeNull();
    expect(b.server.sent.map((r) => (r.body as { n: number }).n)).toEqual([1, 2, 3]);
    expect(report.sent.every((t) => t.transmited && t.resultCode === 200 && t.transmited_at != null)).toBe(true);
    expect(await after.pending()).toEqual([]);
  });

  it('runs one task at a time', async () => {
    const b = browser();
    let inFlight = 0;
    let most = 0;
    b.server.state.route = async () => {
      most = Math.max(most, ++inFlight);
      await tick(3);
      inFlight--;
      return json({ code: 200, result: true });
    };
    const q = b.tab({ autoProcess: true });
    await Promise.all([q.queue(post('/a')), q.queue(post('/b')), q.queue(post('/c'))]);
    await q.process();
    await tick(20);
    expect(b.server.sent.map((r) => r.url)).toEqual(['/a', '/b', '/c']);
    expect(most).toBe(1);
  });

  it('fills {{token}} and {{cartId}} when the task is sent, not when it is queued', async () => {
    const b = browser();
    b.state.cartId = null;
    b.state.token = 'old';
    const q = b.tab();
    await q.queue({ url: '/api/cart/update?token={{token}}&cartId={{cartId}}', payload: { method: 'POST', body: {}, headers: { 'x-extra': '1' } } });
    b.state.cartId = 'cart/7';
    b.state.token = 'new token';
    await q.process();
    const [req] = b.server.sent;
    expect(req.url).toBe('/api/cart/update?token=new%20token&cartId=cart%2F7');
    expect(req.headers).toMatchObject({ authorization: 'Bearer new token', 'x-extra': '1', 'content-type': 'application/json' });
    expect(req.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('adds the storeCode parameter in multistore mode', async () => {
    const b = browser();
    const q = b.tab({ storeCode: () => 'downtown' });
    await q.queue({ url: '/api/cart/totals?cartId={{cartId}}' });
    await q.queue({ url: '/api/user/me' });
    await q.process();
    expect(b.server.sent.map((r) => r.url)).toEqual(['/api/cart/totals?cartId=cart-1&storeCode=downtown', '/api/user/me?storeCode=downtown']);
    expect(fillTaskUrl('/x?storeCode=uptown', { storeCode: 'downtown' })).toBe('/x?storeCode=uptown');
    expect(fillTaskUrl('/x#top', { storeCode: 'a b' })).toBe('/x?storeCode=a%20b#top');
    expect(fillTaskUrl('/x?token={{token}}', {})).toBe('/x?token=');
  });

  it('does not run a task that needs a cart id while there is none, and says so (spec §8)', async () => {
    const b = browser();
    b.state.cartId = null;
    const warn = vi.fn();
    const onMissingCartId = vi.fn();
    const q = b.tab({ logger: { warn }, onMissingCartId });
    const cartTask = await q.queue(post('/api/cart/update?cartId={{cartId}}', { n: 1 }));
    await q.queue(post('/api/cart/delete?cartId={{cartId}}', { n: 2 }));
    await q.queue(post('/api/user/me', { n: 3 }));
    const report = await q.process();
    expect(b.server.sent.map((r) => r.url)).toEqual(['/api/user/me']);
    expect(report.waitingForCart.map((t) => t.task_id)[0]).toBe(cartTask.task_id);
    expect(warn).toHaveBeenCalledWith(
      'Error executing sync task /api/cart/update?cartId={{cartId}} the required cartId argument is null. Re-creating shopping cart synchro.',
    );
    expect(SYNC_COPY.missingCartId('/u')).toBe('Error executing sync task /u the required cartId argument is null. Re-creating shopping cart synchro.');
    expect(onMissingCartId).toHaveBeenCalledTimes(1);
    expect(await q.pending()).toHaveLength(2);

    b.state.cartId = 'cart-9';
    await q.process();
    expect(b.server.sent.map((r) => (r.body as { n: number }).n)).toEqual([3, 1, 2]);
    expect(await q.pending()).toEqual([]);
  });

  it('keeps cacheable results in the persistent cache after the task leaves the queue', async () => {
    const b = browser(() => json({ code: 200, result: { items: [1, 2] } }));
    const cache = createPersistentCache({ backend: keyvalBackend('cache', 'keyval', b.idb), estimate: null, logger: quietLogger });
    const q = b.tab({ cache });
    const done = vi.fn();
    q.on('cart-pulled', done);
    await q.queue({ url: '/api/cart/pull?token={{token}}&cartId={{cartId}}', is_result_cacheable: true, callback_event: 'cart-pulled' });
    await q.queue({ url: '/api/cart/totals?cartId={{cartId}}' });
    await q.process();
    expect(await q.pending()).toEqual([]);
    expect(done).toHaveBeenCalledWith(expect.objectContaining({ result: { items: [1, 2] }, transmited: true }));
    const cached = await q.cachedResult({ url: '/api/cart/pull?token={{token}}&cartId={{cartId}}' });
    expect(cached).toMatchObject({ code: 200, result: { items: [1, 2] } });
    expect(await q.cachedResult({ url: '/api/cart/totals?cartId={{cartId}}' })).toBeNull();
    const kept = await cache.entries();
    expect(kept.map(([k, e]) => [k, e.o])).toEqual([['sync-result:GET /api/cart/pull?token={{token}}&cartId=cart-1', 100]]);

    // Offline, executing the same task answers from the cache.
    b.server.state.offline = true;
    const offline = await q.execute({ url: '/api/cart/pull?token={{token}}&cartId={{cartId}}', is_result_cacheable: true });
    expect(offline.outcome.kind).toBe('network');
    expect(offline.cached?.result).toEqual({ items: [1, 2] });
  });

  it("shows the server's message unless the task is silent or the code is ENOTFOUND", async () => {
    const answers: Record<string, Response> = {
      '/loud': json({ code: 500, result: 'Internal Server Error 500' }, 500),
      '/quiet': json({ code: 400, result: 'Not shown' }, 400),
      '/enotfound': json({ code: 500, result: { code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND' } }, 500),
      '/nested': json({ code: 400, result: { result: 'You\'ve entered an incorrect coupon code. Please try again.' } }, 400),
      '/ok': json({ code: 200, result: 'fine' }),
    };
    const b = browser((req) => answers[req.url]);
    const q = b.tab();
    await q.queue(post('/loud'));
    await q.queue({ ...post('/quiet'), silent: true });
    await q.queue(post('/enotfound'));
    await q.queue(post('/nested'));
    await q.queue(post('/ok'));
    const report = await q.process();
    expect(report.sent.map((t) => t.resultCode)).toEqual([500, 400, 500, 400, 200]);
    expect(b.notify.mock.calls.map(([n]) => [n.type, n.message])).toEqual([
      ['error', 'Internal Server Error 500'],
      ['error', "You've entered an incorrect coupon code. Please try again."],
    ]);
    expect(await q.pending()).toEqual([]); // answered tasks are done, whatever the answer
  });
});

describe('sync queue: failures', () => {
  it('no answer keeps the task (and everything after it) queued, then sends each once', async () => {
    const b = browser();
    const q = b.tab();
    await q.queue(post('/a'));
    await q.queue(post('/b'));
    b.server.state.offline = true;
    const report = await q.process();
    expect(report).toMatchObject({ stopped: 'network', sent: [] });
    expect((await q.pending()).map((t) => t.url)).toEqual(['/a', '/b']);

    // A gateway error or a page that is not the store's JSON is no answer either.
    b.server.state.offline = false;
    b.server.state.route = () => new Response('<html>captive portal</html>', { status: 200, headers: { 'content-type': 'text/html' } });
    expect((await q.process()).stopped).toBe('network');
    b.server.state.route = () => json({ code: 503, result: 'down' }, 503);
    expect((await q.process()).stopped).toBe('network');
    expect(await q.pending()).toHaveLength(2);

    b.server.sent.length = 0;
    b.server.state.route = () => json({ code: 200, result: true });
    await q.process();
    expect(b.server.sent.map((r) => r.url)).toEqual(['/a', '/b']);
    expect(await q.pending()).toEqual([]);
    expect(b.notify).not.toHaveBeenCalled();
  });

  it('a 401 goes through authorized(): the token is refreshed and the task sent again', async () => {
    const b = browser((req) => (req.headers.authorization === 'Bearer fresh' ? json({ code: 200, result: 'ok' }) : json({ code: 401, result: 'not authorized' }, 401)));
    const { authorized, log } = fakeAuthorized(['stale', 'fresh']);
    const q = b.tab({ authorized, token: () => 'ignored' });
    await q.queue({ url: '/api/user/me?token={{token}}', payload: { method: 'POST', body: { email: 'a@b.c' } } });
    const report = await q.process();
    expect(log.refreshes).toBe(1);
    expect(b.server.sent.map((r) => r.url)).toEqual(['/api/user/me?token=stale', '/api/user/me?token=fresh']);
    expect(report.sent[0].resultCode).toBe(200);
    expect(await q.pending()).toEqual([]);
  });

  it('a 401 after the refresh ends the pass and clears untransmitted tasks (spec §4 Token refresh)', async () => {
    const b = browser(() => json({ code: 401, result: 'not authorized' }, 401));
    const { authorized } = fakeAuthorized(['stale'], { refreshFails: true });
    const q = b.tab({ authorized });
    await q.queue(post('/a'));
    await q.queue(post('/b'));
    const report = await q.process();
    expect(report.stopped).toBe('unauthorized');
    expect(b.server.sent.map((r) => r.url)).toEqual(['/a']);
    expect(await q.pending()).toEqual([]);
  });
});

describe('sync queue: two tabs', () => {
  it('two tabs processing together send each task exactly once, in order', async () => {
    const b = browser();
    b.server.state.delayMs = 2;
    const tab1 = b.tab();
    const tab2 = b.tab();
    for (const n of [1, 2, 3, 4]) await (n % 2 ? tab1 : tab2).queue(post(`/t${n}`));
    const [r1, r2] = await Promise.all([tab1.process(), tab2.process(), tab1.process(), tab2.process()]);
    expect(b.server.sent.map((r) => r.url)).toEqual(['/t1', '/t2', '/t3', '/t4']);
    expect(r1.sent.length + r2.sent.length).toBe(4);
    expect(b.lock.held.every((n) => n === 'verdant-sync-downtown')).toBe(true);
    expect(await tab1.pending()).toEqual([]);
  });

  it('a task queued while a pass runs is sent by that pass or the next, once', async () => {
    const b = browser();
    const q = b.tab({ autoProcess: true });
    b.server.state.delayMs = 2;
    await q.queue(post('/first'));
    await tick(1);
    await q.queue(post('/second'));
    await q.process();
    await tick(20);
    expect(b.server.sent.map((r) => r.url)).toEqual(['/first', '/second']);
  });

  it('clearNotTransmitted drops only what is still queued', async () => {
    const b = browser();
    const q = b.tab();
    await q.queue(post('/a'));
    await q.process();
    await q.queue(post('/b'));
    await q.clearNotTransmitted();
    await q.process();
    expect(b.server.sent.map((r) => r.url)).toEqual(['/a']);
  });
});
