/**
 * `POST /api/order/save` (spec §7 Orders). The idempotency key (a UUID) comes in the body as
 * `idempotency_key` or in the `Idempotency-Key` header; a repeat of a placed order answers the
 * first order's response (header `Idempotent-Replayed: true`), a reuse with another payload 422.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CommerceContext } from '../commerce-context.ts';
import { ApiError } from '../http/envelope.ts';
import { AUTH_MESSAGES } from '../auth/tokens.ts';
import { CART_MESSAGES as M } from '../cart/messages.ts';
import { viewerOf } from '../cart/repository.ts';
import { parseOr400 } from '../http/parse.ts';
import { requestHash } from './idempotency.ts';
import { placeOrder } from './place.ts';
import { orderSaveSchema } from './schema.ts';
import { AGE_SECTION } from '../age/section.ts';

const uuid = z.string().uuid();

export function registerOrderRoutes(app: FastifyInstance, c: CommerceContext): void {
  app.post(
    '/api/order/save',
    {
      config: {
        docs: {
          summary: 'Place the order of a cart',
          description:
            'An idempotency key (a UUID) is required, as `idempotency_key` in the body or the `Idempotency-Key` header: a repeat of a placed order answers ' +
            'the first order (header `Idempotent-Replayed: true`), the same key with another payload is a 422. A customer token makes it the customer\'s order.',
          tags: ['Order'],
          body: orderSaveSchema,
          security: 'none',
          headers: { 'Idempotency-Key': 'A UUID, the same for every retry of this order; needed unless idempotency_key is in the body' },
          errors: { 400: 'Invalid order, e.g. no `birthday` for a guest ("Please enter your birthday") or a shopper under the store\'s minimum age on the order date in the store\'s time zone', 401: 'The customer token is invalid or expired', 409: 'A product is no longer available, or this order is still being placed', 422: 'The idempotency key was used for another order' },
        },
      },
    },
    async (request, reply) => {
    try {
      return await saveOrder(request, reply);
    } catch (err) {
      // Issue 32: refusals by reason on /metrics (verdant_orders_refused_total).
      if (err instanceof ApiError && app.hasDecorator('metrics')) app.metrics.orderRefused(refusalReason(err));
      throw err;
    }
  });

  async function saveOrder(request: FastifyRequest, reply: FastifyReply) {
    const input = parseOr400(orderSaveSchema, request.body, 'shopper');
    const header = request.headers['idempotency-key'];
    const fromHeader = typeof header === 'string' && header !== '' ? header.trim() : undefined;
    if (fromHeader && input.idempotency_key && fromHeader.toLowerCase() !== input.idempotency_key.toLowerCase()) {
      throw new ApiError(400, M.idempotencyKeyConflict);
    }
    const key = (input.idempotency_key ?? fromHeader)?.toLowerCase();
    if (!key || !uuid.safeParse(key).success) throw new ApiError(400, M.idempotencyKeyRequired);
    const viewer = await viewerOf(request);
    // An expired or forged token: the customer's browser refreshes and sends again, so the order
    // (and a replay of its key) is judged as that customer's, never as a stranger's.
    if (viewer.tokenInvalid) throw new ApiError(401, AUTH_MESSAGES.tokenInvalid);
    // The hash covers what the order means (the parsed payload, not ignored fields such as prices)
    // and whose it is: another customer (or a guest) repeating a key is refused as a reuse (422),
    // never answered the first order.
    const { idempotency_key: _ignored, ...meaning } = input;
    const hash = requestHash(request.store.storeId, { ...meaning, customer: viewer.customer?.id ?? null });
    // The store's minimum age for medical orders (setting `age`, ../age/section.ts).
    const age = app.hasDecorator('storeSettings') ? (await app.storeSettings.get(request.store.storeId, AGE_SECTION)).value : undefined;
    const answer = await placeOrder(c.db, request.store, input, key, hash, viewer, c.now(), age);
    if (answer.replayed) reply.header('idempotent-replayed', 'true');
    else {
      if (app.hasDecorator('metrics')) app.metrics.orderPlaced(input.order_type);
      // Issue 32: the line the request id is followed from (the outbox, messages and webhooks log it too).
      const placed = (answer.body as { result: { order_id: number; increment_id: string } }).result;
      request.log.info({ store: request.store.storeCode, orderId: placed.order_id, order: placed.increment_id }, 'order placed');
      // The order's events were committed with it: the console hears at once (outbox/signal.ts).
      if (app.hasDecorator('outbox')) app.outbox.kick();
    }
    // Stock went down: listings and searches must stop offering what sold out. The index update
    // (milliseconds) runs after the answer; a failure only delays it until the next change.
    if (answer.stockChanged.length && app.hasDecorator('catalog')) {
      app.catalog
        .catalogChanged(request.store.storeId, answer.stockChanged, { stockOnly: true })
        .catch((err) => request.log.warn({ err }, 'catalogue update after order failed'));
    }
    return reply.code(answer.status).send(answer.body);
  }
}

/** What a refused order is counted under: the answer's error code, the message's name, or its status. */
export function refusalReason(err: ApiError): string {
  if (err.extra?.errorCode) return err.extra.errorCode;
  const named = MESSAGE_NAMES.get(err.message);
  if (named) return named;
  return STATUS_REASONS[err.statusCode] ?? `status_${err.statusCode}`;
}
const MESSAGE_NAMES = new Map<string, string>(
  Object.entries(M).flatMap(([name, text]) => (typeof text === 'string' ? [[text, name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] as const] : [])),
);
const STATUS_REASONS: Record<number, string> = { 400: 'invalid_order', 401: 'token_invalid', 409: 'unavailable', 422: 'idempotency_key_reused' };
