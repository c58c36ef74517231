/**
 * The console's access guard. Every route under /api/console must declare what it needs:
 *
 *   app.get('/api/console/stores/:storeId/orders', { config: { console: { permission: 'orders:read' } } }, handler)
 *
 * A route without the declaration stops the server at startup (onRoute throws), so no console
 * route can be left open by forgetting. For a declared route the guard, before the body is even
 * parsed: refuses a write from another site (403 `cross_site`, crossSiteWrite), finds the live session of the `verdant_staff` cookie (401 `login_required`), checks the
 * session's CSRF token on every write (403 `csrf`), the `:storeId` parameter against the member's
 * stores (403 `store_forbidden`) and the role against the permission (403 `forbidden`). Handlers
 * read the member with `staffOf(request)`.
 */
import { parseCookie } from 'cookie';
import type { FastifyInstance, FastifyRequest, RouteOptions, onRequestHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, StaffRole } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { isRoutePermission, roleCan, type RoutePermission } from './permissions.ts';
import { findLiveSession, sameSecret, STAFF_COOKIE } from './sessions.ts';
import { storeIdsOf } from './members.ts';

export const CONSOLE_PREFIX = '/api/console';

/** The logged-in member of a console request. */
export interface StaffContext {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  /** The stores the member may touch (owners: every store). */
  storeIds: number[];
  sessionId: number;
  /** The session's CSRF token (the session answer repeats it to the console). */
  csrfToken: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every /api/console route (staff/guard.ts). */
    console?: { permission: RoutePermission };
  }
  interface FastifyRequest {
    /** Set by the staff guard on console routes that are not `public`; null elsewhere. Prefer staffOf(request). */
    staff: StaffContext;
  }
}

export const GUARD_MESSAGES = {
  login: 'Please log in to the console.',
  csrf: 'This page is out of date. Please reload it and try again.',
  store: 'You do not have access to this store.',
  forbidden: 'Your role does not allow this.',
  crossSite: 'This change was sent from another site, so it was refused. Open the console at its own address and try again.',
  undeclared: (method: string, url: string) =>
    `Console route ${method} ${url} declares no permission: add config: { console: { permission } } (staff/permissions.ts).`,
} as const;

export interface StaffGuardDeps {
  db: Kysely<Database>;
  now?: () => Date;
}

/** A console route with the permission it declared (for the access-contract test and audits). */
export interface ConsoleRoute {
  method: string;
  url: string;
  permission: RoutePermission;
}

const consoleRoutes = new WeakMap<FastifyInstance, ConsoleRoute[]>();

/** Every console route registered after the guard, with its permission. */
export function consoleRoutesOf(app: FastifyInstance): readonly ConsoleRoute[] {
  return consoleRoutes.get(app) ?? [];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Writes from another site are refused before anything else, even with the right CSRF token: a
 * browser's `Sec-Fetch-Site: cross-site`, or an `Origin` that is neither the request's own (scheme
 * and host as the server sees them, X-Forwarded-* when TRUST_PROXY) nor the store's configured URL
 * on that same host (`Origin: null` included). A request with neither header (the command line, tests, old
 * browsers) is left to the session and CSRF checks.
 */
export function crossSiteWrite(request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site.trim().toLowerCase() === 'cross-site') return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  const host = request.host.toLowerCase();
  const own = [`${request.protocol}://${host}`];
  try {
    // The store's URL names the scheme behind a TLS proxy that is not trusted, for this host only.
    const configured = request.store?.url ? new URL(request.store.url) : null;
    if (configured && configured.host.toLowerCase() === host) own.push(configured.origin.toLowerCase());
  } catch {
    // A store without a usable URL: only the request's own origin.
  }
  return !own.includes(String(origin).trim().toLowerCase());
}

const originGuard: onRequestHookHandler = async function originGuard(request) {
  if (crossSiteWrite(request)) throw new ApiError(403, GUARD_MESSAGES.crossSite, { errorCode: 'cross_site' });
};

/** The member of a guarded console request (401 when there is none, e.g. on a public route). */
export function staffOf(request: FastifyRequest): StaffContext {
  if (!request.staff) throw new ApiError(401, GUARD_MESSAGES.login, { errorCode: 'login_required' });
  return request.staff;
}

/** The raw session token of the request's cookie, if any. */
export function sessionTokenOf(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  const token = parseCookie(header)[STAFF_COOKIE];
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
}

/** Call in buildApp before any console route is registered. */
export function registerStaffGuard(app: FastifyInstance, deps: StaffGuardDeps): void {
  const now = deps.now ?? (() => new Date());
  const table: ConsoleRoute[] = [];
  consoleRoutes.set(app, table);
  app.decorateRequest('staff', null as unknown as StaffContext);

  const guardFor = (permission: Exclude<RoutePermission, 'public'>, hasStoreParam: boolean): onRequestHookHandler =>
    async function staffGuard(request) {
      const token = sessionTokenOf(request);
      const at = now();
      const session = token ? await findLiveSession(deps.db, token, at) : null;
      if (!session) throw new ApiError(401, GUARD_MESSAGES.login, { errorCode: 'login_required' });
      if (!SAFE_METHODS.has(request.method)) {
        const sent = request.headers['x-csrf-token'];
        if (typeof sent !== 'string' || !sameSecret(sent, session.csrfToken))
          throw new ApiError(403, GUARD_MESSAGES.csrf, { errorCode: 'csrf' });
      }
      const storeIds = await storeIdsOf(deps.db, session.staffId, session.role);
      if (hasStoreParam) {
        const raw = (request.params as Record<string, string | undefined>).storeId ?? '';
        const storeId = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
        if (!storeIds.includes(storeId)) throw new ApiError(403, GUARD_MESSAGES.store, { errorCode: 'store_forbidden' });
      }
      if (!roleCan(session.role, permission)) throw new ApiError(403, GUARD_MESSAGES.forbidden, { errorCode: 'forbidden' });
      request.staff = {
        id: session.staffId,
        email: session.email,
        name: session.name,
        role: session.role,
        storeIds,
        sessionId: session.sessionId,
        csrfToken: session.csrfToken,
      };
    };

  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.url !== CONSOLE_PREFIX && !route.url.startsWith(`${CONSOLE_PREFIX}/`)) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const permission = (route.config as { console?: { permission?: unknown } } | undefined)?.console?.permission;
    if (!isRoutePermission(permission)) throw new Error(GUARD_MESSAGES.undeclared(methods.join(','), route.url));
    for (const method of methods) table.push({ method, url: route.url, permission });
    const existing = route.onRequest;
    const rest = existing ? (Array.isArray(existing) ? existing : [existing]) : [];
    // Public routes (login, reset) too: a login from another site is refused as well.
    if (permission === 'public') {
      route.onRequest = [originGuard, ...rest];
      return;
    }
    const hook = guardFor(permission, /(^|\/):storeId(\/|$)/.test(route.url));
    // First: nothing else (limits, body parsing) runs for a request the guard refuses.
    route.onRequest = [originGuard, hook, ...rest];
  });
}
