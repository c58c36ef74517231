/**
 * Security headers of every answer (pages, API, static files), through @fastify/helmet:
 *  - a Content-Security-Policy whose script-src allows this origin and one nonce per page
 *    answer (React Router's inline hydration scripts carry it; the SSR mount hands it to the
 *    render and re-stamps cached pages with it). Styles allow 'unsafe-inline': React writes
 *    style attributes (the brand colours on <html>), which a style nonce would forbid.
 *  - frame-ancestors 'none' (and X-Frame-Options DENY for old browsers): no store is framed.
 *  - Strict-Transport-Security only when the request came over TLS as TRUST_PROXY lets us see
 *    it (request.protocol === 'https'); sent over plain HTTP it would be ignored at best.
 *  - Cache-Control: no-store on personal API answers (accounts, carts, orders, order tracking,
 *    newsletter, the console), so no shared cache or back/forward cache keeps a customer's data.
 */
import { randomFillSync } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';

const NONCE = Symbol('cspNonce');
type WithNonce = ServerResponse & { [NONCE]?: string };

/**
 * 128 random bits per nonce, from the CSPRNG in batches of 256 nonces (one `randomFillSync` per
 * batch rather than a buffer and a call per page answer, as Node's own randomUUID batches its
 * entropy); each slice of the pool is used once.
 */
const noncePool = Buffer.alloc(16 * 256);
let nonceAt = noncePool.length;
function newNonce(): string {
  if (nonceAt === noncePool.length) {
    randomFillSync(noncePool);
    nonceAt = 0;
  }
  nonceAt += 16;
  return noncePool.toString('base64', nonceAt - 16, nonceAt);
}

/** The CSP nonce of this answer (made on first use; the header and the page share it). */
export function cspNonceOf(reply: FastifyReply): string {
  const res = reply.raw as WithNonce;
  res[NONCE] ??= newNonce();
  return res[NONCE];
}

export const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'style-src': ["'self'", "'unsafe-inline'"],
  'script-src-attr': ["'none'"],
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
  'connect-src': ["'self'"],
} as const;

/** Stands for the nonce in the policy helmet writes; replaced per answer. */
const NONCE_SLOT = 'NONCE-SLOT';

function helmetOptions(scriptSrc: string[]): FastifyHelmetOptions {
  return {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: { ...CSP_DIRECTIVES, 'script-src': scriptSrc } },
    // HSTS is decided per request (only behind TLS).
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // The store's images and icons are same-origin; nothing is shared cross-origin on purpose.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    // Headers for browsers long gone (IE's download prompt, Flash policies, the removed XSS
    // auditor): each costs every answer and protects no current browser.
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  };
}

const NOT_HELMETS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * The headers @fastify/helmet sends with these options, read once from a probe instance.
 * @fastify/helmet builds a new helmet middleware on every request (measured: +40–70 µs per
 * request, as much as the whole API answer), so the app sets the computed headers itself.
 */
async function helmetHeaders(scriptSrc: string[]): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, helmetOptions(scriptSrc));
  probe.get('/', async () => '');
  const res = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) if (!NOT_HELMETS.has(name) && typeof value === 'string') headers[name] = value;
  return headers;
}

/**
 * Paths whose answers are one customer's own data (an order's status and timeline by number and
 * phone included), or the console's, which shows customers' data to one staff session.
 */
const PERSONAL = /^\/api\/(?:user|cart|order|order-tracking|newsletter|console)(?:\/|$|\?)/;

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  // JSON answers run no script: no nonce (and no random bytes) for them.
  const api = await helmetHeaders(["'self'"]);
  const page = await helmetHeaders(["'self'", `'nonce-${NONCE_SLOT}'`]);
  const pagePolicy = page['content-security-policy'];
  if (!pagePolicy?.includes(NONCE_SLOT)) throw new Error('helmet wrote no script nonce into the CSP');
  const [before, after] = pagePolicy.split(NONCE_SLOT);
  delete page['content-security-policy'];
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith('/api/')) {
      reply.headers(api);
      if (PERSONAL.test(request.url)) reply.header('cache-control', 'no-store');
    } else {
      reply.headers(page);
      // 'self' covers the hashed modules; the nonce the inline bootstrap scripts; nothing else runs.
      reply.header('content-security-policy', before + cspNonceOf(reply) + after);
    }
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    done();
  });
}

/** The least every answer carries, for the few that Fastify sends before any hook (a bad URL). */
export function setBareSecurityHeaders(reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
}
