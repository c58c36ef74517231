/**
 * `GET /api/console/stores/:storeId/messages?orderId=&limit=`: the store's SMS and e-mail log
 * (`message_deliveries`), newest first: what was sent to whom, when, or why not yet; through which
 * gateway, whether it arrived (the provider's receipt, issue 30) and which row a fallback stands in
 * for. In the demo this is the "SMS outbox" staff look at.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { messageState, messagesQuery, type MessageDeliveryView, type MessageList } from '@verdant/domain/console-api';
import { z } from 'zod';
import { dbId } from '../http/ids.ts';
import type { Database } from '../db/schema.ts';
import { ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import { staffOf } from '../staff/guard.ts';

const params = z.object({ storeId: dbId() });

export type { MessageDeliveryView } from '@verdant/domain/console-api';

export async function listMessages(
  db: Kysely<Database>,
  storeId: number,
  filter: { orderId?: number; limit: number },
): Promise<MessageDeliveryView[]> {
  let q = db
    .selectFrom('message_deliveries')
    .select([
      'id',
      'event_id',
      'order_id',
      'channel',
      'recipient',
      'template',
      'subject',
      'body',
      'status',
      'attempts',
      'next_attempt_at',
      'last_error',
      'sent_at',
      'created_at',
      'provider',
      'provider_id',
      'receipt',
      'receipt_at',
      'fallback_of',
    ])
    .where('store_id', '=', storeId);
  if (filter.orderId !== undefined) q = q.where('order_id', '=', filter.orderId);
  const rows = await q.orderBy('id', 'desc').limit(filter.limit).execute();
  return rows.map((r) => ({ ...r, state: messageState(r) }));
}

export function registerMessageRoutes(app: FastifyInstance, deps: { db: Kysely<Database> }): void {
  app.get('/api/console/stores/:storeId/messages', { config: { console: { permission: 'orders:read' } } }, async (request, reply) => {
    staffOf(request);
    const { storeId } = parseOr400(params, request.params);
    const filter = parseOr400(messagesQuery, request.query);
    reply.header('cache-control', 'no-store');
    return ok({ items: await listMessages(deps.db, storeId, filter) } satisfies MessageList);
  });
}
