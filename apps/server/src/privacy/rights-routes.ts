/**
 * The shopper's data rights (issue 31; privacy/rights.ts, docs/operators/privacy.md):
 *   GET  /api/user/data-export   one zip: data.json, a CSV per table, the ID / medical card files
 *   POST /api/user/delete {confirm: true}   delete the account (sales records kept, anonymised)
 * Both take the customer of the access token in the request's store only, and are rate-limited
 * per customer like uploads (shared through Redis when set).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { accountsOf, requireCustomer } from '../auth/context.ts';
import { AUTH_MESSAGES } from '../auth/tokens.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import { RIGHTS_MESSAGES, deleteAccount, exportAccount } from './rights.ts';
import { DATA_RETENTION_SECTION } from './section.ts';

/** Downloads per customer and hour: an archive is built from every table. */
export const EXPORTS_PER_HOUR = 5;
/** Delete requests per customer and hour: generous, a repeated click or a retry answers again. */
export const DELETES_PER_HOUR = 30;

const deleteSchema = z.object({ confirm: z.literal(true, { error: 'Please confirm that the account is to be deleted.' }) }).strict();

export function registerDataRightsRoutes(app: FastifyInstance): void {
  const deps = () => {
    const a = accountsOf(app);
    return { db: a.db, dataDir: a.dataDir, secret: a.secret, now: a.now };
  };

  async function allow(key: string, max: number, message: string, reply: FastifyReply, log: { warn(o: object, m: string): void }) {
    const allowed = await accountsOf(app)
      .limiter.hit(key, max, 3_600_000)
      .catch((err: unknown) => {
        log.warn({ err }, 'data rights limiter unavailable');
        return true;
      });
    if (!allowed) {
      reply.header('retry-after', '3600');
      throw new ApiError(429, message);
    }
  }

  app.get(
    '/api/user/data-export',
    {
      config: {
        docs: {
          summary: 'Download everything the store holds about me (a zip archive)',
          description:
            'Answers `application/zip`: `data.json` (every table with my rows, the upload list, and what deleting the account would do to each), `csv/<table>.csv`, and my ID and medical card files under `uploads/`. Shape: docs/operators/privacy.md.',
          tags: ['User'],
          security: 'customer',
          errors: { 401: 'No valid customer token', 429: 'Too many downloads' },
        },
      },
    },
    async (request, reply) => {
      const claims = await requireCustomer(request);
      await allow(`data-export:${claims.customerId}`, EXPORTS_PER_HOUR, RIGHTS_MESSAGES.exportLimit, reply, request.log);
      const archive = await exportAccount(deps(), request.store.storeId, claims.customerId);
      if (!archive) throw new ApiError(401, AUTH_MESSAGES.tokenInvalid);
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${archive.filename}"`)
        .header('cache-control', 'no-store')
        .send(Buffer.from(archive.bytes));
    },
  );

  app.post(
    '/api/user/delete',
    {
      config: {
        docs: {
          summary: 'Delete my account',
          description:
            'Removes or anonymises my personal data; orders stay as the store\'s sales records (anonymised) for the retention period. Refused while an order is open (409, `open_orders`). Repeating the call answers `deleted: false`. Every session ends.',
          tags: ['User'],
          body: deleteSchema,
          security: 'customer',
          errors: { 400: 'The body does not confirm', 401: 'No valid customer token', 409: 'An order is still open', 429: 'Too many requests' },
        },
      },
    },
    async (request, reply) => {
      const claims = await requireCustomer(request);
      parseOr400(deleteSchema, request.body, 'shopper');
      await allow(`data-delete:${claims.customerId}`, DELETES_PER_HOUR, RIGHTS_MESSAGES.deleteLimit, reply, request.log);
      const { salesRecordYears } = (await app.storeSettings.get(request.store.storeId, DATA_RETENTION_SECTION)).value;
      return ok(await deleteAccount({ ...deps(), salesRecordYears }, request.store.storeId, claims.customerId));
    },
  );
}
