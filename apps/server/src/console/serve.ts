/**
 * Serves the staff console (apps/console, a single-page app built apart from the storefront) at
 * /console: every page path answers the app's index.html (the browser router takes it from
 * there), never cached, since it names the current hashed bundle; the hashed files under
 * /console/assets/ are immutable. Nothing under /console is for search engines.
 *
 * The security headers hook (http/security-headers.ts) gives these answers the page CSP: the
 * console runs no inline script, so 'self' covers it, and connect-src 'self' its API and event stream.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { REPO_ROOT } from '../config.ts';

export const CONSOLE_DIST_DIR = path.join(REPO_ROOT, 'apps/console/dist');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};
/** A built asset's name: no directories, no dot files (so no way out of the assets folder). */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

export interface ConsoleOptions {
  /** The console's build (default apps/console/dist). */
  dir?: string;
}

export function registerConsole(app: FastifyInstance, opts: ConsoleOptions = {}): void {
  const dir = opts.dir ?? CONSOLE_DIST_DIR;
  const assetsDir = path.join(dir, 'assets');
  const indexFile = path.join(dir, 'index.html');
  // Kept in memory and read again when the file changes (one stat per page load): a rebuild while
  // the server runs is served at once, never an index naming assets that no longer exist.
  let cached: { mtimeMs: number; html: Buffer } | null = null;

  const shell = async (_request: unknown, reply: FastifyReply) => {
    reply.header('x-robots-tag', 'noindex, nofollow');
    const stat = await fs.promises.stat(indexFile).catch(() => null);
    if (!stat?.isFile()) {
      reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8');
      return `The store console is not built (${path.relative(REPO_ROOT, indexFile)} is missing). Run "npm run build".`;
    }
    if (cached?.mtimeMs !== stat.mtimeMs) cached = { mtimeMs: stat.mtimeMs, html: await fs.promises.readFile(indexFile) };
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return cached.html;
  };

  app.get('/console', shell);
  app.get('/console/*', shell);
  app.get<{ Params: { file: string } }>('/console/assets/:file', async (request, reply) => {
    reply.header('x-robots-tag', 'noindex, nofollow');
    const name = request.params.file;
    const file = path.join(assetsDir, name);
    const stat = ASSET_NAME.test(name) ? await fs.promises.stat(file).catch(() => null) : null;
    if (!stat?.isFile()) {
      reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8');
      return 'Not found';
    }
    // Hashed names: a new build has new names, so a file never changes under its name.
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    reply.header('content-length', stat.size);
    reply.type(TYPES[path.extname(name)] ?? 'application/octet-stream');
    return reply.send(fs.createReadStream(file));
  });
}
