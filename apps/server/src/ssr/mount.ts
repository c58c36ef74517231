import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { createRequestHandler, type ServerBuild } from 'react-router';
import type { AppContext } from '@verdant/web/context';
import { cspNonceOf } from '../http/security-headers.ts';
import { OUTPUT_CACHE_HEADER, OutputCache, pageBody, pageGzip, type CachedPage } from './output-cache.ts';

/**
 * Mounts the React Router build on Fastify: hashed client assets from build/client, then every
 * other GET/POST goes to the React Router request handler with the per-request AppContext.
 * (The ready-made adapters need Node 22; this bridge is the ~40 lines we need.)
 */
export async function loadWebBuild(buildDir: string): Promise<ServerBuild> {
  const entry = path.join(buildDir, 'server/index.js');
  if (!fs.existsSync(entry)) {
    throw new Error(`The storefront is not built (${entry} is missing). Run "npm run build" first.`);
  }
  return (await import(pathToFileURL(entry).href)) as ServerBuild;
}

/** Set by the web app's entry.server.tsx on a Response whose whole body is already rendered. */
const RENDERED_BODY = Symbol.for('verdant.ssr.renderedBody');

function toRequest(req: FastifyRequest, signal: AbortSignal): Request {
  const url = new URL(req.url, `${req.protocol}://${req.headers.host ?? 'localhost'}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    // The SSR context registers no body parsers, so the raw body stream is still unread here.
    init.body = Readable.toWeb(req.raw) as ReadableStream;
    init.duplex = 'half';
  }
  return new Request(url, init);
}

async function sendResponse(reply: FastifyReply, response: Response): Promise<void> {
  reply.code(response.status);
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie' || name === OUTPUT_CACHE_HEADER) continue;
    reply.header(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) reply.header('set-cookie', cookies);
  // A page rendered to the end before it was answered (entry.server.tsx): its bytes in one write
  // (read first: such an answer makes its body stream only when asked for it).
  const rendered = (response as Response & { [RENDERED_BODY]?: Buffer })[RENDERED_BODY];
  if (rendered) return reply.send(rendered);
  if (!response.body) return reply.send();
  return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
}

function sendCached(request: FastifyRequest, reply: FastifyReply, page: CachedPage, state: 'HIT' | 'MISS') {
  reply.code(page.status);
  for (const [name, value] of page.headers) reply.header(name, value);
  reply.header('x-output-cache', state);
  reply.header('vary', 'Accept-Encoding, Cookie');
  // The page as rendered for an earlier request, stamped with this answer's CSP nonce.
  const nonce = cspNonceOf(reply);
  if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
    reply.header('content-encoding', 'gzip');
    return reply.send(pageGzip(page, nonce));
  }
  return reply.send(pageBody(page, nonce));
}

export interface SsrOptions {
  build: ServerBuild;
  buildDir: string;
  mode: 'production' | 'development';
  context: (request: FastifyRequest) => AppContext;
  /** Shared with whoever invalidates a store's pages after its catalogue changed. */
  outputCache: OutputCache;
  /** What else a page depends on now, part of the output cache's key (issue 28: the deals live now). */
  pageVariant?: (store: AppContext['store']) => Promise<string>;
}

export async function registerSsr(app: FastifyInstance, opts: SsrOptions): Promise<void> {
  const handle = createRequestHandler(opts.build, opts.mode);
  const clientDir = path.join(opts.buildDir, 'client');

  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: clientDir,
      // Only the files that exist get routes, so unknown paths fall through to the page handler.
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies (scripts/compress-assets.mjs): sent as the browser accepts.
      preCompressed: true,
      setHeaders(reply, sentPath) {
        // With preCompressed, the file sent may be the .br or .gz copy: judge by the original name.
        const filePath = sentPath.replace(/\.(?:br|gz)$/, '');
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        if (path.basename(filePath) === 'sw.js') {
          // The service worker must be re-checked on every visit, or a fix would wait a day to reach shoppers.
          reply.header('cache-control', 'no-cache');
          reply.header('service-worker-allowed', '/');
          return;
        }
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });

    // Leave request bodies unread: React Router parses form posts itself.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));

    const page = async (request: FastifyRequest, reply: FastifyReply) => {
      // The nonce of this answer's Content-Security-Policy header goes into its inline scripts.
      const nonce = cspNonceOf(reply);
      const context: AppContext = { ...opts.context(request), cspNonce: nonce };
      const cacheKey = {
        method: request.method,
        url: request.url,
        storeId: context.store.storeId,
        cookie: request.headers.cookie,
        authorization: request.headers.authorization,
        variant: opts.pageVariant ? await opts.pageVariant(context.store) : undefined,
      };
      const cached = await opts.outputCache.lookup(cacheKey);
      if (cached) return sendCached(request, reply, cached, 'HIT');

      const controller = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      const response = await handle(toRequest(request, controller.signal), context);
      const admitted = await opts.outputCache.admit(cacheKey, response, nonce);
      if (admitted) return sendCached(request, reply, admitted, 'MISS');
      return sendResponse(reply, response);
    };
    scope.route({ method: ['GET', 'HEAD', 'POST'], url: '/', handler: page });
    scope.route({ method: ['GET', 'HEAD', 'POST'], url: '/*', handler: page });
  });
}
