/**
 * ID and medical card uploads (spec §3): one JPEG, PNG or PDF (judged by its magic bytes, never
 * by the name or the client's content type), at most 10 MB, stored under
 * DATA_DIR/private/uploads/<customer>/<random> — outside /media, so never served publicly.
 *   POST /api/user/upload?kind=id|medcard  (multipart, one file)
 *   GET  /api/user/uploads                 (the token customer's own, metadata only)
 * A customer keeps only what the store needs: the latest file of each kind. An upload replaces
 * the earlier ones of its kind (rows and files), and at most UPLOADS_PER_HOUR upload attempts
 * per customer are taken (shared through Redis when set), so storage per customer is bounded.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';
import { accountsOf, requireCustomer } from '../auth/context.ts';
import { parseOr400 } from '../http/parse.ts';
import { ApiError, ok } from '../http/envelope.ts';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Attempts per customer and hour: a shopper retakes a photo a few times, never dozens. */
export const UPLOADS_PER_HOUR = 10;
export const UPLOAD_MESSAGES = {
  fileRequired: 'Please attach one file.',
  badType: 'Only JPEG, PNG or PDF files can be uploaded.',
  tooLarge: 'The file is larger than 10 MB.',
  malformed: 'The upload is not a valid multipart form.',
  quota: 'Too many uploads. Please try again later.',
} as const;

const kindSchema = z.object({ kind: z.enum(['id', 'medcard'], { error: 'kind must be id or medcard' }) });

/** The type a file's first bytes say it is, or null. */
export function sniff(head: Buffer): 'image/jpeg' | 'image/png' | 'application/pdf' | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head.length >= 5 && head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return null;
}

export function registerUploadRoutes(app: FastifyInstance): void {
  // Encapsulated: the multipart parser exists only for these routes. Loaded by avvio at ready.
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5 } });

    scope.post(
      '/api/user/upload',
      {
        config: {
          docs: {
            summary: 'Upload my ID or medical card (one JPEG, PNG or PDF file, up to 10 MB)',
            description: 'A `multipart/form-data` body with one file; the `kind` query parameter says which document it is. A new upload of a kind replaces the last.',
            tags: ['User'],
            query: kindSchema,
            security: 'customer',
            errors: { 400: 'No file, not a JPEG, PNG or PDF file, or not a valid form', 401: 'No valid customer token', 413: 'The file is larger than 10 MB', 429: 'Too many uploads' },
          },
        },
      },
      async (request, reply) => {
      const claims = await requireCustomer(request);
      const { kind } = parseOr400(kindSchema, request.query, 'shopper');
      if (!request.isMultipart()) throw new ApiError(400, UPLOAD_MESSAGES.fileRequired);
      const { db, dataDir, now, limiter } = accountsOf(app);
      const allowed = await limiter.hit(`upload:${claims.customerId}`, UPLOADS_PER_HOUR, 3_600_000).catch((err: unknown) => {
        // Storage stays bounded without the counter (one file per kind is kept): fail open.
        request.log.warn({ err }, 'upload quota unavailable');
        return true;
      });
      if (!allowed) {
        // The limiter keeps no reset time: an hour is the longest the window can still run.
        reply.header('retry-after', '3600');
        throw new ApiError(429, UPLOAD_MESSAGES.quota);
      }
      const { file, data } = await readOneFile(request);
      const mime = sniff(data);
      if (!mime) throw new ApiError(400, UPLOAD_MESSAGES.badType);
      const dir = path.join(dataDir, 'private', 'uploads', String(claims.customerId));
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const name = randomBytes(16).toString('hex');
      await writeFile(path.join(dir, name), data, { mode: 0o600 });
      const row = await db
        .insertInto('uploads')
        .values({
          store_id: request.store.storeId,
          customer_id: claims.customerId,
          kind,
          stored_path: path.join('private', 'uploads', String(claims.customerId), name),
          original_name: file.filename ? file.filename.slice(0, 255) : null,
          mime,
          size_bytes: data.length,
          sha256: createHash('sha256').update(data).digest('hex'),
          created_at: now().toISOString(),
        })
        .returning(['id', 'kind', 'mime', 'size_bytes', 'sha256', 'created_at'])
        .executeTakeFirstOrThrow()
        .catch(async (error: unknown) => {
          await unlink(path.join(dir, name)).catch(() => undefined);
          throw error;
        });
      // The new file replaces every earlier one of its kind: all rows below the newest id. Not
      // below our own id: on PostgreSQL ids are taken before commits, so a later id may commit
      // first; each upload's delete runs after its insert, so the last delete sees every insert
      // and exactly the newest row survives (an upload that lost answers a row already replaced).
      const mine = (q: SelectQueryBuilder<Database, 'uploads', object>) =>
        q.where('customer_id', '=', claims.customerId).where('store_id', '=', request.store.storeId).where('kind', '=', kind);
      const replaced = await db
        .deleteFrom('uploads')
        .where('customer_id', '=', claims.customerId)
        .where('store_id', '=', request.store.storeId)
        .where('kind', '=', kind)
        .where('id', '<', (eb) => mine(eb.selectFrom('uploads')).select((e) => e.fn.max('id').as('newest')))
        .returning('stored_path')
        .execute();
      for (const old of replaced) await unlink(path.join(dataDir, old.stored_path)).catch(() => undefined);
      // A new document waits for staff review (issue 12): the earlier decision was about another file.
      await db
        .updateTable('customers')
        .set(kind === 'id' ? { id_status: 'pending', id_review_reason: null } : { medcard_status: 'pending', medcard_review_reason: null })
        .where('id', '=', claims.customerId)
        .execute();
      return reply.send(ok(row));
    });

    /** The one file part, buffered; a malformed form (no boundary, cut short) is a 400, not a 500. */
    async function readOneFile(request: FastifyRequest): Promise<{ file: MultipartFile; data: Buffer }> {
      try {
        const file = await request.file();
        if (!file) throw new ApiError(400, UPLOAD_MESSAGES.fileRequired);
        return { file, data: await file.toBuffer() };
      } catch (error) {
        const e = error as Error & { code?: string; statusCode?: number };
        if (e instanceof ApiError) throw e;
        if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, UPLOAD_MESSAGES.tooLarge);
        if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) throw e;
        // busboy's own errors ("Boundary not found", "Unexpected end of form") carry no status.
        throw new ApiError(400, UPLOAD_MESSAGES.malformed);
      }
    }

    scope.get(
      '/api/user/uploads',
      { config: { docs: { summary: 'List my uploaded documents', description: '`deleted_at`: the image was deleted after the check, as the store’s data retention says (the result of the check is kept).', tags: ['User'], security: 'customer', errors: { 401: 'No valid customer token' } } } },
      async (request) => {
      const claims = await requireCustomer(request);
      const rows = await accountsOf(app)
        .db.selectFrom('uploads')
        .select(['id', 'kind', 'mime', 'size_bytes', 'sha256', 'original_name', 'created_at', 'purged_at as deleted_at'])
        .where('customer_id', '=', claims.customerId)
        .where('store_id', '=', request.store.storeId)
        .orderBy('id', 'desc')
        .execute();
      return ok(rows);
    });
  });
}
