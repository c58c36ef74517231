/**
 * What the SMS and mail gateways tell us (issue 30), authenticated by `Authorization: Bearer
 * MESSAGE_STATUS_SECRET` (unset: every route here answers 404, as if absent):
 *  - POST /api/messages/status/sms and /api/messages/status/email `{id, status, error?}`: the
 *    delivery report for the id the gateway answered when it took the message (./receipts.ts:
 *    `delivered` is final, a failure writes the one fallback on the other channel); unknown id → 404;
 *  - POST /api/messages/inbound/sms `{from, text}`: a reply. A STOP word (STOP, UNSUBSCRIBE, …)
 *    withdraws both purposes on SMS for the number (`source: sms_stop`, the reply's words kept) in
 *    every store that has texted it or holds consent or an account for it, at once (its pending
 *    marketing texts are held back; anything else is refused at send time). START / UNSTOP grants
 *    transactional texts again (`sms_start`); marketing needs the consent form again. Other words: nothing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { isStartReply, isStopReply } from '@verdant/domain';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import { toE164 } from '../users/phone.ts';
import { recordConsent } from './consent.ts';
import { REPORTED_STATUSES, recordReceipt } from './receipts.ts';

export interface ProviderRouteDeps {
  db: Kysely<Database>;
  /** MESSAGE_STATUS_SECRET; unset: the routes answer 404. */
  secret?: string;
  timeZoneOf: (storeId: number) => string | undefined;
  /** New rows were written (a fallback): the sender looks now. */
  wake: () => void;
  now?: () => Date;
}

const statusBody = z.object({
  id: z.string().trim().min(1).max(200),
  status: z.enum(REPORTED_STATUSES),
  error: z.string().max(500).optional(),
});

const inboundBody = z.object({
  from: z.string().min(1).max(40),
  text: z.string().max(2000),
});

const digest = (value: string) => createHash('sha256').update(value).digest();

function authorize(request: FastifyRequest, secret: string | undefined): void {
  if (!secret) throw new ApiError(404, 'Not found', { errorCode: 'not_configured' });
  const header = request.headers.authorization ?? '';
  const given = header.startsWith('Bearer ') ? header.slice(7) : '';
  // Digests of equal length: the comparison takes the same time whatever was sent.
  if (!given || !timingSafeEqual(digest(given), digest(secret))) throw new ApiError(401, 'Bad or missing gateway secret', { errorCode: 'bad_signature' });
}

const GATEWAY_DOCS = {
  security: 'none' as const,
  headers: { Authorization: 'Bearer MESSAGE_STATUS_SECRET (required)' },
};

/** The stores that know the number: texted it, hold consent rows for it, or have an account with it. */
async function storesOf(db: Kysely<Database>, phone: string): Promise<number[]> {
  const [sent, consent, accounts] = await Promise.all([
    db.selectFrom('message_deliveries').select('store_id').distinct().where('channel', '=', 'sms').where('recipient', '=', phone).execute(),
    db.selectFrom('consent_events').select('store_id').distinct().where('channel', '=', 'sms').where('contact', '=', phone).execute(),
    db.selectFrom('customers').select('store_id').distinct().where('phone', '=', phone).execute(),
  ]);
  return [...new Set([...sent, ...consent, ...accounts].map((r) => r.store_id))].sort((a, b) => a - b);
}

export function registerProviderRoutes(app: FastifyInstance, deps: ProviderRouteDeps): void {
  const now = deps.now ?? (() => new Date());
  for (const channel of ['sms', 'email'] as const) {
    app.post(
      `/api/messages/status/${channel}`,
      {
        config: {
          docs: {
            summary: `Delivery report of the ${channel === 'sms' ? 'SMS' : 'mail'} gateway for a message it took`,
            description:
              '`id` is the id the gateway answered (`{"id": …}`) when it took the message. `delivered` is final; `failed` or `undelivered` sends the message once by the other channel where the shopper gave an address and consent allows. Repeats are harmless.',
            tags: ['Message gateways'],
            body: statusBody,
            ...GATEWAY_DOCS,
            errors: { 401: 'Bad or missing secret (`bad_signature`)', 404: 'No message with this id, or no MESSAGE_STATUS_SECRET set' },
          },
        },
      },
      async (request) => {
        // The body's shape first (the document's 400s), then who sent it.
        const body = parseOr400(statusBody, request.body ?? {});
        authorize(request, deps.secret);
        const outcome = await recordReceipt(
          { db: deps.db, timeZoneOf: deps.timeZoneOf, now },
          { channel, providerId: body.id, status: body.status, error: body.error },
        );
        if (!outcome.found) throw new ApiError(404, 'No message with this id', { errorCode: 'unknown_message' });
        if (outcome.fallback) deps.wake();
        return ok({ recorded: true, fallback: outcome.fallback });
      },
    );
  }

  app.post(
    '/api/messages/inbound/sms',
    {
      config: {
        docs: {
          summary: 'A text a shopper sent back (STOP, START, …)',
          description:
            'A STOP word (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT) withdraws all texts to the number, at once, in every store that knows it; START or UNSTOP allows order texts again (marketing needs new consent). Anything else is ignored. Answers what was done and in how many stores.',
          tags: ['Message gateways'],
          body: inboundBody,
          ...GATEWAY_DOCS,
          errors: { 401: 'Bad or missing secret (`bad_signature`)', 404: 'No MESSAGE_STATUS_SECRET set' },
        },
      },
    },
    async (request) => {
      const body = parseOr400(inboundBody, request.body ?? {});
      authorize(request, deps.secret);
      const phone = toE164(body.from);
      const stop = isStopReply(body.text);
      const start = !stop && isStartReply(body.text);
      if (!phone || (!stop && !start)) return ok({ action: 'none' as const, stores: 0 });
      const stores = await storesOf(deps.db, phone);
      const at = now();
      for (const storeId of stores)
        await deps.db.transaction().execute((trx) =>
          recordConsent(trx, {
            storeId,
            contact: phone,
            channel: 'sms',
            purposes: stop ? ['transactional', 'marketing'] : ['transactional'],
            action: stop ? 'withdrawn' : 'granted',
            source: stop ? 'sms_stop' : 'sms_start',
            words: body.text.trim().slice(0, 160),
            at,
          }),
        );
      return ok({ action: stop ? ('withdrawn' as const) : ('granted' as const), stores: stores.length });
    },
  );
}
