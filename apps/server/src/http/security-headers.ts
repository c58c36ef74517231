/**
 * Security headers of every answer (pages, API, static files), through @fastify/helmet:
 *  - a Content-Security-Policy whose script-src allows this origin and one nonce per page
 *    answer (React Router's inline hydration scripts carry it; the SSR mount hands it to the
 *    render and re-stamps cached pages with it). Styles allow 'unsafe-inline': React writes
 *    style attributes (the brand colours on <html>), which a style nonce would forbid.
 *  - frame-ancestors 'none' (and X-Frame-Options DENY for old browsers): no store is framed.
 *  - Strict-Transport-Security only when the request came over TLS as TRUST_PROXY lets us see
 *    it (request.protocol === 'https'); sent over plain HTTP it would be ignored at best.
 *  - Cache-Control: no-store on personal API answers (accounts, carts, orders, newsletter), so no
 *    shared cache or back/forward cache keeps a customer's data.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';

const NONCE = Symbol('cspNonce');
type WithNonce = ServerResponse & { [NONCE]?: string };

/** The CSP nonce of this answer (made on first use; the header and the page share it). */
export function cspNonceOf(reply: FastifyReply): string {
  const res = reply.raw as WithNonce;
  res[NONCE] ??= randomBytes(16).toString('base64');
  return res[NONCE];
}

function isApi(url: string | undefined): boolean {
  return url !== undefined && url.startsWith('/api/');
}

/** JSON answers run no script: they get no nonce (and need no random bytes). */
function scriptNonce(req: IncomingMessage, res: ServerResponse): string {
  if (isApi(req.url)) return '';
  const r = res as WithNonce;
  r[NONCE] ??= randomBytes(16).toString('base64');
  return `'nonce-${r[NONCE]}'`;
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

/** Paths whose answers are one customer's own data. */
const PERSONAL = /^\/api\/(?:user|cart|order|newsletter)(?:\/|$|\?)/;

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        ...CSP_DIRECTIVES,
        // 'self' covers the hashed modules; the nonce the inline bootstrap scripts; nothing else runs.
        'script-src': ["'self'", scriptNonce],
      },
    },
    // HSTS is decided per request below (only behind TLS).
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // The store's images and icons are same-origin; nothing is shared cross-origin on purpose.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    if (PERSONAL.test(request.url)) reply.header('cache-control', 'no-store');
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
