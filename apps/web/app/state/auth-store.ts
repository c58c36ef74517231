/**
 * The shopper's session (spec §3 User, §4 Login, Logout, Token refresh): a Zustand store persisted
 * to IndexedDB per store code and mirrored across tabs, like the cart.
 *
 * Tokens: a 1-hour access token and a rotating refresh token (apps/server/src/auth/tokens.ts). A
 * refresh token may be used once — a second use revokes its family — so refreshing is guarded
 * twice: inside the tab by the refresh lock of spec §4 (0 normal; above 0 while a refresh runs and
 * other callers wait TOKEN_REFRESH_WAIT_MS and look again; -1 failed, callers give up with 401),
 * and across tabs by a Web Lock, inside which the tab first adopts what another tab may already
 * have stored: two tabs hitting a 401 together refresh once.
 *
 * Decisions the spec leaves open (written down here, where the next person looks):
 *  - No answer at all while refreshing (offline) is not a failed refresh: the session stays and
 *    the call fails as a network error. Only the server refusing the refresh token ends it.
 *  - The guest session is local until a call needs a token (no server round trip per visitor);
 *    logout logs in as a guest on the server at once, as spec §4 says.
 *  - An access token about to expire (under a minute left) is refreshed before use, so the cart,
 *    which treats a stale token as a guest, never loses the customer (and their medical card).
 */
import type { LicenseType } from '@verdant/domain';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CurrentUser, Tokens, UserApi } from '../api/user.ts';
import { ApiError, NetworkError } from '../api/envelope.ts';
import type { LockRequest } from './cart-queue.ts';
import type { NotificationInput } from './notifications.ts';
import { createMirror, stateKey, type ListChannel, type ListStorage, type Revisioned } from './persisted.ts';
import {
  AUTH_COPY,
  TOKEN_REFRESH_MAX_ATTEMPTS,
  TOKEN_REFRESH_WAIT_MS,
  type AuthState,
  type GuestSession,
  type LoginStep,
} from './auth-types.ts';

export interface AuthData extends Revisioned {
  token: string | null;
  refreshToken: string | null;
  user: CurrentUser | null;
  guest: GuestSession | null;
}

export interface AuthHooks {
  /** A customer logged in: merge the guest cart into theirs, adopt their licence type. */
  onLogin?(user: CurrentUser): Promise<void> | void;
  /** The customer logged out (or lost the session): clear the cart without a sync. */
  onLogout?(): Promise<void> | void;
  /** The session was lost after a failed refresh: drop untransmitted sync tasks (spec §4). */
  onSessionLost?(): Promise<void> | void;
  notify?(notice: NotificationInput): void;
}

export interface AuthStoreOptions {
  storeCode: string;
  storeId?: number;
  api: UserApi;
  storage: ListStorage | null;
  channel: ListChannel | null;
  lock: LockRequest | null;
  /** The licence type the shopper browses with (a guest session is for it). */
  licenseType(): LicenseType;
  hooks?: AuthHooks;
  now?(): number;
  sleep?(ms: number): Promise<void>;
}

/** Refresh an access token with less than this left before using it. */
export const TOKEN_EARLY_REFRESH_MS = 60_000;

const EMPTY: AuthData = { rev: 0, token: null, refreshToken: null, user: null, guest: null };

/** The `exp` of a JWT in ms, or null when the token is not a readable JWT (then the server decides). */
export function tokenExpiresAt(token: string): number | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

