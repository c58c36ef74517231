/**
 * The console's API-key routes (/api/console/stores/:storeId/api-keys), `api-keys:manage`
 * (managers and owners). The staff guard has checked the session, CSRF, the store and the role;
 * the handlers only ever touch keys of `:storeId`. The key itself is in the creation's answer only.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { apiKeyCreateBody } from '@verdant/domain/console-api';
import { z } from 'zod';
import { dbId } from '../http/ids.ts';
import type { Database } from '../db/schema.ts';
import { ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import { staffOf } from '../staff/guard.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './keys.ts';

const PREFIX = '/api/console/stores/:storeId/api-keys';
const MANAGE = { console: { permission: 'api-keys:manage' as const } };
const id = dbId();
const storeParams = z.object({ storeId: id });
const keyParams = storeParams.extend({ keyId: id });

export function registerApiKeyConsoleRoutes(app: FastifyInstance, deps: { db: Kysely<Database>; now?: () => Date }): void {
  const now = deps.now ?? (() => new Date());
  const { db } = deps;

  app.get(PREFIX, { config: MANAGE }, async (request) => {
    const { storeId } = parseOr400(storeParams, request.params);
    return ok(await listApiKeys(db, storeId));
  });

  app.post(PREFIX, { config: MANAGE }, async (request) => {
    const { storeId } = parseOr400(storeParams, request.params);
    const body = parseOr400(apiKeyCreateBody, request.body);
    const staff = staffOf(request);
    return ok(await createApiKey(db, storeId, { name: body.name, scopes: body.scopes, createdBy: staff.name }, now()));
  });

  app.post(`${PREFIX}/:keyId/revoke`, { config: MANAGE }, async (request) => {
    const { storeId, keyId } = parseOr400(keyParams, request.params);
    staffOf(request);
    return ok(await revokeApiKey(db, storeId, keyId, now()));
  });
}
