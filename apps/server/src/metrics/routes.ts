/**
 * Issue 32: where a Prometheus scraper reads a node's figures (./app.ts).
 *
 * - `METRICS_TOKEN` set: `GET /metrics` on the node's own port, with `Authorization: Bearer <token>`
 *   (401 without it; the figures name no shopper, but backlogs and order counts are the business's).
 * - `METRICS_PORT` set: a second listener on `METRICS_HOST` (default 127.0.0.1) answers `/metrics`
 *   with no token: a port the proxy never routes to and only the scraper's network reaches.
 * - Neither: `/metrics` is not served (404), as before.
 */
import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../http/envelope.ts';
import type { AppMetrics } from './app.ts';

export function registerMetricsRoute(app: FastifyInstance, metrics: AppMetrics, token: string | undefined): void {
  if (!token) return;
  const expected = Buffer.from(`Bearer ${token}`);
  app.get('/metrics', async (request, reply) => {
    const given = Buffer.from(String(request.headers.authorization ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      reply.header('www-authenticate', 'Bearer');
      return sendError(reply, 401, 'A valid metrics token is required');
    }
    return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(await metrics.text());
  });
}

/** The separate listener of METRICS_PORT; resolves once listening, with its port and a close. */
export async function startMetricsServer(
  metrics: AppMetrics,
  port: number,
  host = '127.0.0.1',
): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: this port serves /metrics only\n');
      return;
    }
    metrics.text().then(
      (body) => res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(body),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as { port: number }).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
