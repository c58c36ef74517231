/**
 * The integration API for point-of-sale systems (issue 13), under /api/integration/v1:
 *
 *   POST   /menu/rows                 menu:write    upsert ≤ 1,000 menu rows (menu-file format, FORMAT.md)
 *   POST   /stock                     menu:write    set stock of ≤ 1,000 variants, each with the POS's sequence
 *   GET    /orders?since=&limit=      orders:read   orders changed after a cursor (./orders.ts)
 *   POST   /orders/:number/actions    orders:write  a lifecycle move (the console's rules: orders/lifecycle)
 *   GET    /webhooks                  orders:read   this store's webhook endpoints
 *   POST   /webhooks                  orders:read   subscribe an endpoint (webhooks/url-policy.ts rules)
 *   DELETE /webhooks/:id              orders:read   unsubscribe
 *   GET    /deals                     menu:write    the store's deals (issue 28; ../deals/integration-routes.ts, via extraRoutes)
 *   PUT    /deals/:externalId         menu:write    create or replace a deal by the store's own id
 *   DELETE /deals/:externalId         menu:write    end it
 *
 * Every request: `Authorization: Bearer vdk_…` (401 unknown or revoked, 403 missing scope), limited
 * per key (429 with Retry-After). The store is the key's, never the request's host. Every write
 * (POST/DELETE): `Idempotency-Key` (./idempotency.ts). Webhooks carry order events, so managing
 * them needs `orders:read` (the events are what that scope may read anyway).
 */
import { CANCEL_REASONS, ORDER_ACTIONS, READY_BY_MESSAGES } from '@verdant/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { dbId } from '../http/ids.ts';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from '../auth/rate-limit.ts';
import type { ApiScope, Database, Row } from '../db/schema.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import type { RouteDocs } from '../http/route-docs.ts';
import { importMenu } from '../menu-import/index.ts';
import { HOURS } from '../hours/section.ts';
import type { MenuActor } from '../menu-admin/audit.ts';
import { WEBHOOK_EVENT_TYPES } from '../outbox/append.ts';
import { applyTransition } from '../orders/lifecycle/transitions.ts';
import { createEndpoint, deleteEndpoint, listEndpoints } from '../webhooks/endpoints.ts';
import { urlPolicyFromEnv, webhookUrlProblem } from '../webhooks/url-policy.ts';
import { idempotencyKeyOf, idempotent, idempotentTransaction, pruneIdempotency, requestHash, type Answer } from './idempotency.ts';
import { findLiveKey, scopesOf, touchKey } from './keys.ts';
import { decodeCursor, FEED_MAX_LIMIT, orderIdByNumber, ordersSince, orderViews } from './orders.ts';
import { applyStockIn, stockBodySchema } from './stock.ts';

export const INTEGRATION_PREFIX = '/api/integration/v1';
export const MAX_MENU_ROWS = 1000;

export interface IntegrationRateLimit {
  /** Requests per key and window; 0 turns the limit off. */
  max: number;
  windowSeconds: number;
}
export const INTEGRATION_RATE_DEFAULTS: IntegrationRateLimit = { max: 1200, windowSeconds: 60 };

export function integrationRateFromEnv(env: NodeJS.ProcessEnv = process.env): IntegrationRateLimit {
  const whole = (name: string, fallback: number, min: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < min) throw new Error(`${name} must be a whole number ≥ ${min} (got "${raw}")`);
    return Number(raw);
  };
  return {
    max: whole('INTEGRATION_RATE_LIMIT', INTEGRATION_RATE_DEFAULTS.max, 0),
    windowSeconds: whole('INTEGRATION_RATE_WINDOW', INTEGRATION_RATE_DEFAULTS.windowSeconds, 1),
  };
}

export interface IntegrationDeps {
  db: Kysely<Database>;
  production: boolean;
  redisUrl?: string;
  redisPrefix?: string;
  rateLimit?: IntegrationRateLimit;
  now?: () => Date;
  env?: NodeJS.ProcessEnv;
  /** More routes under /api/integration/v1, given this API's helpers (see `IntegrationRouteHelpers`). */
  extraRoutes?: ((helpers: IntegrationRouteHelpers) => void)[];
}

