/**
 * `GET /img/:width/:height/*`: a product image from `DATA_DIR/media` at one of the sizes of spec
 * §9, as WebP (PNG for clients that do not accept WebP), with long cache headers. Other sizes are
 * refused with 400, paths leaving the media directory with 400, and `no_selection` or a missing
 * file answers the placeholder (with a short cache life, since the image may arrive later).
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sendError } from '../http/envelope.ts';
import { IMAGE_SIZES, ImageResizer, isAllowedSize, mediaPath, PLACEHOLDER_FILE } from './resize.ts';

/** Cached renders of real images: a month (a changed source gets a new render, not a new URL). */
const LONG_CACHE = 'public, max-age=2592000';
const PLACEHOLDER_CACHE = 'public, max-age=300';

const params = z.object({
  width: z.string().regex(/^\d{1,4}$/),
  height: z.string().regex(/^\d{1,4}$/),
  '*': z.string().max(1024),
});

const SIZES_TEXT = IMAGE_SIZES.map((s) => `${s.width}x${s.height}`).join(', ');

export function registerImageRoutes(app: FastifyInstance, opts: { dataDir: string; placeholderFile?: string }): void {
  const resizer = new ImageResizer({
    mediaDir: path.resolve(opts.dataDir, 'media'),
    cacheDir: path.resolve(opts.dataDir, 'cache', 'img'),
    placeholderFile: opts.placeholderFile ?? PLACEHOLDER_FILE,
  });

  app.get('/img/:width/:height/*', async (request, reply) => {
    const parsed = params.safeParse(request.params);
    if (!parsed.success) return sendError(reply, 400, `Image size must be one of ${SIZES_TEXT}`);
    const width = Number(parsed.data.width);
    const height = Number(parsed.data.height);
    if (!isAllowedSize(width, height)) return sendError(reply, 400, `Image size must be one of ${SIZES_TEXT}`);
    // Throws ImagePathError (400) for a path that would leave the media directory.
    const rel = mediaPath(parsed.data['*']);
    const webp = /\bimage\/webp\b/.test(request.headers.accept ?? '');
    const image = await resizer.get(rel, width, height, webp ? 'webp' : 'png');
    return reply
      .type(image.format === 'webp' ? 'image/webp' : 'image/png')
      .header('cache-control', image.placeholder ? PLACEHOLDER_CACHE : LONG_CACHE)
      .header('vary', 'Accept')
      .send(createReadStream(image.file));
  });
}
