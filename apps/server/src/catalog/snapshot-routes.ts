/**
 * `GET /api/catalog/snapshot` (issue 6, spec §1 "works offline"): everything the browser needs to
 * run the store's catalogue pages with no network — the store's settings, its products (with
 * prices and stock as of now), categories, attributes, CMS pages and blocks, tax rules and URL
 * rewrites, the time it was made, and the store's active deals with its display setting (issue 28). The browser keeps it in IndexedDB and answers category,
 * search, product and CMS pages from it offline with the same search engine (packages/search) and
 * the same catalogue modules as the server (./offline-services.ts).
 *
 * The JSON is made once per store and catalogue version (dropped when the store's catalogue
 * changes) and carries an ETag, so a browser refreshing an unchanged copy gets a 304.
 *
 * Two formats (issue 15). `?format=2` is the compact one (./snapshot-format.ts: columns and one
 * string table, the same documents) that today's storefront asks for, downloads and indexes in a
 * worker (apps/web/app/offline/catalog-worker.ts); it is precompressed once with gzip and, when the
 * browser accepts it, brotli. Without the parameter the answer is version 1 (the documents as
 * JSON), for pages a shopper still has open from before: they keep working. Each format is made
 * only when first asked for.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Store, TaxLine } from '@verdant/domain';
import type { CatalogIndexManager } from './index-manager.ts';
import type { CatalogSnapshot } from './offline-services.ts';
import { parseOr400 } from '../http/parse.ts';
import { encodeSnapshot } from './snapshot-format.ts';
import type { PageDealsSource } from '../deals/page-deals.ts';

const snapshotQuery = z.object({ format: z.enum(['1', '2']).optional().describe('`2`: the compact form; version 1 without it') });

interface Prepared {
  json: string;
  gzip: Buffer;
  /** Brotli, for the compact format only (quality 9: ~10% under gzip, made once per catalogue version). */
  brotli?: Buffer;
  etag: string;
}

export function registerSnapshotRoutes(
  app: FastifyInstance,
  deps: {
    manager: CatalogIndexManager;
    clock: () => Date;
    pageDeals?: (store: Store) => Promise<PageDealsSource | null>;
    /** The store's named tax lines (tax/section.ts), for the offline estimate's taxes. */
    taxLines?: (store: Store) => Promise<readonly TaxLine[]>;
  },
): void {
  // Per store: the version-1 copy and the compact one, each made on first request.
  const prepared = new Map<number, { v1?: Prepared; v2?: Prepared }>();
  app.onStoreInvalidated((storeId) => (storeId == null ? prepared.clear() : prepared.delete(storeId)));

  const prepare = async (store: Store, compact: boolean): Promise<Prepared> => {
    // Issue 28: the store's active deals and display setting ride along (a deal change drops this copy).
    const deals = deps.pageDeals ? await deps.pageDeals(store) : null;
    const taxLines = deps.taxLines ? await deps.taxLines(store) : [];
    let forStore = prepared.get(store.storeId);
    if (!forStore) prepared.set(store.storeId, (forStore = {}));
    let entry = compact ? forStore.v2 : forStore.v1;
    if (!entry) {
      const snapshot: CatalogSnapshot = {
        version: 1,
        generatedAt: deps.clock().toISOString(),
        store,
        attributes: [...deps.manager.allAttributes()],
        content: deps.manager.catalog(store.storeId).content(),
        ...(deals && deals.records.length > 0 ? { deals } : {}),
        ...(taxLines.length > 0 ? { tax: { lines: [...taxLines] } } : {}),
      };
      const json = JSON.stringify(compact ? encodeSnapshot(snapshot) : snapshot);
      entry = { json, gzip: gzipSync(json, compact ? { level: 9 } : {}), etag: `"${compact ? 'c2-' : ''}${createHash('sha1').update(json).digest('base64url')}"` };
      if (compact) {
        entry.brotli = brotliCompressSync(json, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(json) },
        });
        forStore.v2 = entry;
      } else forStore.v1 = entry;
    }
    return entry;
  };

  app.get(
    '/api/catalog/snapshot',
    {
      config: {
        docs: {
          summary: 'The whole catalogue of the store, for offline use',
          description:
            'Not in the `{code, result}` envelope: the snapshot itself, with an ETag (`If-None-Match` answers 304) and gzip when accepted. ' +
            '`?format=2`: the compact form (columns and a string table; brotli too when accepted).',
          tags: ['Catalogue'],
          security: 'none',
          query: snapshotQuery,
          headers: { 'If-None-Match': 'optional: the ETag of the snapshot held; 304 when unchanged' },
          errors: { 304: 'Not modified' },
        },
      },
    },
    async (request, reply) => {
    const compact = parseOr400(snapshotQuery, request.query, 'catalog').format === '2';
    const entry = await prepare(request.store, compact);
    reply.header('etag', entry.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    const accepted = String(request.headers['accept-encoding'] ?? '');
    if (entry.brotli && /\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(entry.brotli);
    if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(entry.gzip);
    return reply.send(entry.json);
  });
}
