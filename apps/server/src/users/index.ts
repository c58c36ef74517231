/**
 * Accounts: tokens, guest, phone and password login, password reset and change, the customer's
 * own data and order history. buildApp calls `registerAccountRoutes(app, …)` next to
 * registerCommerceRoutes, then the newsletter and upload routes, which use these accounts.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { AccountsContext } from '../auth/context.ts';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from '../auth/rate-limit.ts';
import { resolveAuthSecret } from '../auth/secret.ts';
import { HttpSms, OutboxSms, type SmsProvider } from '../auth/sms.ts';
import { createMailer, type MailConfig, type Mailer } from '../mail/mailer.ts';
import { registerLoginRoutes } from './login-routes.ts';
import { registerPasswordRoutes } from './password-routes.ts';
import { registerRegistrationRoutes } from './register-routes.ts';
import { registerMeRoutes } from './me-routes.ts';

export interface AccountDeps {
  db: Kysely<Database>;
  // The mail settings are optional here so buildApp's config type need not list them; main.ts
  // passes the whole loadConfig() result, which carries MAIL_PROVIDER / MAIL_HTTP_URL.
  config: Pick<ServerConfig, 'dataDir' | 'demoMode' | 'redisUrl' | 'authSecret' | 'smsProvider' | 'smsHttpUrl' | 'smsReceipts'> &
    Partial<Pick<ServerConfig, 'redisPrefix'>> &
    MailConfig;
  now?: () => Date;
  /** Tests inject a limiter, an SMS outbox or a mailer to read. */
  limiter?: RateLimiter;
  sms?: SmsProvider;
  mailer?: Mailer;
}

export function registerAccountRoutes(app: FastifyInstance, deps: AccountDeps): AccountsContext {
  const { config } = deps;
  const limiter = deps.limiter ?? (config.redisUrl ? new RedisRateLimiter(config.redisUrl, `${config.redisPrefix ?? 'verdant:'}rl:`) : new MemoryRateLimiter());
  const sms =
    deps.sms ??
    (config.smsProvider === 'http' && config.smsHttpUrl ? new HttpSms(config.smsHttpUrl, config.smsReceipts ?? false) : new OutboxSms((m) => app.log.info(m), config.demoMode));
  if (!deps.sms && !(config.smsProvider === 'http' && config.smsHttpUrl) && !config.demoMode) {
    // Outside the demo an outbox means shoppers never receive their codes (and the log never shows them).
    app.log.warn('SMS_PROVIDER is outbox: login and registration codes are not delivered to phones. Set SMS_PROVIDER=http and SMS_HTTP_URL.');
  }
  const mailer = deps.mailer ?? createMailer(config, (m) => app.log.info(m));
  if (!deps.mailer && config.mailProvider !== 'http' && !config.demoMode) {
    // Outside the demo an outbox means shoppers never receive their reset links (they are only logged).
    app.log.warn('MAIL_PROVIDER is outbox: password reset mails are written to the log, not delivered. Set MAIL_PROVIDER=http and MAIL_HTTP_URL.');
  }
  const context: AccountsContext = {
    db: deps.db,
    secret: resolveAuthSecret(config.dataDir, config.authSecret),
    now: deps.now ?? (() => new Date()),
    limiter,
    sms,
    mailer,
    demoMode: config.demoMode,
    dataDir: config.dataDir,
  };
  app.decorate('accounts', context);
  app.addHook('onClose', async () => limiter.close());
  registerLoginRoutes(app);
  registerRegistrationRoutes(app);
  registerPasswordRoutes(app);
  registerMeRoutes(app);
  return context;
}
