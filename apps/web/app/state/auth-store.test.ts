import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../api/envelope.ts';
import type { CurrentUser, Tokens, UserApi } from '../api/user.ts';
import { createAuthStore, tokenExpiresAt, type AuthHooks } from './auth-store.ts';
import { AUTH_COPY, TOKEN_REFRESH_WAIT_MS } from './auth-types.ts';
import type { LockRequest } from './cart-queue.ts';
import type { ListChannel, ListStorage } from './persisted.ts';
import { channelPair, memoryStorage, sharedLock } from '../../test-support/state/test-doubles.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');

/** A JWT-shaped token with a readable `exp` (the store only reads `exp`; the server verifies). */
function jwt(id: string, expMs: number): string {
  const payload = btoa(JSON.stringify({ sub: id, exp: Math.floor(expMs / 1000) })).replace(/=+$/, '');
  return `eyJhbGciOiJIUzI1NiJ9.${payload}.sig-${id}`;
}

const customer: CurrentUser = {
  id: 7, phone: '+15555550100', email: 'ana@example.com', firstname: 'Ana', lastname: 'Diaz', license_type: 'medical', birthday: '1990-01-01',
  group_id: 1, medcard_number: 'MC-1', medcard_expiry: '2027-12-31', id_verified: false, created_from: 'portal_online', credits: 12, addresses: [],
};

/**
 * The server side of the session as the store sees it: issues tokens, refuses expired ones with
 * 401, rotates refresh tokens and revokes a family on reuse (as apps/server/src/auth/tokens.ts).
 */
class FakeAuthServer {
  issued = 0;
  refreshCalls = 0;
  guestLogins: string[] = [];
  valid = new Set<string>();
  refreshTokens = new Map<string, 'live' | 'used'>();
  revoked = false;
  refreshFails: 'no' | 'refused' | 'network' | 'server' = 'no';
  refreshDelayMs = 0;

  private tokens(): Tokens {
    this.issued++;
    const token = jwt(`t${this.issued}`, NOW + 3600_000);
    const refreshToken = `r${this.issued}`;
    this.valid.add(token);
    this.refreshTokens.set(refreshToken, 'live');
    return { token, refreshToken };
  }
  expireAll() {
    this.valid.clear();
  }
  private check(token: string) {
    if (!this.valid.has(token)) throw new ApiError(401, 'Token expired');
  }

  api(): UserApi {
    const self = this;
    const unused = () => Promise.reject(new Error('not used in this test'));
    return {
      loginGuest: async (licenseType) => {
        self.guestLogins.push(licenseType);
        return self.tokens();
      },
      sendCode: async () => ({ demoCode: '123456' }),
      confirmCode: async (phone, code) => {
        if (code !== '123456') throw new ApiError(400, 'The code is wrong.');
        if (phone === '+15555550199') return { kind: 'needs', needs: ['license_type', 'birthday'], pendingToken: 'pending' };
        return { kind: 'tokens', tokens: self.tokens() };
      },
      completeLicense: async () => self.tokens(),
      loginWithPassword: async () => self.tokens(),
      startRegistration: async () => ({ demoCode: '123456' }),
      register: async () => self.tokens(),
      refresh: async (refreshToken) => {
        self.refreshCalls++;
        if (self.refreshDelayMs) await new Promise((r) => setTimeout(r, self.refreshDelayMs));
        if (self.refreshFails === 'network') throw new NetworkError();
        if (self.refreshFails === 'server') throw new ApiError(500, 'boom');
        if (self.refreshFails === 'refused' || self.revoked) throw new ApiError(401, 'Refresh token invalid');
        const state = self.refreshTokens.get(refreshToken);
        if (state !== 'live') {
          // Reuse of a rotated token: the whole family is revoked.
          self.revoked = true;
          throw new ApiError(401, 'Refresh token reused');
        }
        self.refreshTokens.set(refreshToken, 'used');
        return self.tokens();
      },
      me: async (token) => {
        self.check(token);
        return structuredClone(customer);
      },
      updateMe: async (token, patch) => {
        self.check(token);
        return { ...structuredClone(customer), ...(patch.email ? { email: patch.email } : {}) };
      },
      deleteAddress: unused,
    };
  }
}

