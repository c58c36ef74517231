/**
 * `POST /api/url/map` (spec §7 URL mapping): `{url, includeFields?, excludeFields?, options?,
 * filters?: {sku?}}` → `{code: 200, result: {_type, _source}}` with the product, category or CMS
 * page document, or `{code: 404, result: 'page-not-found'}`. Resolution (./resolve.ts) works on
 * the store's in-memory catalogue; the product document is shaped by the options
 * (./product-source.ts). groupId and groupToken are accepted and ignored until price tiers land.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CatalogIndexManager } from '../catalog/index-manager.ts';
import { parseOr400 } from '../http/parse.ts';
import { requestStore } from '../http/request-store.ts';
import { ok, sendError } from '../http/envelope.ts';
import type { StoreRegistry } from '../stores/registry.ts';
import { MAX_URL_LENGTH } from './normalize.ts';
import { productSource, projectFields } from './product-source.ts';
import { resolveUrl } from './resolve.ts';

export const PAGE_NOT_FOUND = 'page-not-found';

const fields = z.array(z.string().min(1).max(100)).max(200);
const mapBody = z.object({
  url: z.string().trim().min(1, 'url must not be empty').max(MAX_URL_LENGTH, 'url is too long'),
  includeFields: fields.nullish(),
  excludeFields: fields.nullish(),
  options: z
    .object({
      prefetchGroupProducts: z.boolean(),
      assignProductConfiguration: z.boolean(),
      populateRequestCacheTags: z.boolean(),
      setProductErrors: z.boolean(),
      fallbackToDefaultWhenNoAvailable: z.boolean(),
      separateSelectedVariant: z.boolean(),
      setConfigurableProductOptions: z.boolean(),
      filterUnavailableVariants: z.boolean(),
    })
    .partial()
    .nullish(),
  filters: z.object({ sku: z.string().min(1).max(255).nullish() }).nullish(),
  groupId: z.union([z.number(), z.string()]).nullish(),
  groupToken: z.string().max(2000).nullish(),
});

export interface UrlRouteDeps {
  registry: StoreRegistry;
  manager: CatalogIndexManager;
  clock: () => Date;
}

export function registerUrlRoutes(app: FastifyInstance, { registry, manager, clock }: UrlRouteDeps): void {
  app.post(
    '/api/url/map',
    {
      config: {
        docs: {
          summary: 'Resolve a storefront URL to the product, category or CMS page it shows',
          description: 'The answer has `_type` (product, category or cms_page) and `_source`; an unknown URL is a 404 with `page-not-found`.',
          tags: ['URL mapping'],
          body: mapBody,
          security: 'none',
          errors: { 404: 'page-not-found' },
        },
      },
    },
    async (request, reply) => {
    const store = requestStore(registry, request);
    const body = parseOr400(mapBody, request.body ?? {}, 'catalog');
    const resolution = resolveUrl(manager.catalog(store.storeId), store, body.url);
    if (!resolution) return sendError(reply, 404, PAGE_NOT_FOUND);
    const include = body.includeFields ?? undefined;
    const exclude = body.excludeFields ?? undefined;
    let source: object;
    if (resolution.type === 'product') {
      source = productSource({
        product: resolution.product,
        childSku: body.filters?.sku ?? resolution.child?.sku ?? null,
        options: body.options ?? {},
        allowOutOfStock: store.catalog.listOutOfStockProducts,
        now: clock(),
      });
    } else if (resolution.type === 'category') source = resolution.category;
    else source = resolution.page;
    return ok({ _type: resolution.type, _source: projectFields(source, include, exclude) });
  });
}
