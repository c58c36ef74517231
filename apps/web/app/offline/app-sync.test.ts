/**
 * The app's wiring of the sync queue (app-sync.ts): the real session store (auth-store.ts) with a
 * fake store server behind both its user calls and the tasks' fetch; fake-indexeddb for the queue
 * and the persistent cache.
 */
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/envelope.ts';
import type { CurrentUser, Tokens, UserApi } from '../api/user.ts';
import { createAuthStore } from '../state/auth-store.ts';
import { AUTH_COPY } from '../state/auth-types.ts';
import { memoryStorage } from '../../test-support/state/test-doubles.ts';
import { accountTask, OFFLINE_WRITE_COPY, pendingSubscription, pendingWritesOf } from './account-writes.ts';
import { createAppSync, SENT_COPY, type AppSync } from './app-sync.ts';
import { keyvalBackend } from './idb-store.ts';
import { createPersistentCache, ORDINAL_KEEP } from './persistent-cache.ts';
import { createTask } from './sync-task.ts';
import { fakeServer, json, quietLogger, sharedLocks, tick, type SentRequest } from '../../test-support/offline/test-kit.ts';

const customer = (id = 7): CurrentUser => ({
  id, phone: '+15555550100', email: 'ana@example.com', firstname: 'Ana', lastname: 'Diaz', license_type: 'recreational', birthday: '1990-01-01',
  group_id: 1, medcard_number: null, medcard_expiry: null, id_verified: false, created_from: 'portal_online', credits: 0, addresses: [],
});

/** The store: tokens it accepts, the customer's data, the newsletter; answers the user API and task requests alike. */
class Store {
  issued = 0;
  valid = new Set<string>();
  refreshCalls = 0;
  refuseRefresh = false;
  user = customer();
  subscribed = false;
  writes: SentRequest[] = [];

  tokens(): Tokens {
    this.issued++;
    const t = { token: `t${this.issued}`, refreshToken: `r${this.issued}` };
    this.valid.add(t.token);
    return t;
  }
  authOk(req: SentRequest): boolean {
    return this.valid.has((req.headers.authorization ?? '').replace(/^Bearer /, ''));
  }
  route = (req: SentRequest): Response => {
    const path = new URL(req.url, 'http://downtown.localhost').pathname;
    if (path === '/api/newsletter' && req.method === 'GET') return json({ code: 200, result: { isSubscribed: this.subscribed } });
    if (!this.authOk(req)) return json({ code: 401, result: 'Token expired' }, 401);
    this.writes.push(req);
    if (path === '/api/newsletter') {
      this.subscribed = req.method === 'POST';
      return json({ code: 200, result: { isSubscribed: this.subscribed, skipped: false } });
    }
    if (path === '/api/user/me') {
      const body = req.body as { email?: string; addresses?: { street: string; city: string; postcode: string }[] };
      if (body.email === 'taken@example.com') return json({ code: 400, result: 'A customer with the same email already exists in an associated website.' }, 400);
      if (body.email) this.user.email = body.email;
      for (const a of body.addresses ?? []) this.user.addresses.push({ id: this.user.addresses.length + 1, title: null, firstname: null, lastname: null, house_number: null, apt_ste: null, region: null, country_id: 'US', phone: null, lat: null, lng: null, is_default: false, ...a });
      return json({ code: 200, result: this.user });
    }
    return json({ code: 404, result: 'No API endpoint' }, 404);
  };
  api(): UserApi {
    const unused = () => Promise.reject(new Error('not used'));
    const check = (t: string) => {
      if (!this.valid.has(t)) throw new ApiError(401, 'Token expired');
    };
    return {
      loginGuest: async () => this.tokens(),
      sendCode: async () => ({ demoCode: '123456' }),
      confirmCode: async () => ({ kind: 'tokens', tokens: this.tokens() }),
      completeLicense: unused, loginWithPassword: unused, startRegistration: unused, register: unused,
      refresh: async (refreshToken) => {
        this.refreshCalls++;
        if (this.refuseRefresh || !refreshToken) throw new ApiError(401, 'Refresh token invalid');
        return this.tokens();
      },
      me: async (t) => (check(t), structuredClone(this.user)),
      updateMe: unused, deleteAddress: unused,
    };
  }
}

