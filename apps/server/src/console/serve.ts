/**
 * Serves the staff console (apps/console, a single-page app built apart from the storefront) at
 * /console: every page path answers the app's index.html (the browser router takes it from
 * there), never cached, since it names the current hashed bundle; the hashed files under
 * /console/assets/ are immutable, sent as the build's brotli or gzip copy (`x.js.br`, `x.js.gz`,
 * written by scripts/compress-assets.mjs after `vite build`) when the browser accepts it: a phone
 * at the counter downloads the order queue's script at about a third of its size. Nothing under
 * /console is for search engines.
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
  '.webmanifest': 'application/manifest+json; charset=utf-8',
};

/**
 * Files at the build's root (apps/console/public, issue 29 "The driver's phone"): the console's
 * service worker and its web app manifest and icons, so a driver's phone installs the console and
 * opens the driver's pages offline. Not hashed: revalidated on every use (the worker's own update
 * check reads it anew too).
 */
export const CONSOLE_ROOT_FILES = ['sw.js', 'manifest.webmanifest', 'icon.svg', 'icon-192.png', 'icon-512.png'] as const;
/** The build's compressed copies, best first. */
const ENCODINGS = [
  { name: 'br', ext: '.br' },
  { name: 'gzip', ext: '.gz' },
] as const;

/** The codings an Accept-Encoding header allows (`br;q=0` refuses brotli; `*` allows any). */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [raw, ...params] = part.toLowerCase().split(';');
    const name = raw?.trim();
    const q = params.map((p) => p.replace(/\s/g, '')).find((p) => p.startsWith('q='));
    if (!name || (q !== undefined && !(Number(q.slice(2)) > 0))) continue;
    if (name === '*') for (const e of ENCODINGS) accepted.add(e.name);
    else accepted.add(name);
  }
  return accepted;
}

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

  for (const name of CONSOLE_ROOT_FILES)
    app.get(`/console/${name}`, async (_request, reply) => {
      reply.header('x-robots-tag', 'noindex, nofollow');
      const file = path.join(dir, name);
      const body = await fs.promises.readFile(file).catch(() => null);
      if (!body) {
        reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8');
        return 'Not found';
      }
      reply.header('cache-control', 'no-cache');
      reply.type(TYPES[path.extname(name)] ?? 'application/octet-stream');
      return reply.send(body);
    });
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
    reply.header('vary', 'Accept-Encoding');
    reply.type(TYPES[path.extname(name)] ?? 'application/octet-stream');
    const accepted = acceptedEncodings(request.headers['accept-encoding']);
    for (const encoding of ENCODINGS) {
      if (!accepted.has(encoding.name)) continue;
      const copy = await fs.promises.stat(file + encoding.ext).catch(() => null);
      if (!copy?.isFile()) continue;
      reply.header('content-encoding', encoding.name);
      reply.header('content-length', copy.size);
      return reply.send(fs.createReadStream(file + encoding.ext));
    }
    reply.header('content-length', stat.size);
    return reply.send(fs.createReadStream(file));
  });
}