/** What a route added under the integration API gets: the key check with its docs, the idempotent write, the key of a request. */
export interface IntegrationRouteHelpers {
  prefix: string;
  route: (scope: ApiScope, docs: Omit<RouteDocs, 'security' | 'tags'> & { tags?: string[] }) => { onRequest: onRequestHookHandler; config: { docs: RouteDocs } };
  once: (request: FastifyRequest, reply: FastifyReply, work: (key: { storeId: number; row: { id: number; name: string } }) => Promise<Answer>) => Promise<unknown>;
  keyOf: (request: FastifyRequest) => { storeId: number; row: { id: number; name: string } };
  headers: Record<string, string>;
  commonErrors: Record<number, string>;
  writeErrors: Record<number, string>;
}

export const INTEGRATION_MESSAGES = {
  noKey: 'Send your API key as `Authorization: Bearer vdk_…`.',
  badKey: 'This API key is unknown or has been revoked.',
  scope: (scope: string) => `This API key does not have the ${scope} scope.`,
  limited: 'Too many requests for this API key. Please slow down and try again shortly.',
  tooManyRows: `At most ${MAX_MENU_ROWS} rows per request; send the rest in another.`,
} as const;

interface KeyContext {
  row: Row<'api_keys'>;
  storeId: number;
  actor: MenuActor;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key of an integration request (set by its onRequest hook). */
    apiKey: KeyContext | null;
  }
}

const WRITE_HEADERS = { 'Idempotency-Key': 'Required on every write: a retry with the same key and body answers the first answer again.' };
const COMMON_ERRORS = {
  401: 'No, unknown or revoked API key.',
  403: 'The key lacks the scope.',
  429: 'Rate limit of this key (Retry-After).',
};
const WRITE_ERRORS = {
  ...COMMON_ERRORS,
  400: 'Invalid request or missing Idempotency-Key.',
  422: 'Idempotency-Key reused with another request.',
};

const cell = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);
const menuRowsBody = z.strictObject({
  rows: z.array(z.record(z.string(), cell)).min(1, 'Send at least one row.').max(MAX_MENU_ROWS, INTEGRATION_MESSAGES.tooManyRows),
  dry_run: z.boolean().optional(),
  /** The rows are this store's although they look like another store's menu (many new items, most prices changed). */
  confirm_store: z.boolean().optional(),
});
const ordersQuery = z.object({
  since: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(FEED_MAX_LIMIT).default(50),
});
const numberParams = z.object({ number: z.string().min(1).max(40) });
const actionBody = z.strictObject({
  action: z.enum(ORDER_ACTIONS),
  ready_by: z.string().max(40).optional().nullable(),
  reason: z.enum(CANCEL_REASONS).optional().nullable(),
  message: z.string().max(500).optional().nullable(),
  id_checked: z.boolean().optional(),
  medcard_checked: z.boolean().optional(),
  /** Confirm a ready-by while the store is closed for the order's type (the console's "confirm anyway"). */
  confirm_closed: z.boolean().optional(),
});
const webhookBody = z.strictObject({
  url: z.string().trim().min(1, 'Enter the URL to send webhooks to.').max(2000, 'The URL is too long.'),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { message: `Events must be among: ${WEBHOOK_EVENT_TYPES.join(', ')}.` }))
    .min(1, 'Choose at least one event.')
    .transform((list) => [...new Set(list)]),
  description: z.string().trim().max(200, 'The description is too long (200 characters at most).').optional(),
});
const webhookParams = z.object({ id: dbId() });

/**
 * The per-key counter. Redis down: the limit fails open (logged once per outage), as the
 * storefront's write limits do (http/write-limits.ts). The key check still runs; stopping every
 * till's stock sync because the counters are away would do more harm than a few minutes without
 * this guard rail.
 */
export function keyLimit(limiter: RateLimiter, rate: IntegrationRateLimit) {
  let down = false;
  return async (key: string, log: { warn(obj: object, msg: string): void }): Promise<boolean> => {
    try {
      const allowed = await limiter.hit(key, rate.max, rate.windowSeconds * 1000);
      down = false;
      return allowed;
    } catch (err) {
      if (!down) log.warn({ err }, 'integration rate limit: counters unreachable, not limiting');
      down = true;
      return true;
    }
  };
}