/** One browser: one IndexedDB, one lock manager, one network switch; `tab()` opens a page (a reload is a new tab). */
function browser() {
  const idb = new IDBFactory();
  const store = new Store();
  const net = fakeServer(store.route);
  const lock = sharedLocks();
  const authStorage = memoryStorage();
  const notices: { type: string; message: string }[] = [];
  const notify = (n: { type: string; message: string }) => void notices.push({ type: n.type, message: n.message });
  const tab = () => {
    let app: AppSync | null = null;
    const auth = createAuthStore({
      storeCode: 'downtown', storeId: 1, api: store.api(), storage: authStorage, channel: null, lock: null,
      licenseType: () => 'recreational', sleep: async () => void (await tick(1)),
      hooks: { notify, onSessionLost: () => app?.clear(), onLogout: () => app?.clear() },
    });
    const cache = createPersistentCache({ backend: keyvalBackend('verdant-cache-downtown', 'keyval', idb), estimate: null, logger: quietLogger });
    app = createAppSync({
      name: 'downtown', auth, cache, storeCode: 'downtown', lock, channel: null, notify, logger: quietLogger,
      backend: keyvalBackend('verdant-sync-downtown', 'tasks', idb), fetch: net.fetch, online: () => !net.state.offline,
    });
    return { app, auth, cache };
  };
  return { idb, store, net, lock, notices, tab };
}

async function logIn(t: { auth: ReturnType<typeof createAuthStore> }) {
  await t.auth.getState().load();
  await t.auth.getState().sendCode('+15555550100');
  await t.auth.getState().confirmCode('+15555550100', '123456');
  expect(t.auth.getState().user?.id).toBe(7);
}

