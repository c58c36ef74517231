/**
 * Webhooks out (issue 12 "Integrations out"): what the rest of the server uses. `registerWebhooks`
 * mounts the console routes and runs this node's webhook engine (outbox fan-out + signed,
 * retried, leased delivery) from app start to app close.
 *
 * Environment (read here; all optional):
 *  - WEBHOOK_ALLOW_PRIVATE=1 — in production, allow receivers on loopback/private addresses
 *    (refused by default there; always allowed outside production: tests, the demo).
 *  - WEBHOOK_RETRY_SCHEDULE_MS — comma-separated retry delays in ms replacing the Standard
 *    Webhooks schedule (multi-node tests shrink it; not for production).
 *  - WEBHOOK_POLL_MS — longest pause between passes (default 1000).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { registerWebhookConsoleRoutes } from './console-routes.ts';
import { createWebhookEngine, type WebhookEngine, type WebhookEngineOptions } from './engine.ts';
import { urlPolicyFromEnv } from './url-policy.ts';

export { createWebhookEngine, newNodeId, type WebhookEngine, type WebhookEngineOptions } from './engine.ts';
export { fanOutWebhookEvents } from './fanout.ts';
export { STANDARD_RETRY_SCHEDULE_MS, nextRetryDelay, parseRetryAfter } from './schedule.ts';
export { activeSecrets, newWebhookSecret, ROTATION_OVERLAP_MS, signedHeaders } from './signing.ts';
export { isPrivateAddress, urlPolicyFromEnv, webhookUrlProblem, type UrlPolicy } from './url-policy.ts';
export type { WebhookAttemptView, WebhookDeliveryView, WebhookEndpointView } from './endpoints.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This node's webhook engine (tests read its node id or drive a pass). */
    webhooks: WebhookEngine;
  }
}

export interface WebhookDeps {
  db: Kysely<Database>;
  production: boolean;
  /** Overrides for tests (a shrunk retrySchedule, a short pollMs, …). */
  engine?: Partial<Omit<WebhookEngineOptions, 'db'>>;
  env?: NodeJS.ProcessEnv;
}

export function registerWebhooks(app: FastifyInstance, deps: WebhookDeps): void {
  const env = deps.env ?? process.env;
  const urlPolicy = urlPolicyFromEnv(deps.production, env);
  const engine = createWebhookEngine({
    db: deps.db,
    urlPolicy,
    retrySchedule: scheduleFromEnv(env.WEBHOOK_RETRY_SCHEDULE_MS),
    pollMs: env.WEBHOOK_POLL_MS ? Number(env.WEBHOOK_POLL_MS) : undefined,
    onError: (err) => app.log.warn({ err }, 'webhook engine pass failed'),
    log: app.log,
    ...deps.engine,
  });
  app.decorate('webhooks', engine);
  registerWebhookConsoleRoutes(app, { db: deps.db, urlPolicy, kick: () => engine.kick() });
  app.outbox.onKick(() => engine.kickEvents());
  app.addHook('onReady', async () => engine.start());
  app.addHook('onClose', async () => engine.close());
}

function scheduleFromEnv(value: string | undefined): number[] | undefined {
  if (!value) return undefined;
  const list = value.split(',').map((v) => Number(v.trim()));
  if (list.some((n) => !Number.isFinite(n) || n < 0))
    throw new Error(`WEBHOOK_RETRY_SCHEDULE_MS must be a comma-separated list of milliseconds, not ${value}`);
  return list;
}
