/**
 * ID and medical card uploads (spec §3): one JPEG, PNG or PDF (judged by its magic bytes, never
 * by the name or the client's content type), at most 10 MB, stored under
 * DATA_DIR/private/uploads/<customer>/<random> — outside /media, so never served publicly.
 *   POST /api/user/upload?kind=id|medcard  (multipart, one file)
 *   GET  /api/user/uploads                 (the token customer's own, metadata only)
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { accountsOf, requireCustomer } from '../auth/context.ts';
import { parseOr400 } from '../cart/routes.ts';
import { ApiError, ok } from '../http/envelope.ts';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const UPLOAD_MESSAGES = {
  fileRequired: 'Please attach one file.',
  badType: 'Only JPEG, PNG or PDF files can be uploaded.',
  tooLarge: 'The file is larger than 10 MB.',
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

    scope.post('/api/user/upload', async (request, reply) => {
      const claims = await requireCustomer(request);
      const { kind } = parseOr400(kindSchema, request.query);
      if (!request.isMultipart()) throw new ApiError(400, UPLOAD_MESSAGES.fileRequired);
      const file = await request.file();
      if (!file) throw new ApiError(400, UPLOAD_MESSAGES.fileRequired);
      const data = await file.toBuffer().catch((error: Error & { code?: string }) => {
        if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, UPLOAD_MESSAGES.tooLarge);
        throw error;
      });
      const mime = sniff(data);
      if (!mime) throw new ApiError(400, UPLOAD_MESSAGES.badType);
      const { db, dataDir, now } = accountsOf(app);
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
        .executeTakeFirstOrThrow();
      return reply.send(ok(row));
    });

    scope.get('/api/user/uploads', async (request) => {
      const claims = await requireCustomer(request);
      const rows = await accountsOf(app)
        .db.selectFrom('uploads')
        .select(['id', 'kind', 'mime', 'size_bytes', 'sha256', 'original_name', 'created_at'])
        .where('customer_id', '=', claims.customerId)
        .where('store_id', '=', request.store.storeId)
        .orderBy('id', 'desc')
        .execute();
      return ok(rows);
    });
  });
}
