/**
 * `GET /sitemap.xml` (also behind the store-code prefix) and `GET /robots.txt` for the store the
 * host resolves to. Registered before the SSR catch-all, so they are never rendered as pages.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CatalogIndexManager } from '../catalog/index-manager.ts';
import { MESSAGES } from '@verdant/domain';
import { sendError } from '../http/envelope.ts';
import { robotsTxt, sitemapEntries, sitemapXml } from './sitemap.ts';

export interface SeoRouteDeps {
  manager: CatalogIndexManager;
}

/** The scheme and host the shopper used (behind a proxy: X-Forwarded-Proto/Host, trustProxy is on). */
function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** '' or '/{storeCode}': the prefix this request came in with, or the store's own (appendStoreCode). */
function basePath(request: FastifyRequest): string {
  return request.storePathPrefix || (request.store.appendStoreCode ? `/${request.store.storeCode}` : '');
}

export function registerSeoRoutes(app: FastifyInstance, { manager }: SeoRouteDeps): void {
  const sitemap = async (request: FastifyRequest) => {
    const xml = sitemapXml(
      sitemapEntries(manager.catalog(request.store.storeId), request.store),
      origin(request),
      basePath(request),
    );
    return xml;
  };
  app.get('/sitemap.xml', async (request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(await sitemap(request)),
  );
  app.get('/:storeCode/sitemap.xml', async (request, reply) => {
    // Only a real store-code prefix (which the onRequest hook turned into storePathPrefix).
    if (!request.storePathPrefix) return sendError(reply, 404, MESSAGES.pageNotFound);
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(await sitemap(request));
  });
  app.get('/robots.txt', async (request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(robotsTxt(origin(request), basePath(request))),
  );
}
