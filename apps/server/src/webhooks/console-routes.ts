/**
 * The console's webhook routes (contract: /api/console/stores/:storeId/webhooks…). Each declares
 * `webhooks:manage`; the staff guard (staff/guard.ts) checks the session, CSRF, the store and the
 * role before any of this runs, and the handlers only ever touch rows of `:storeId`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { webhookCreateBody, webhookDeliveriesQuery, webhookPatchBody, type WebhookDeleted } from '@verdant/domain/console-api';
import { z } from 'zod';
import { dbId } from '../http/ids.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  replayDelivery,
  rotateSecret,
  updateEndpoint,
} from './endpoints.ts';
import { webhookUrlProblem, type UrlPolicy } from './url-policy.ts';

export interface WebhookRouteDeps {
  db: Kysely<Database>;
  urlPolicy: UrlPolicy;
  /** After a replay: send it now rather than at the next poll. */
  kick: () => void;
  now?: () => Date;
}

const PREFIX = '/api/console/stores/:storeId';
/** A variable, not a literal, so the route options type-check whether or not the guard's types are loaded. */
const MANAGE = { console: { permission: 'webhooks:manage' as const } };

const id = dbId();
const storeParams = z.object({ storeId: id });
const endpointParams = storeParams.extend({ endpointId: id });
const deliveryParams = storeParams.extend({ deliveryId: id });

export function registerWebhookConsoleRoutes(app: FastifyInstance, deps: WebhookRouteDeps): void {
  const now = deps.now ?? (() => new Date());
  const { db } = deps;

  // Fail closed: should the guard ever not run for these routes, nobody gets in.
  const guarded = { config: MANAGE, preHandler: requireStaff };

  const checkUrl = async (value: string) => {
    const problem = await webhookUrlProblem(value, deps.urlPolicy);
    if (problem) throw new ApiError(400, problem, { errorCode: 'webhook_url_invalid' });
  };

  app.get(`${PREFIX}/webhooks`, guarded, async (request) => {
    const { storeId } = parseOr400(storeParams, request.params);
    return ok(await listEndpoints(db, storeId, now()));
  });

  app.post(`${PREFIX}/webhooks`, guarded, async (request) => {
    const { storeId } = parseOr400(storeParams, request.params);
    const body = parseOr400(webhookCreateBody, request.body);
    await checkUrl(body.url);
    return ok(await createEndpoint(db, storeId, body, now()));
  });

  app.patch(`${PREFIX}/webhooks/:endpointId`, guarded, async (request) => {
    const { storeId, endpointId } = parseOr400(endpointParams, request.params);
    const body = parseOr400(webhookPatchBody, request.body);
    if (body.url !== undefined) await checkUrl(body.url);
    const view = await updateEndpoint(db, storeId, endpointId, body, now());
    return ok(view);
  });

  app.delete(`${PREFIX}/webhooks/:endpointId`, guarded, async (request) => {
    const { storeId, endpointId } = parseOr400(endpointParams, request.params);
    await deleteEndpoint(db, storeId, endpointId);
    return ok({ deleted: endpointId } satisfies WebhookDeleted);
  });

  app.post(`${PREFIX}/webhooks/:endpointId/rotate-secret`, guarded, async (request) => {
    const { storeId, endpointId } = parseOr400(endpointParams, request.params);
    return ok(await rotateSecret(db, storeId, endpointId, now()));
  });

  app.get(`${PREFIX}/webhooks/:endpointId/deliveries`, guarded, async (request) => {
    const { storeId, endpointId } = parseOr400(endpointParams, request.params);
    const q = parseOr400(webhookDeliveriesQuery, request.query);
    return ok(await listDeliveries(db, storeId, endpointId, { status: q.status, before: q.cursor, limit: q.limit }));
  });

  app.post(`${PREFIX}/webhook-deliveries/:deliveryId/replay`, guarded, async (request) => {
    const { storeId, deliveryId } = parseOr400(deliveryParams, request.params);
    const view = await replayDelivery(db, storeId, deliveryId, now());
    deps.kick();
    return ok(view);
  });
}

async function requireStaff(request: FastifyRequest): Promise<void> {
  if (!(request as { staff?: unknown }).staff) throw new ApiError(401, 'Please log in to the console.', { errorCode: 'login_required' });
}