export function registerIntegrationRoutes(app: FastifyInstance, deps: IntegrationDeps): void {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const rate = deps.rateLimit ?? integrationRateFromEnv(deps.env);
  const limiter: RateLimiter = deps.redisUrl
    ? new RedisRateLimiter(deps.redisUrl, `${deps.redisPrefix ?? 'verdant:'}rl:integration:`)
    : new MemoryRateLimiter();
  app.addHook('onClose', async () => limiter.close());
  const urlPolicy = urlPolicyFromEnv(deps.production, deps.env ?? process.env);
  app.decorateRequest('apiKey', null);
  let lastPrune = 0;

  const withinLimit = keyLimit(limiter, rate);

  const authenticate =
    (scope: ApiScope): onRequestHookHandler =>
    async (request, reply) => {
      const header = request.headers.authorization;
      const m = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      if (!m) {
        reply.header('www-authenticate', 'Bearer realm="verdant-integration"');
        throw new ApiError(401, INTEGRATION_MESSAGES.noKey, { errorCode: 'api_key_required' });
      }
      const row = await findLiveKey(db, m[1]);
      if (!row) {
        reply.header('www-authenticate', 'Bearer realm="verdant-integration", error="invalid_token"');
        throw new ApiError(401, INTEGRATION_MESSAGES.badKey, { errorCode: 'api_key_invalid' });
      }
      if (rate.max > 0 && !(await withinLimit(`key:${row.id}`, request.log)))
        // A fixed window: waiting one window is always enough (the counter's own TTL is not read back).
        throw new ApiError(429, INTEGRATION_MESSAGES.limited, { errorCode: 'rate_limited', retryAfterSeconds: rate.windowSeconds });
      if (!scopesOf(row).includes(scope)) throw new ApiError(403, INTEGRATION_MESSAGES.scope(scope), { errorCode: 'scope_missing' });
      const at = now();
      await touchKey(db, row, at);
      request.apiKey = { row, storeId: row.store_id, actor: { type: 'api_key', id: row.id, name: row.name } };
    };

  const keyOf = (request: FastifyRequest): KeyContext => {
    if (!request.apiKey) throw new ApiError(401, INTEGRATION_MESSAGES.noKey, { errorCode: 'api_key_required' });
    return request.apiKey;
  };

  /** Now and then (at most hourly per node), drop idempotency keys past their 24 hours. */
  const maybePrune = (request: FastifyRequest) => {
    const at = now();
    if (at.getTime() - lastPrune <= 3_600_000) return;
    lastPrune = at.getTime();
    pruneIdempotency(db, at).catch((err) => request.log.warn({ err }, 'pruning idempotency keys failed'));
  };

  /** A write: Idempotency-Key required; the work runs once per key and request, and its answer is replayed. */
  const once = async (request: FastifyRequest, reply: FastifyReply, work: (key: KeyContext) => Promise<Answer>) => {
    const key = keyOf(request);
    const idem = idempotencyKeyOf(request.headers['idempotency-key']);
    const hash = requestHash(request.method, request.url.split('?')[0], request.body);
    maybePrune(request);
    const answer = await idempotent(db, key.row.id, idem, hash, now, () => work(key));
    return reply.code(answer.status).send(answer.body);
  };

  const route = (scope: ApiScope, docs: Omit<RouteDocs, 'security' | 'tags'> & { tags?: string[] }) => ({
    onRequest: authenticate(scope),
    config: { docs: { tags: ['Integration'], ...docs, security: { apiKey: scope } } as RouteDocs },
  });

  app.post(
    `${INTEGRATION_PREFIX}/menu/rows`,
    {
      ...route('menu:write', {
        summary: 'Create or update menu rows',
        description:
          'Up to 1,000 rows in the menu-file format (one object per variant, column name → cell; see FORMAT.md). ' +
          'Rows are matched by external_id (else sku); a column left out leaves that field as it is. Any problem: 422 with the ' +
          'report (row, column, value, reason) and nothing written; otherwise everything applies in one transaction. `dry_run`: report only. ' +
          'Rows that look like another store’s menu compared with this store’s (at least 20 new items, more than a quarter of the menu, ' +
          'while matching 10 or more; or the price or name of at least 10 items changed, more than half of those matched and a quarter ' +
          'of the menu) are the problem `code: looks_like_another_store`; send `confirm_store: true` to apply them anyway.',
        tags: ['Integration: menu'],
        body: menuRowsBody,
        headers: WRITE_HEADERS,
        errors: { ...WRITE_ERRORS, 422: 'Problems in the rows (nothing written), or Idempotency-Key reused.' },
      }),
      bodyLimit: 8 * 1024 * 1024,
    },
    async (request, reply) =>
      once(request, reply, async (key) => {
        const body = parseOr400(menuRowsBody, request.body);
        const report = await importMenu(db, {
          storeId: key.storeId,
          source: [JSON.stringify(body.rows)],
          format: 'json',
          dryRun: body.dry_run === true,
          confirmStore: body.confirm_store === true,
          clock: now,
          onChanged: (storeId, ids) => app.catalog.catalogChanged(storeId, ids),
          audit: { source: 'api', actor: key.actor },
        });
        const result = {
          outcome: report.outcome,
          rows: report.rows,
          created: report.created.map((v) => v.external_id),
          updated: report.updated.map((v) => v.external_id),
          unchanged: report.unchanged,
          problems: report.problems,
          problem_count: report.problemCount,
          ...(report.notifyError ? { notify_error: report.notifyError } : {}),
        };
        if (report.outcome === 'problems')
          return {
            status: 422,
            body: { code: 422, result: 'The rows have problems; nothing was written.', errorCode: 'menu_problems', meta: result },
          };
        return { status: 200, body: ok(result) };
      }),
  );

  app.post(
    `${INTEGRATION_PREFIX}/stock`,
    route('menu:write', {
      summary: 'Set stock levels',
      description:
        'Up to 1,000 items `{ external_id | sku, stock, orderable?, sequence }`. `stock` is packages on hand. `sequence` is the POS’s ' +
        'ever-growing number (or its clock in ms): an item whose sequence is not above the last applied one for that variant is ' +
        'reported under `skipped` and changes nothing. Unknown ids are reported; the rest applies in one transaction.',
      tags: ['Integration: menu'],
      body: stockBodySchema,
      headers: WRITE_HEADERS,
      errors: WRITE_ERRORS,
    }),
    async (request, reply) => {
      // The key, the stock and its history commit in one transaction (idempotentTransaction).
      const key = keyOf(request);
      const idem = idempotencyKeyOf(request.headers['idempotency-key']);
      const body = parseOr400(stockBodySchema, request.body);
      const hash = requestHash(request.method, request.url.split('?')[0], request.body);
      maybePrune(request);
      const done = await idempotentTransaction(db, key.row.id, idem, hash, now, async (trx) => {
        const { report, productIds } = await applyStockIn(trx, { storeId: key.storeId, items: body.items, actor: key.actor, now: now() });
        return { answer: { status: 200, body: ok(report) }, after: productIds };
      });
      if (!done.replayed && done.after?.length)
        await app.catalog.catalogChanged(key.storeId, done.after).catch((err: Error) => {
          // Written; only the telling failed (search and pages catch up at the next resync).
          request.log.warn({ err }, 'catalogue update after stock failed');
        });
      return reply.code(done.answer.status).send(done.answer.body);
    },
  );

  app.get(
    `${INTEGRATION_PREFIX}/orders`,
    route('orders:read', {
      summary: 'List orders changed since a cursor',
      description:
        'Orders of the key’s store with any change after `since` (leave it out to start from the beginning), oldest change first, ' +
        'each once per page; pass `next` as `since` to continue. No order is missed, also one whose change commits late.',
      tags: ['Integration: orders'],
      query: ordersQuery,
      errors: { ...COMMON_ERRORS, 400: 'Invalid cursor or limit.' },
    }),
    async (request) => {
      const key = keyOf(request);
      const q = parseOr400(ordersQuery, request.query);
      return ok(await ordersSince(db, key.storeId, decodeCursor(q.since), q.limit));
    },
  );

  app.post(
    `${INTEGRATION_PREFIX}/orders/:number/actions`,
    route('orders:write', {
      summary: 'Move an order through its lifecycle',
      description:
        'The console’s lifecycle rules: confirm (with ready_by), mark_ready, complete (id_checked, medcard_checked), cancel (reason), ' +
        'mark_no_show… A move the status does not allow answers 409 with the allowed actions; a guard 400. A confirm whose ready_by ' +
        'falls while the store is closed for the order’s type (its hours and exceptions; closing time itself is open) answers 400 ' +
        '`store_closed` with `meta.opensAt`, unless `confirm_closed: true` (recorded as `storeClosed` in the order’s history).',
      tags: ['Integration: orders'],
      params: numberParams,
      body: actionBody,
      headers: WRITE_HEADERS,
      errors: { ...WRITE_ERRORS, 404: 'No such order in this store.', 409: 'The order’s status does not allow this action.' },
    }),
    async (request, reply) =>
      once(request, reply, async (key) => {
        const { number } = parseOr400(numberParams, request.params);
        const body = parseOr400(actionBody, request.body);
        const orderId = await orderIdByNumber(db, key.storeId, number);
        const moved = await applyTransition(db, {
          storeId: key.storeId,
          orderId,
          action: body.action,
          input: {
            readyBy: body.ready_by,
            reason: body.reason,
            message: body.message,
            idChecked: body.id_checked,
            medcardChecked: body.medcard_checked,
          },
          actor: { type: 'api_key', id: key.row.id, name: key.row.name },
          now: now(),
          // The console's rule (issue 26): a ready-by while the store is closed for the order's type
          // is refused (400 store_closed) unless the POS insists with confirm_closed: true.
          hours: body.action === 'confirm' ? (await app.storeSettings.get(key.storeId, HOURS)).value : null,
          confirmClosed: body.confirm_closed === true,
          closedMessage: READY_BY_MESSAGES.storeClosedApi,
        });
        app.outbox.kick();
        if (moved.restocked.length)
          app.catalog
            .catalogChanged(key.storeId, moved.restocked, { stockOnly: true })
            .catch((err) => request.log.warn({ err }, 'catalogue update after release failed'));
        const view = (await orderViews(db, key.storeId, [orderId])).get(orderId)!;
        return { status: 200, body: ok(view) };
      }),
  );

  app.get(
    `${INTEGRATION_PREFIX}/webhooks`,
    route('orders:read', { summary: 'List webhook endpoints', tags: ['Integration: webhooks'], errors: COMMON_ERRORS }),
    async (request) => ok(await listEndpoints(db, keyOf(request).storeId, now())),
  );

  app.post(
    `${INTEGRATION_PREFIX}/webhooks`,
    route('orders:read', {
      summary: 'Subscribe a webhook endpoint',
      description: 'The answer carries the signing secret, shown only this once. Receivers on private addresses are refused in production.',
      tags: ['Integration: webhooks'],
      body: webhookBody,
      headers: WRITE_HEADERS,
      errors: { ...WRITE_ERRORS, 409: 'The store has the most endpoints it may have.' },
    }),
    async (request, reply) =>
      once(request, reply, async (key) => {
        const body = parseOr400(webhookBody, request.body);
        const problem = await webhookUrlProblem(body.url, urlPolicy);
        if (problem) throw new ApiError(400, problem, { errorCode: 'webhook_url_invalid' });
        return { status: 200, body: ok(await createEndpoint(db, key.storeId, body, now())) };
      }),
  );

  // Routes other areas add under this API with its key check, idempotency and docs (deals, issue 28:
  // app.ts wires ../deals/integration-routes.ts here; an area never imports another's route module).
  for (const extra of deps.extraRoutes ?? [])
    extra({ prefix: INTEGRATION_PREFIX, route, once, keyOf, headers: WRITE_HEADERS, commonErrors: COMMON_ERRORS, writeErrors: WRITE_ERRORS });

  app.delete(
    `${INTEGRATION_PREFIX}/webhooks/:id`,
    route('orders:read', {
      summary: 'Unsubscribe a webhook endpoint',
      tags: ['Integration: webhooks'],
      params: webhookParams,
      headers: WRITE_HEADERS,
      errors: { ...WRITE_ERRORS, 404: 'No such endpoint in this store.' },
    }),
    async (request, reply) =>
      once(request, reply, async (key) => {
        const { id } = parseOr400(webhookParams, request.params);
        await deleteEndpoint(db, key.storeId, id);
        return { status: 200, body: ok({ deleted: id }) };
      }),
  );
}
