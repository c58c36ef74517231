/**
 * The accounts context on the Fastify instance, and `authOf(request)`: the verified access token
 * of a request (Bearer header or `?token=`), memoised per request. Read lazily rather than in a
 * hook so the cart seam customerOf() can use it from routes registered before the accounts ones.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { SmsProvider } from './sms.ts';
import { AUTH_MESSAGES, verifyAccess, type AccessClaims } from './tokens.ts';

export interface AccountsContext {
  db: Kysely<Database>;
  secret: Uint8Array;
  now: () => Date;
  limiter: RateLimiter;
  sms: SmsProvider;
  /** Password reset mails; the outbox in tests and the demo. */
  mailer: Mailer;
  demoMode: boolean;
  dataDir: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by registerAccountRoutes; absent in apps built without accounts. */
    accounts?: AccountsContext;
  }
}

/** Raw token of a request: `Authorization: Bearer <jwt>` or `?token=`. Cart ids (no dots) are not tokens. */
export function rawTokenOf(request: FastifyRequest): string | null {
  const q = (request.query as Record<string, unknown> | undefined)?.token;
  if (typeof q === 'string' && q !== '') return q;
  const header = request.headers.authorization;
  if (header && /^Bearer\s+/i.test(header)) {
    const value = header.replace(/^Bearer\s+/i, '').trim();
    // A JWT has three dot-separated parts; a bare cart id (legacy Bearer use) has none.
    if (value.split('.').length === 3) return value;
  }
  return null;
}

const memo = new WeakMap<FastifyRequest, Promise<AccessClaims | null | 'invalid'>>();

/** Claims of a valid token of this store; null without a token; 'invalid' for a bad/expired one. */
const NO_TOKEN: Promise<null> = Promise.resolve(null);

export function authOf(request: FastifyRequest): Promise<AccessClaims | null | 'invalid'> {
  // Most requests (guests' carts and pages) carry no token: nothing to verify or remember.
  if (!request.server.accounts || rawTokenOf(request) === null) return NO_TOKEN;
  let found = memo.get(request);
  if (!found) {
    found = (async () => {
      const ctx = request.server.accounts;
      const raw = rawTokenOf(request);
      if (!ctx || !raw) return null;
      const claims = await verifyAccess(ctx.secret, raw, ctx.now());
      // A token of another store is as good as no valid token here (customers are per store).
      if (!claims || claims.storeId !== request.store.storeId) return 'invalid';
      // A token signed before the account's phone was proven may be the stranger's who made the
      // account (users/proof.ts): once the owner proved the phone it is void. Only tokens of
      // not-yet-proven accounts (made before issue 10) pay for this look-up.
      if (claims.customerId != null && !claims.phoneProven) {
        const row = await ctx.db.selectFrom('customers').select('phone_verified_at').where('id', '=', claims.customerId).executeTakeFirst();
        if (!row || row.phone_verified_at != null) return 'invalid';
      }
      return claims;
    })();
    memo.set(request, found);
  }
  return found;
}

/** The claims, or 401 for a missing/invalid/expired token. */
export async function requireAuth(request: FastifyRequest): Promise<AccessClaims> {
  const claims = await authOf(request);
  if (claims === null) throw new ApiError(401, AUTH_MESSAGES.tokenRequired);
  if (claims === 'invalid') throw new ApiError(401, AUTH_MESSAGES.tokenInvalid);
  return claims;
}

/** A logged-in customer (not a guest session), or 401. */
export async function requireCustomer(request: FastifyRequest): Promise<AccessClaims & { customerId: number }> {
  const claims = await requireAuth(request);
  if (claims.customerId == null) throw new ApiError(401, AUTH_MESSAGES.tokenRequired);
  return claims as AccessClaims & { customerId: number };
}

export function accountsOf(app: FastifyInstance): AccountsContext {
  if (!app.accounts) throw new Error('registerAccountRoutes was not called');
  return app.accounts;
}