function setup(server = new FakeAuthServer(), extra: { storage?: ListStorage; channel?: ListChannel | null; lock?: LockRequest | null; hooks?: AuthHooks } = {}) {
  const events: string[] = [];
  const sleeps: number[] = [];
  const store = createAuthStore({
    storeCode: 'downtown',
    storeId: 1,
    api: server.api(),
    storage: extra.storage ?? memoryStorage(),
    channel: extra.channel ?? null,
    lock: extra.lock ?? null,
    licenseType: () => 'recreational',
    now: () => NOW,
    sleep: async (ms) => {
      sleeps.push(ms);
      await new Promise((r) => setTimeout(r, 1));
    },
    hooks: extra.hooks ?? {
      onLogin: (u) => void events.push(`login:${u.id}`),
      onLogout: () => void events.push('logout'),
      onSessionLost: () => void events.push('session-lost'),
      notify: (n) => void events.push(`${n.type}:${n.message}`),
    },
  });
  return { store, server, events, sleeps };
}

async function loggedIn(s = setup()) {
  await s.store.getState().load();
  await s.store.getState().sendCode('+15555550100');
  const step = await s.store.getState().confirmCode('+15555550100', '123456');
  expect(step.kind).toBe('logged-in');
  return s;
}

describe('tokenExpiresAt', () => {
  it('reads exp of a JWT and gives null for anything else', () => {
    expect(tokenExpiresAt(jwt('a', NOW + 5000))).toBe(Math.floor((NOW + 5000) / 1000) * 1000);
    expect(tokenExpiresAt('not-a-jwt')).toBeNull();
    expect(tokenExpiresAt('a.%%%.c')).toBeNull();
  });
});