function sanitizeAuthData(value: unknown): AuthData | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Partial<AuthData>;
  const str = (x: unknown) => (typeof x === 'string' && x.length > 0 ? x : null);
  const user = v.user && typeof v.user === 'object' && typeof (v.user as CurrentUser).id === 'number' ? (v.user as CurrentUser) : null;
  const guest =
    v.guest && typeof v.guest === 'object' && (v.guest.license_type === 'recreational' || v.guest.license_type === 'medical')
      ? { isGuest: true as const, license_type: v.guest.license_type, order_type: v.guest.order_type === 'delivery' ? ('delivery' as const) : ('pickup' as const) }
      : null;
  return { rev: typeof v.rev === 'number' ? v.rev : 0, token: str(v.token), refreshToken: str(v.refreshToken), user, guest };
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createAuthStore(o: AuthStoreOptions): StoreApi<AuthState> {
  const now = o.now ?? (() => Date.now());
  const sleep = o.sleep ?? realSleep;
  const mirror = createMirror<AuthData>({ key: stateKey(o.storeCode, 'auth'), storage: o.storage, channel: o.channel, sanitize: sanitizeAuthData });
  const lockName = `verdant-auth-${o.storeCode}`;
  const withLock = <T>(fn: () => Promise<T>) => (o.lock ? o.lock(lockName, fn) : fn());
  let loading: Promise<void> | null = null;

  const store = createStore<AuthState>()((set, get) => {
    const dataOf = (s: AuthState): AuthData => ({ rev: s.rev, token: s.token, refreshToken: s.refreshToken, user: s.user, guest: s.guest });
    const save = () => {
      set({ rev: get().rev + 1 });
      return mirror.write(dataOf(get()));
    };
    const adopt = async () => {
      const stored = await mirror.read();
      if (stored && stored.rev > get().rev) set(stored as Partial<AuthState>);
    };
    const guestFor = (licenseType: LicenseType): GuestSession => ({ isGuest: true, license_type: licenseType, order_type: get().guest?.order_type ?? 'pickup' });
    // A guest's licence is whatever the shopper browses with now (the header switcher changes it).
    const sessionLicense = (): LicenseType => get().user?.license_type ?? o.licenseType();

    /** Tokens of a customer login: read the customer, store the session, merge the cart. */
    async function becomeCustomer(tokens: Tokens): Promise<CurrentUser> {
      let user: CurrentUser;
      try {
        user = await o.api.me(tokens.token);
      } catch (e) {
        // Spec §4: a login failure after a 200 result clears the current user.
        set({ user: null });
        throw e;
      }
      set({ ...tokens, user, guest: null, refreshLock: 0 });
      await save();
      await o.hooks?.onLogin?.(user);
      o.hooks?.notify?.({ type: 'success', message: AUTH_COPY.loggedIn });
      return user;
    }

    /** A failed login step clears the user and rethrows (spec §4). */
    async function step<T>(run: () => Promise<T>): Promise<T> {
      try {
        return await run();
      } catch (e) {
        if (get().user) {
          set({ user: null });
          await save();
        }
        throw e;
      }
    }

    async function loginGuestNow(licenseType: LicenseType): Promise<string> {
      const tokens = await o.api.loginGuest(licenseType, o.storeId);
      set({ ...tokens, user: null, guest: guestFor(licenseType), refreshLock: 0 });
      await save();
      return tokens.token;
    }

    /** The session ended against the shopper's will (refresh refused): spec §4's silent logout. */
    async function sessionLost(message: string): Promise<void> {
      await o.hooks?.onSessionLost?.();
      await get().logout({ silent: true });
      o.hooks?.notify?.({ type: 'error', message: AUTH_COPY.sessionExpired, action1: { label: 'OK' } });
      if (message !== AUTH_COPY.sessionExpired) console.warn(message);
      set({ dialog: 'login' });
    }

    /**
     * One refresh for everyone who saw `stale` fail. Resolves with the token to use, or null when
     * the session ended. Throws NetworkError when the server could not be reached.
     */
    async function refreshSession(stale: string | null): Promise<string | null> {
      if (get().refreshLock > 0) {
        while (get().refreshLock > 0) await sleep(TOKEN_REFRESH_WAIT_MS);
        return get().refreshLock === -1 ? null : get().token;
      }
      set({ refreshLock: get().refreshLock + 1 });
      try {
        const token = await withLock(async () => {
          await adopt();
          if (get().token && get().token !== stale) return get().token!;
          const refreshToken = get().refreshToken;
          if (!refreshToken) throw new ApiError(401, AUTH_COPY.refreshUnauthorized);
          const tokens = await o.api.refresh(refreshToken, get().user ? undefined : sessionLicense());
          set(tokens);
          await save();
          return tokens.token;
        });
        set({ refreshLock: 0 });
        return token;
      } catch (e) {
        if (e instanceof NetworkError) {
          set({ refreshLock: 0 });
          throw e;
        }
        set({ refreshLock: -1 });
        const message = e instanceof ApiError && e.status < 500 ? AUTH_COPY.refreshUnauthorized : AUTH_COPY.refreshInternal;
        await sessionLost(message);
        return null;
      }
    }

    /** A token to send now: a guest session is made on first need; a token about to expire is renewed first. */
    async function currentToken(): Promise<string> {
      const token = get().token;
      if (!token) return loginGuestNow(sessionLicense());
      const exp = tokenExpiresAt(token);
      if (exp != null && exp - now() < TOKEN_EARLY_REFRESH_MS) {
        const fresh = await refreshSession(token);
        if (!fresh) throw new ApiError(401, AUTH_COPY.refreshUnauthorized);
        return fresh;
      }
      return token;
    }

    return {
      ...EMPTY,
      loaded: false,
      refreshLock: 0,
      dialog: null,
      openDialog: (dialog) => set({ dialog }),
      closeDialog: () => set({ dialog: null }),

      load: () => {
        loading ??= (async () => {
          const stored = await mirror.read();
          set({ ...(stored ?? {}), loaded: true } as Partial<AuthState>);
          if (!get().user && !get().guest) set({ guest: guestFor(o.licenseType()) });
          if (get().user && get().token) {
            // The stored customer may be stale (points, addresses): read it again, quietly.
            try {
              const user = await get().authorized((t) => o.api.me(t));
              if (get().user) {
                set({ user });
                await save();
              }
            } catch {
              /* offline or session ended: handled by authorized(); the stored user stays while offline */
            }
          }
        })();
        return loading;
      },

      loginGuest: async (licenseType) => {
        await loginGuestNow(licenseType);
      },

      sendCode: (phone) => step(() => o.api.sendCode(phone, o.storeId)),

      confirmCode: (phone, code, orderType) =>
        step(async (): Promise<LoginStep> => {
          const answer = await o.api.confirmCode(phone, code, orderType);
          if (answer.kind === 'needs') return { kind: 'needs-license', pendingToken: answer.pendingToken, needs: answer.needs };
          return { kind: 'logged-in', user: await becomeCustomer(answer.tokens) };
        }),

      completeLicense: (input) => step(async () => becomeCustomer(await o.api.completeLicense(input))),
      startRegistration: (input) => o.api.startRegistration(input),
      register: (input, code) =>
        step(async () => {
          const answer = await o.api.register(input, code);
          return { user: await becomeCustomer({ token: answer.token, refreshToken: answer.refreshToken }), existing: answer.existing === true };
        }),
      loginWithPassword: (email, password) => step(async () => becomeCustomer(await o.api.loginWithPassword(email, password))),

      logout: async ({ silent = false } = {}) => {
        const licenseType = sessionLicense();
        const wasCustomer = get().user != null;
        set({ token: null, refreshToken: null, user: null, guest: guestFor(licenseType), dialog: null });
        await save();
        if (wasCustomer) await o.hooks?.onLogout?.();
        // Spec §4: log in as a guest again with the same licence type (offline: stays a local guest).
        try {
          await loginGuestNow(licenseType);
        } catch {
          set({ refreshLock: 0 });
        }
        if (!silent) o.hooks?.notify?.({ type: 'success', message: AUTH_COPY.loggedOut });
      },

      refreshUser: async () => {
        if (!get().user) return null;
        const user = await get().authorized((t) => o.api.me(t));
        set({ user });
        await save();
        return user;
      },

      updateMe: async (patch) => {
        const user = await get().authorized((t) => o.api.updateMe(t, patch));
        set({ user });
        await save();
        return user;
      },

      deleteAddress: async (id) => {
        const user = await get().authorized((t) => o.api.deleteAddress(t, id));
        set({ user });
        await save();
        return user;
      },

      authorized: async <T>(call: (token: string) => Promise<T>): Promise<T> => {
        while (get().refreshLock > 0) await sleep(TOKEN_REFRESH_WAIT_MS);
        if (get().refreshLock === -1) throw new ApiError(401, AUTH_COPY.refreshUnauthorized);
        let token = await currentToken();
        for (let attempt = 0; ; attempt++) {
          try {
            return await call(token);
          } catch (e) {
            if (!(e instanceof ApiError && e.status === 401) || attempt >= TOKEN_REFRESH_MAX_ATTEMPTS) {
              if (e instanceof ApiError && e.status === 401 && attempt >= TOKEN_REFRESH_MAX_ATTEMPTS) await sessionLost(AUTH_COPY.refreshUnauthorized);
              throw e;
            }
            const fresh = await refreshSession(token);
            if (!fresh) throw e;
            token = fresh;
          }
        }
      },
    };
  });

  mirror.subscribe((data) => {
    // Another tab logged in, out or refreshed: take its session (its cart change arrives on its own).
    if (data.rev > store.getState().rev) store.setState(data as Partial<AuthState>);
  });
  return store;
}
