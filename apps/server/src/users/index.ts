/**
 * Accounts: tokens, guest and phone login, the customer's own data and order history. buildApp
 * calls `registerAccountRoutes(app, …)` next to registerCommerceRoutes.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { AccountsContext } from '../auth/context.ts';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from '../auth/rate-limit.ts';
import { resolveAuthSecret } from '../auth/secret.ts';
import { HttpSms, OutboxSms, type SmsProvider } from '../auth/sms.ts';
import { registerLoginRoutes } from './login-routes.ts';
import { registerMeRoutes } from './me-routes.ts';
import { registerNewsletterRoutes } from '../newsletter/routes.ts';
import { registerUploadRoutes } from '../uploads/routes.ts';

export interface AccountDeps {
  db: Kysely<Database>;
  config: Pick<ServerConfig, 'dataDir' | 'demoMode' | 'redisUrl' | 'authSecret' | 'smsProvider' | 'smsHttpUrl'>;
  now?: () => Date;
  /** Tests inject a limiter or an SMS outbox to read. */
  limiter?: RateLimiter;
  sms?: SmsProvider;
}

export function registerAccountRoutes(app: FastifyInstance, deps: AccountDeps): AccountsContext {
  const { config } = deps;
  const limiter = deps.limiter ?? (config.redisUrl ? new RedisRateLimiter(config.redisUrl) : new MemoryRateLimiter());
  const sms =
    deps.sms ??
    (config.smsProvider === 'http' && config.smsHttpUrl ? new HttpSms(config.smsHttpUrl) : new OutboxSms((m) => app.log.info(m)));
  const context: AccountsContext = {
    db: deps.db,
    secret: resolveAuthSecret(config.dataDir, config.authSecret),
    now: deps.now ?? (() => new Date()),
    limiter,
    sms,
    demoMode: config.demoMode,
    dataDir: config.dataDir,
  };
  app.decorate('accounts', context);
  app.addHook('onClose', async () => limiter.close());
  registerLoginRoutes(app);
  registerMeRoutes(app);
  registerNewsletterRoutes(app, { db: deps.db, now: context.now });
  registerUploadRoutes(app);
  return context;
}