describe('login and logout (spec §4 Login)', () => {
  it('starts as a local guest with the shopper licence, without a server call', async () => {
    const { store, server } = setup();
    await store.getState().load();
    expect(store.getState()).toMatchObject({ loaded: true, user: null, token: null, guest: { isGuest: true, license_type: 'recreational', order_type: 'pickup' } });
    expect(server.guestLogins).toEqual([]);
  });

  it('confirming the code logs in, merges the cart (onLogin) and says so', async () => {
    const { store, events } = await loggedIn();
    expect(store.getState().user?.id).toBe(7);
    expect(store.getState().guest).toBeNull();
    expect(store.getState().refreshLock).toBe(0);
    expect(events).toEqual(['login:7', `success:${AUTH_COPY.loggedIn}`]);
  });

  it('a new phone is asked for licence and birthday before it is logged in', async () => {
    const { store, events } = setup();
    await store.getState().load();
    const step = await store.getState().confirmCode('+15555550199', '123456');
    expect(step).toEqual({ kind: 'needs-license', pendingToken: 'pending', needs: ['license_type', 'birthday'] });
    expect(store.getState().user).toBeNull();
    const user = await store.getState().completeLicense({ phone: '+15555550199', licenseType: 'medical', birthday: '1990-01-01', pendingToken: 'pending' });
    expect(user.id).toBe(7);
    expect(events[0]).toBe('login:7');
  });

  it('a failed step clears the user and rethrows', async () => {
    const s = await loggedIn();
    await expect(s.store.getState().confirmCode('+15555550100', '000000')).rejects.toThrow('The code is wrong.');
    expect(s.store.getState().user).toBeNull();
  });

  it('a login whose profile read fails (after the 200) leaves nobody logged in', async () => {
    const api = new FakeAuthServer().api();
    api.me = async () => {
      throw new ApiError(500, 'down');
    };
    const broken = createAuthStore({ storeCode: 'x', api, storage: null, channel: null, lock: null, licenseType: () => 'medical' });
    await expect(broken.getState().confirmCode('+15555550100', '123456')).rejects.toThrow('down');
    expect(broken.getState().user).toBeNull();
  });

  it('logout clears the cart and user, then logs in as a guest with the same licence type', async () => {
    const s = await loggedIn();
    s.events.length = 0;
    await s.store.getState().logout();
    expect(s.store.getState().user).toBeNull();
    expect(s.store.getState().guest).toEqual({ isGuest: true, license_type: 'medical', order_type: 'pickup' });
    expect(s.server.guestLogins).toEqual(['medical']);
    expect(s.store.getState().token).toMatch(/^eyJ/);
    expect(s.events).toEqual(['logout', `success:${AUTH_COPY.loggedOut}`]);
  });

  it('logout while offline still ends the customer session locally', async () => {
    const api = new FakeAuthServer().api();
    api.loginGuest = async () => {
      throw new NetworkError();
    };
    const offline = createAuthStore({ storeCode: 'y', api, storage: null, channel: null, lock: null, licenseType: () => 'recreational' });
    await offline.getState().confirmCode('+15555550100', '123456');
    await offline.getState().logout({ silent: true });
    expect(offline.getState()).toMatchObject({ user: null, token: null, refreshToken: null, guest: { license_type: 'medical' } });
  });

  it('the session survives a reload (IndexedDB) and a second tab adopts a login', async () => {
    const storage = memoryStorage();
    const [a, b] = channelPair();
    const server = new FakeAuthServer();
    const tab1 = setup(server, { storage, channel: a });
    const tab2 = setup(server, { storage, channel: b });
    await tab2.store.getState().load();
    await loggedIn(tab1);
    await new Promise((r) => setTimeout(r, 5));
    expect(tab2.store.getState().user?.id).toBe(7);
    const reloaded = setup(server, { storage });
    await reloaded.store.getState().load();
    expect(reloaded.store.getState().user?.email).toBe('ana@example.com');
  });
});

