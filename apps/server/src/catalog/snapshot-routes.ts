/**
 * `GET /api/catalog/snapshot` (issue 6, spec §1 "works offline"): everything the browser needs to
 * run the store's catalogue pages with no network — the store's settings, its products (with
 * prices and stock as of now), categories, attributes, CMS pages and blocks, tax rules and URL
 * rewrites, and the time it was made. The browser keeps it in IndexedDB and answers category,
 * search, product and CMS pages from it offline with the same search engine (packages/search) and
 * the same catalogue modules as the server (./offline-services.ts).
 *
 * The JSON is made once per store and catalogue version (dropped when the store's catalogue
 * changes) and carries an ETag, so a browser refreshing an unchanged copy gets a 304.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { Store } from '@verdant/domain';
import type { CatalogIndexManager } from './index-manager.ts';
import type { CatalogSnapshot } from './offline-services.ts';

interface Prepared {
  json: string;
  gzip: Buffer;
  etag: string;
}

export function registerSnapshotRoutes(app: FastifyInstance, deps: { manager: CatalogIndexManager; clock: () => Date }): void {
  const prepared = new Map<number, Prepared>();
  app.onStoreInvalidated((storeId) => (storeId == null ? prepared.clear() : prepared.delete(storeId)));

  const prepare = (store: Store): Prepared => {
    let entry = prepared.get(store.storeId);
    if (!entry) {
      const snapshot: CatalogSnapshot = {
        version: 1,
        generatedAt: deps.clock().toISOString(),
        store,
        attributes: [...deps.manager.allAttributes()],
        content: deps.manager.catalog(store.storeId).content(),
      };
      const json = JSON.stringify(snapshot);
      entry = { json, gzip: gzipSync(json), etag: `"${createHash('sha1').update(json).digest('base64url')}"` };
      prepared.set(store.storeId, entry);
    }
    return entry;
  };

  app.get(
    '/api/catalog/snapshot',
    {
      config: {
        docs: {
          summary: 'The whole catalogue of the store, for offline use',
          description: 'Not in the `{code, result}` envelope: the snapshot itself, with an ETag (`If-None-Match` answers 304) and gzip when accepted.',
          tags: ['Catalogue'],
          security: 'none',
          headers: { 'If-None-Match': 'optional: the ETag of the snapshot held; 304 when unchanged' },
          errors: { 304: 'Not modified' },
        },
      },
    },
    async (request, reply) => {
    const entry = prepare(request.store);
    reply.header('etag', entry.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(entry.gzip);
    return reply.send(entry.json);
  });
}
