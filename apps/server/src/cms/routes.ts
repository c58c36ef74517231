/**
 * CMS API (spec §7 CMS): a page or block of the request's store by id or by identifier, or the
 * store's active pages or blocks as a list (at most 150, spec §9). Inactive content answers like
 * missing content: 404 "CMS query returned empty result" (spec §8).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  SEARCH_DEFAULTS,
  cmsQuery,
  type CmsBlockDocument,
  type CmsPageDocument,
  type SearchIndex,
} from '@verdant/search';
import type { CatalogIndexManager } from '../catalog/index-manager.ts';
import { parseOr400 } from '../http/parse.ts';
import { requestStore } from '../http/request-store.ts';
import { searching } from '../http/searching.ts';
import { CatalogNotFoundError, LOOKUP_MESSAGES } from '../catalog/product-lookup.ts';
import { ok } from '../http/envelope.ts';
import type { StoreRegistry } from '../stores/registry.ts';

const LIST_SIZE = SEARCH_DEFAULTS.cmsBlockListSize;

const byId = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, 'id must be a whole number')
    .transform(Number),
});
const listQuery = z
  .object({
    identifier: z.string().trim().min(1, 'identifier must not be empty').max(255).optional(),
    size: z
      .string()
      .regex(/^\d{1,4}$/, 'size must be a whole number')
      .transform(Number)
      .pipe(z.number().min(1).max(LIST_SIZE, `size must be at most ${LIST_SIZE}`))
      .optional(),
    storeCode: z.string().optional(),
  })
  .strict();

export interface CmsRouteDeps {
  registry: StoreRegistry;
  manager: CatalogIndexManager;
}

type CmsDocument = CmsPageDocument | CmsBlockDocument;

export function registerCmsRoutes(app: FastifyInstance, { registry, manager }: CmsRouteDeps): void {
  const routes: [string, (storeId: number) => SearchIndex<CmsDocument>][] = [
    ['page', (storeId) => manager.catalog(storeId).cmsPages],
    ['block', (storeId) => manager.catalog(storeId).cmsBlocks],
  ];
  for (const [type, indexOf] of routes) {
    app.get(
      `/api/cms/${type}/:id`,
      { config: { docs: { summary: `Read one CMS ${type} by id`, tags: ['CMS'], params: byId, security: 'none', errors: { 404: 'No such active CMS entry' } } } },
      async (request) => {
      const store = requestStore(registry, request);
      const { id } = parseOr400(byId, request.params, 'catalog');
      const doc = indexOf(store.storeId).get(id);
      if (!doc || !doc.is_active) throw new CatalogNotFoundError(LOOKUP_MESSAGES.cms);
      return ok(doc);
    });

    app.get(
      `/api/cms/${type}`,
      { config: { docs: { summary: `Find a CMS ${type} by identifier, or list them`, tags: ['CMS'], query: listQuery, security: 'none', errors: { 404: 'No active CMS entry with that identifier' } } } },
      async (request) => {
      const store = requestStore(registry, request);
      const q = parseOr400(listQuery, request.query, 'catalog');
      const index = indexOf(store.storeId);
      if (q.identifier !== undefined) {
        const found = index.search(cmsQuery({ identifiers: [q.identifier], size: 1 }));
        if (found.items.length === 0) throw new CatalogNotFoundError(LOOKUP_MESSAGES.cms);
        return ok(found.items[0]);
      }
      const list = searching(() => index.search(cmsQuery({ size: q.size ?? LIST_SIZE })));
      return ok({ items: list.items, total: list.total, start: list.start, perPage: list.perPage });
    });
  }
}