describe('token refresh lock (spec §4 Token refresh)', () => {
  it('0 normally; a 401 refreshes once (lock above 0 meanwhile) and the call is retried with the new token', async () => {
    const s = await loggedIn();
    const old = s.store.getState().token!;
    s.server.expireAll();
    const seen: number[] = [];
    const unsubscribe = s.store.subscribe((st) => seen.push(st.refreshLock));
    const user = await s.store.getState().authorized((t) => s.server.api().me(t));
    unsubscribe();
    expect(user.id).toBe(7);
    expect(s.store.getState().token).not.toBe(old);
    expect(s.server.refreshCalls).toBe(1);
    expect(seen.some((v) => v > 0)).toBe(true);
    expect(s.store.getState().refreshLock).toBe(0);
  });

  it('other callers wait (1 s steps) while a refresh runs, then use its token: one refresh for all', async () => {
    const s = await loggedIn();
    s.server.expireAll();
    s.server.refreshDelayMs = 20;
    const api = s.server.api();
    const results = await Promise.all([1, 2, 3].map(() => s.store.getState().authorized((t) => api.me(t))));
    expect(results.map((u) => u.id)).toEqual([7, 7, 7]);
    expect(s.server.refreshCalls).toBe(1);
    expect(s.server.revoked).toBe(false);
    expect(s.sleeps.length).toBeGreaterThan(0);
    expect(new Set(s.sleeps)).toEqual(new Set([TOKEN_REFRESH_WAIT_MS]));
  });

  it('-1 when the refresh is refused: silent logout, untransmitted tasks dropped, login dialog, the spec notice; waiting callers abort with 401', async () => {
    const s = await loggedIn();
    s.events.length = 0;
    s.server.expireAll();
    s.server.refreshFails = 'refused';
    const locks: number[] = [];
    s.store.subscribe((st) => locks.push(st.refreshLock));
    await expect(s.store.getState().authorized((t) => s.server.api().me(t))).rejects.toMatchObject({ status: 401 });
    expect(locks).toContain(-1);
    expect(s.events).toEqual(['session-lost', 'logout', `error:${AUTH_COPY.sessionExpired}`]);
    expect(s.store.getState().user).toBeNull();
    expect(s.store.getState().dialog).toBe('login');
    // Back to a guest session with a working token: the lock is 0 again.
    expect(s.store.getState().refreshLock).toBe(0);
  });

  it('a caller arriving while the lock is -1 aborts with 401 at once', async () => {
    const s = setup();
    await s.store.getState().load();
    s.store.setState({ refreshLock: -1 });
    let called = false;
    await expect(
      s.store.getState().authorized(async () => {
        called = true;
      }),
    ).rejects.toMatchObject({ status: 401, message: AUTH_COPY.refreshUnauthorized });
    expect(called).toBe(false);
  });

  it('no answer while refreshing is not a lost session: the customer stays, the lock returns to 0', async () => {
    const s = await loggedIn();
    s.server.expireAll();
    s.server.refreshFails = 'network';
    await expect(s.store.getState().authorized((t) => s.server.api().me(t))).rejects.toBeInstanceOf(NetworkError);
    expect(s.store.getState().user?.id).toBe(7);
    expect(s.store.getState().refreshLock).toBe(0);
  });

  it('a server fault while refreshing ends the session too (the refresh token state is unknown)', async () => {
    const s = await loggedIn();
    s.server.expireAll();
    s.server.refreshFails = 'server';
    await expect(s.store.getState().authorized((t) => s.server.api().me(t))).rejects.toMatchObject({ status: 401 });
    expect(s.store.getState().user).toBeNull();
  });

  it('two tabs hitting a 401 together refresh once (Web Lock + adopt), so the family is never revoked', async () => {
    const storage = memoryStorage();
    const [a, b] = channelPair();
    const lock = sharedLock();
    const server = new FakeAuthServer();
    const tab1 = setup(server, { storage, channel: a, lock });
    const tab2 = setup(server, { storage, channel: b, lock });
    await tab2.store.getState().load();
    await loggedIn(tab1);
    await new Promise((r) => setTimeout(r, 5));
    server.expireAll();
    const api = server.api();
    const [u1, u2] = await Promise.all([tab1.store.getState().authorized((t) => api.me(t)), tab2.store.getState().authorized((t) => api.me(t))]);
    expect([u1.id, u2.id]).toEqual([7, 7]);
    expect(server.refreshCalls).toBe(1);
    expect(server.revoked).toBe(false);
    expect(tab1.store.getState().user?.id).toBe(7);
    expect(tab2.store.getState().user?.id).toBe(7);
  });

  it('a token about to expire is renewed before it is used', async () => {
    const server = new FakeAuthServer();
    const storage = memoryStorage();
    const s = setup(server, { storage });
    await loggedIn(s);
    s.store.setState({ token: jwt('old', NOW + 10_000) });
    server.valid.add(s.store.getState().token!);
    let used = '';
    await s.store.getState().authorized(async (t) => {
      used = t;
    });
    expect(server.refreshCalls).toBe(1);
    expect(used).not.toBe(jwt('old', NOW + 10_000));
  });

  it('a guest without a token gets one on first need (guest login for its licence)', async () => {
    const s = setup();
    await s.store.getState().load();
    const token = await s.store.getState().authorized(async (t) => t);
    expect(token).toMatch(/^eyJ/);
    expect(s.server.guestLogins).toEqual(['recreational']);
  });

  it('profile updates go through the same refresh', async () => {
    const s = await loggedIn();
    s.server.expireAll();
    const user = await s.store.getState().updateMe({ email: 'new@example.com' });
    expect(user.email).toBe('new@example.com');
    expect(s.store.getState().user?.email).toBe('new@example.com');
    expect(s.server.refreshCalls).toBe(1);
  });
});
