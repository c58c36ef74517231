/**
 * Deals through the integration API (issue 28 "Deals also come through the integration API
 * (create/update/end by the store's own ids)"), under /api/integration/v1, scope `menu:write` (a
 * POS that manages the menu's prices manages its promotions; no new scope for keys to be re-issued):
 *
 *   GET    /deals                  the store's deals (those with an external id and the console's)
 *   PUT    /deals/:externalId      create the deal with this external id, or replace its record
 *   DELETE /deals/:externalId      end it (final; ending an ended deal answers the same)
 *
 * The record is the engine's model (packages/domain/src/deals/model.ts), validated by its schema; a
 * bad one answers 400 `invalid_deal` naming the field. A PUT may carry the `version` it read (409
 * `stale_deal` when the deal changed since); without one it replaces whatever is there (a POS is
 * usually the only writer of its own deals). `status` in the record is ignored on update (paused /
 * resumed in the console; `status: "paused"` on create makes it paused). Writes carry an
 * Idempotency-Key like every integration write; the change's history row names the API key.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import type { RouteDocs } from '../http/route-docs.ts';
import { dealView } from './console-routes.ts';

interface KeyLike {
  storeId: number;
  row: { id: number; name: string };
}
interface Answer {
  status: number;
  body: unknown;
}

/** The integration API's helpers (integration/routes.ts `IntegrationRouteHelpers`, handed over by app.ts) and the database. */
export interface DealIntegrationDeps {
  db: Kysely<Database>;
  prefix: string;
  route: (scope: 'menu:write', docs: Omit<RouteDocs, 'security' | 'tags'> & { tags?: string[] }) => { onRequest: onRequestHookHandler; config: { docs: RouteDocs } };
  once: (request: FastifyRequest, reply: FastifyReply, work: (key: KeyLike) => Promise<Answer>) => Promise<unknown>;
  keyOf: (request: FastifyRequest) => KeyLike;
  headers: Record<string, string>;
  commonErrors: Record<number, string>;
  writeErrors: Record<number, string>;
}

export const externalDealParams = z.object({
  externalId: z
    .string()
    .min(1, 'The external id must not be empty.')
    .max(100, 'The external id is at most 100 characters.')
    .regex(/^[A-Za-z0-9._:-]+$/, 'The external id may hold letters, digits and . _ : - only.'),
});
export const dealPutBody = z
  .strictObject({
    record: z.record(z.string(), z.unknown(), { message: 'record must be the deal as a JSON object.' }),
    version: z.number().int().min(1).optional(),
  });

export function registerDealIntegrationRoutes(app: FastifyInstance, deps: DealIntegrationDeps): void {
  const tags = ['Integration: deals'];

  app.get(
    `${deps.prefix}/deals`,
    deps.route('menu:write', { summary: 'List the store’s deals', tags, errors: deps.commonErrors }),
    async (request) => {
      const key = deps.keyOf(request);
      return ok({ items: (await app.deals.list(key.storeId)).map(dealView) });
    },
  );

  app.put(
    `${deps.prefix}/deals/:externalId`,
    deps.route('menu:write', {
      summary: 'Create or replace a deal by your own id',
      description:
        'The deal record of the engine (kinds set_discount, buy_get, mix_match, bundle, threshold; see docs/operators/deals.md). ' +
        'No deal with this external id: it is created (its `id` is the record’s, or made from the title). Otherwise its record is ' +
        'replaced; send the `version` you read to be told (409 `stale_deal`) of a change made meanwhile. An ended deal cannot be changed (409 `deal_ended`).',
      tags,
      params: externalDealParams,
      body: dealPutBody,
      headers: deps.headers,
      errors: { ...deps.writeErrors, 409: 'Stale version, an ended deal, or the record’s id is another deal’s.' },
    }),
    async (request, reply) =>
      deps.once(request, reply, async (key) => {
        const { externalId } = parseOr400(externalDealParams, request.params);
        const body = parseOr400(dealPutBody, request.body);
        const actor = { type: 'api_key' as const, id: key.row.id, name: key.row.name };
        const existing = await app.deals.getByExternalId(key.storeId, externalId);
        if (!existing) {
          const created = await app.deals.create(key.storeId, body.record, actor, { source: 'api', externalId });
          return { status: 201, body: { code: 201, result: dealView(created) } };
        }
        const { status: _ignored, ...record } = body.record;
        const saved = await app.deals.update(key.storeId, existing.id, record, body.version ?? existing.version, actor, { source: 'api' });
        return { status: 200, body: ok(dealView(saved)) };
      }),
  );

  app.delete(
    `${deps.prefix}/deals/:externalId`,
    deps.route('menu:write', {
      summary: 'End a deal by your own id',
      description: 'Ends the deal (final: it stays listed, as ended, with its history and redemptions). Ending an ended deal answers the same.',
      tags,
      params: externalDealParams,
      headers: deps.headers,
      errors: { ...deps.writeErrors, 404: 'No deal with this external id in this store.' },
    }),
    async (request, reply) =>
      deps.once(request, reply, async (key) => {
        const { externalId } = parseOr400(externalDealParams, request.params);
        const existing = await app.deals.getByExternalId(key.storeId, externalId);
        if (!existing) throw new ApiError(404, 'No deal with this external id in this store.', { errorCode: 'deal_not_found' });
        const ended = await app.deals.setStatus(key.storeId, existing.id, 'end', null, { type: 'api_key', id: key.row.id, name: key.row.name }, { source: 'api' });
        return { status: 200, body: ok(dealView(ended)) };
      }),
  );
}