describe('app sync: account writes queued offline (issue 6)', () => {
  it('keeps an offline write across a reload and sends it once, as the customer, when back online', async () => {
    const b = browser();
    const first = b.tab();
    await logIn(first);
    b.net.state.offline = true;
    await first.app.queueWrite({ kind: 'newsletter', email: 'ana@example.com', subscribe: true });
    expect(b.notices).toContainEqual({ type: 'info', message: OFFLINE_WRITE_COPY.queued });
    expect(b.store.writes).toHaveLength(0);

    const reloaded = b.tab(); // still offline: a new page over the same IndexedDB
    expect(pendingSubscription(await reloaded.app.pendingWrites(), 'ana@example.com')).toBe(true);
    expect(await reloaded.app.process()).toBeNull(); // offline: no pass is tried

    b.net.state.offline = false;
    const [a, c] = await Promise.all([reloaded.app.process(), first.app.process()]);
    expect([...(a?.sent ?? []), ...(c?.sent ?? [])]).toHaveLength(1);
    expect(b.store.writes).toHaveLength(1);
    const [req] = b.store.writes;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/api/newsletter?storeCode=downtown');
    expect(req.headers.authorization).toBe(`Bearer ${reloaded.auth.getState().token}`);
    expect(req.headers['idempotency-key']).toMatch(/.+/);
    expect(b.store.subscribed).toBe(true);
    expect(await reloaded.app.pendingWrites()).toEqual([]);
    expect(b.notices).toContainEqual({ type: 'success', message: SENT_COPY.subscribed });
  });

  it('reads the customer again after their address or e-mail went out; a refusal shows the store’s words', async () => {
    const b = browser();
    const t = b.tab();
    await logIn(t);
    b.net.state.offline = true;
    await t.app.queueWrite({ kind: 'address', address: { street: 'Main St', city: 'Sacramento', postcode: '95814' } });
    await t.app.queueWrite({ kind: 'email', email: 'taken@example.com' });
    const pending = await t.app.pendingWrites();
    expect(pending.map((p) => p.write.kind)).toEqual(['address', 'email']);
    const heard = vi.fn();
    t.app.subscribe(heard);

    b.net.state.offline = false;
    const report = await t.app.process();
    expect(report?.sent.map((s) => s.resultCode)).toEqual([200, 400]);
    expect(t.auth.getState().user?.addresses.map((a) => a.street)).toEqual(['Main St']);
    expect(b.notices).toContainEqual({ type: 'success', message: AUTH_COPY.accountUpdated });
    expect(b.notices).toContainEqual({ type: 'error', message: 'A customer with the same email already exists in an associated website.' });
    expect(heard).toHaveBeenCalled();
    expect(await t.app.pendingWrites()).toEqual([]);
  });

  it('tells the page which tasks went out in the same update that brings the customer read again (no saved + waiting copy at once)', async () => {
    const b = browser();
    const t = b.tab();
    await logIn(t);
    b.net.state.offline = true;
    const task = await t.app.queueWrite({ kind: 'address', address: { street: 'Main St', city: 'Sacramento', postcode: '95814' } });
    // What a page shows: the customer's saved streets and the ids still waiting, as each listener call sees them.
    const seen: { saved: string[]; sent: readonly string[] | undefined }[] = [];
    t.app.subscribe((sent) => seen.push({ saved: (t.auth.getState().user?.addresses ?? []).map((a) => a.street), sent }));

    b.net.state.offline = false;
    await t.app.process();
    // The first call comes while the store's copy of the customer already holds the address: the waiting copy goes in the same render.
    expect(seen[0]).toEqual({ saved: ['Main St'], sent: [task.task_id] });
    expect(seen.every((s) => s.sent?.includes(task.task_id))).toBe(true);
    expect(await t.app.pendingWrites()).toEqual([]);
  });

  it('a 401 on a task refreshes the token once through the session’s lock, then sends the task again', async () => {
    const b = browser();
    const t = b.tab();
    await logIn(t);
    b.net.state.offline = true;
    await t.app.queueWrite({ kind: 'newsletter', email: 'ana@example.com', subscribe: true });
    await t.app.queueWrite({ kind: 'newsletter', email: 'ana@example.com', subscribe: false });
    b.store.valid.clear(); // the access token expired meanwhile
    b.net.state.offline = false;
    const report = await t.app.process();
    expect(report?.sent).toHaveLength(2);
    expect(b.store.refreshCalls).toBe(1);
    expect(t.auth.getState().refreshLock).toBe(0);
    expect(b.store.writes.map((w) => w.method)).toEqual(['POST', 'DELETE']);
    expect(b.store.subscribed).toBe(false);
  });

  it('a refused refresh is the session lost: the customer is logged out and the untransmitted tasks are cleared', async () => {
    const b = browser();
    const t = b.tab();
    await logIn(t);
    b.net.state.offline = true;
    await t.app.queueWrite({ kind: 'newsletter', email: 'ana@example.com', subscribe: true });
    await t.app.queueWrite({ kind: 'email', email: 'new@example.com' });
    b.store.valid.clear();
    b.store.refuseRefresh = true;
    b.net.state.offline = false;
    const report = await t.app.process();
    expect(report?.stopped).toBe('unauthorized');
    expect(b.store.refreshCalls).toBe(1);
    expect(b.store.writes).toHaveLength(0);
    expect(t.auth.getState().user).toBeNull();
    expect(b.notices).toContainEqual({ type: 'error', message: AUTH_COPY.sessionExpired });
    expect(await t.app.queue.pending()).toEqual([]);
  });

  it('never sends a task of another customer with the current token, nor any task without a customer', async () => {
    const b = browser();
    const t = b.tab();
    await logIn(t);
    // A task another customer left (their logout never ran: the browser was closed).
    const backend = keyvalBackend('verdant-sync-downtown', 'tasks', b.idb);
    const foreign = createTask(accountTask({ kind: 'email', email: 'other@example.com' }, 99), Date.now() - 1000);
    await backend.set(foreign.task_id, foreign);
    await t.app.process();
    expect(b.store.writes).toHaveLength(0);
    expect(await t.app.queue.pending()).toEqual([]);

    b.net.state.offline = true;
    await t.app.queueWrite({ kind: 'newsletter', email: 'ana@example.com', subscribe: true });
    await t.auth.getState().logout({ silent: true }); // the logout hook clears what the customer left
    b.net.state.offline = false;
    expect(await t.app.process()).toBeNull();
    expect(await t.app.queue.pending()).toEqual([]);
    expect(b.store.writes).toHaveLength(0);
    await expect(t.app.queueWrite({ kind: 'newsletter', email: 'x@example.com', subscribe: true })).rejects.toThrow(AUTH_COPY.loginRequired);
  });

  it('online with writes still waiting, a new write queues behind them instead of overtaking them', async () => {
    const b = browser();
    const t = b.tab();
    await logIn(t);
    b.net.state.delayMs = 5;
    b.net.state.offline = true;
    await t.app.queueWrite({ kind: 'newsletter', email: 'ana@example.com', subscribe: true });
    b.net.state.offline = false;
    await t.app.queueWrite({ kind: 'newsletter', email: 'ana@example.com', subscribe: false });
    await t.app.process();
    await tick(30);
    expect(b.store.writes.map((w) => w.method)).toEqual(['POST', 'DELETE']);
    expect(b.store.subscribed).toBe(false);
  });
});

