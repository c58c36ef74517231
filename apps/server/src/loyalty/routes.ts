/**
 * The shopper's points (issue 30 "Loyalty"):
 *   GET /api/user/loyalty   customer token → the account's balance, tier, next tier, expiry and
 *                           history (./account.ts)
 * Also starts the hourly loyalty job (./expiry.ts: expiry and its reminder).
 */
import type { FastifyInstance } from 'fastify';
import type { Store } from '@verdant/domain';
import { accountsOf, requireCustomer } from '../auth/context.ts';
import { AUTH_MESSAGES } from '../auth/tokens.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { findById } from '../users/customers.ts';
import { loyaltyAccountView } from './account.ts';
import { startLoyaltyJob } from './expiry.ts';
import type { Db } from './ledger.ts';

export interface LoyaltyRoutesDeps {
  db: Db;
  stores: readonly Store[];
  now?: () => Date;
  /** How often the expiry job runs (default hourly; 0: never). */
  jobIntervalMs?: number;
}

export function registerLoyaltyRoutes(app: FastifyInstance, deps: LoyaltyRoutesDeps): void {
  const now = deps.now ?? (() => new Date());
  app.get(
    '/api/user/loyalty',
    {
      config: {
        docs: {
          summary: 'My loyalty points: balance, tier, expiry and history',
          description: 'The balance (1 point = 1 cent when redeemed), the tier by spend in the window and what the next one needs, the date the balance expires without a purchase, and the last 50 entries.',
          tags: ['User'],
          security: 'customer',
          errors: { 401: 'No valid customer token' },
        },
      },
    },
    async (request) => {
      const claims = await requireCustomer(request);
      const customer = await findById(accountsOf(app).db, request.store.storeId, claims.customerId);
      if (!customer) throw new ApiError(401, AUTH_MESSAGES.tokenInvalid);
      return ok(await loyaltyAccountView(deps.db, request.store, customer, now()));
    },
  );
  startLoyaltyJob(app, { db: deps.db, stores: deps.stores, now: deps.now, intervalMs: deps.jobIntervalMs });
}