describe('app sync: cacheable results in the persistent cache', () => {
  it('the newsletter state read online is kept (ordinal kept) and answers offline, through a quota purge', async () => {
    const b = browser();
    const t = b.tab();
    await logIn(t);
    b.store.subscribed = true;
    expect(await t.app.newsletterStatus('ana@example.com')).toEqual({ isSubscribed: true, cachedAt: null });
    const entries = await t.cache.entries();
    const kept = entries.find(([k]) => k.startsWith('sync-result:GET /api/newsletter?email=ana%40example.com'));
    expect(kept?.[1].o).toBeGreaterThanOrEqual(ORDINAL_KEEP);

    // Over quota: expendable entries go, the kept result stays.
    await t.cache.set('search:flower', { items: [] });
    const purging = createPersistentCache({ backend: keyvalBackend('verdant-cache-downtown', 'keyval', b.idb), estimate: async () => ({ usage: 2e9, quota: 1e9 }), logger: quietLogger });
    expect(await purging.checkQuota()).toBe(1);

    b.net.state.offline = true;
    const offline = await b.tab().app.newsletterStatus('ana@example.com');
    expect(offline.isSubscribed).toBe(true);
    expect(offline.cachedAt).toEqual(expect.any(Number));
    // Nothing kept for another address: the store could not be reached.
    await expect(t.app.newsletterStatus('else@example.com')).rejects.toThrow('The store could not be reached.');
  });

  it('clear() drops the kept task results with the tasks (logout, session lost)', async () => {
    const b = browser();
    const t = b.tab();
    await logIn(t);
    await t.app.newsletterStatus('ana@example.com');
    await t.cache.set('catalog', { kept: true }, { ordinal: ORDINAL_KEEP });
    await t.app.clear();
    expect((await t.cache.entries()).map(([k]) => k)).toEqual(['catalog']);
  });
});

describe('account writes (pure)', () => {
  it('are tasks with the customer in meta; pending ones are read back for that customer only', () => {
    const now = 1_700_000_000_000;
    const mine = createTask(accountTask({ kind: 'address-remove', id: 3 }, 7), now);
    const theirs = createTask(accountTask({ kind: 'newsletter', email: 'a@b.c', subscribe: true }, 8), now + 1);
    const other = createTask({ url: '/api/cart/update?cartId={{cartId}}' }, now + 2);
    expect(mine.url).toBe('/api/user/me/addresses/3');
    expect(mine.payload.method).toBe('DELETE');
    expect(pendingWritesOf([mine, theirs, other], 7).map((p) => p.write)).toEqual([{ kind: 'address-remove', id: 3 }]);
    expect(pendingWritesOf([mine], null)).toEqual([]);
  });

  it('the newsletter shows what was asked last', () => {
    const w = (subscribe: boolean, email = 'a@b.c') => ({ taskId: String(Math.random()), createdAt: 0, write: { kind: 'newsletter' as const, email, subscribe } });
    expect(pendingSubscription([], 'a@b.c')).toBeNull();
    expect(pendingSubscription([w(true), w(false)], 'a@b.c')).toBe(false);
    expect(pendingSubscription([w(true, 'x@y.z')], 'a@b.c')).toBeNull();
  });
});
