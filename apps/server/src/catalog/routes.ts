/**
 * The catalogue search API (spec §7):
 *  - `GET /api/catalog/products`: the product list of category pages and the search panel
 *    (cards, facets with labels, attribute metadata, suggestions), as the web's "Load more" and
 *    search panel call it. Filters are the URL values of the filter panel (`brand_id=3&price=0-50`),
 *    except that `size` is the page size, so the size filter is sent as `sizes=92&sizes=93`;
 *  - `POST /api/catalog/search`: the raw query model for clients that build their own queries
 *    (and, later, sync the offline copy): any entity, any filters, but the store's always-applied
 *    filters are added here whatever the client sends, and sizes are capped at 999 (spec §9).
 * Lookups (categories, attributes, single products) are in ./lookup-routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { filtersFromSearchParams, isLicenseType, type ProductSearchParams, type Store } from '@verdant/domain';
import { SEARCH_DEFAULTS, productScopeFilters, type Filter, type SearchQuery } from '@verdant/search';
import type { StorefrontServices } from '@verdant/web/context';
import { ApiError, ok } from '../http/envelope.ts';
import { TtlCache, storeKey } from '../cache/ttl-cache.ts';
import type { StoreRegistry } from '../stores/registry.ts';
import { parseOr400 } from '../http/parse.ts';
import { requestStore } from '../http/request-store.ts';
import { searching } from '../http/searching.ts';
import type { CatalogIndexManager } from './index-manager.ts';
import { LOOKUP_MESSAGES } from './product-lookup.ts';
import { registerCatalogLookupRoutes } from './lookup-routes.ts';
import type { StoreCatalog } from './store-catalog.ts';
import { hiddenCategoryIds, visibleCategoryIds } from './visibility.ts';

export interface CatalogRouteDeps {
  registry: StoreRegistry;
  manager: CatalogIndexManager;
  services: StorefrontServices;
  clock: () => Date;
}

const MAX_SIZE = SEARCH_DEFAULTS.maxFilterQuerySize;
/** Query parameters of the products list that are not filters. */
const LIST_PARAMS = ['text', 'category', 'start', 'size', 'license_type', 'storeCode'];

const integer = (name: string) =>
  z
    .string()
    .regex(/^-?\d{1,9}$/, `${name} must be a whole number`)
    .transform(Number);

const listQuery = z.object({
  text: z.string().max(200, 'text is too long').optional(),
  category: z.string().min(1, 'category must not be empty').max(500).optional(),
  start: integer('start').optional(),
  size: integer('size')
    .pipe(z.number().max(MAX_SIZE, `size must be at most ${MAX_SIZE}`))
    .optional(),
  license_type: z.string().refine(isLicenseType, 'license_type must be recreational or medical').optional(),
});

const searchBody = z.object({
  entity: z.enum(['product', 'category', 'attribute', 'taxrule', 'cms_page', 'cms_block']),
  query: z
    .object({
      size: z.number().int().max(MAX_SIZE, `size must be at most ${MAX_SIZE}`).optional(),
      start: z.number().int().optional(),
    })
    .passthrough()
    .default({}),
});

/** A category id or url_path (`menu/flower`), visible in this store; 404 otherwise (spec §8). */
function categoryParam(catalog: StoreCatalog, store: Store, raw: string): number {
  const visible = visibleCategoryIds(store, catalog.allCategories());
  if (/^\d+$/.test(raw)) {
    const id = Number(raw);
    if (!visible.has(id)) throw new ApiError(404, LOOKUP_MESSAGES.category('id', id));
    return id;
  }
  const path = raw.replace(/^\/+|\/+$/g, '');
  const category = catalog.categoryByPath(path);
  if (!category || !visible.has(category.id)) throw new ApiError(404, LOOKUP_MESSAGES.category('url_path', path));
  return category.id;
}

/** The filters this store always applies to an entity, whatever a client asked for. */
function enforcedFilters(entity: z.infer<typeof searchBody>['entity'], catalog: StoreCatalog, store: Store): Filter[] {
  switch (entity) {
    case 'product': {
      const hidden = hiddenCategoryIds(store, catalog.allCategories());
      const categoryIds = hidden.size > 0 ? [...visibleCategoryIds(store, catalog.allCategories())] : undefined;
      return productScopeFilters({
        storeId: store.storeId,
        categoryIds,
        includeOutOfStock: store.catalog.listOutOfStockProducts,
      });
    }
    case 'category':
      return [
        {
          field: 'id',
          op: 'in',
          values: [...visibleCategoryIds(store, catalog.allCategories(), { includeInactive: true })],
        },
      ];
    case 'cms_page':
    case 'cms_block':
      return [{ field: 'is_active', op: 'eq', value: true }];
    default:
      return [];
  }
}

export function registerCatalogRoutes(app: FastifyInstance, deps: CatalogRouteDeps): void {
  const { registry, manager, services, clock } = deps;

  // Identical list requests repeat (instant search, category pages): keep the serialised answer
  // for a minute, bounded, keyed by store and URL, dropped when the store's catalogue changes.
  const answers = new TtlCache<string>(60_000, 500);
  app.onStoreInvalidated((storeId) => answers.invalidate(storeId));

  app.get(
    '/api/catalog/products',
    {
      config: {
        docs: {
          summary: 'Search and filter the store\'s products (catalogue search of spec §7)',
          description:
            'Besides these parameters, filters and the sort are query parameters too: an attribute code with a value (repeatable, e.g. `brand=12&brand=13`), ' +
            '`price=0-50`, `sizes=92` for the size filter, potency ranges `thc=20-25` / `cbd=0-1` (%) and `thc_mg=10-100` / `cbd_mg=0-10` (mg per package), ' +
            '`rating=4` (4 stars and up), `sort=price_asc|price_desc|thc_desc|thc_asc|top_rated`. Unknown filters or sorts are a 400.',
          tags: ['Catalogue'],
          query: listQuery,
          security: 'none',
          errors: { 404: 'No such category or store' },
        },
      },
    },
    async (request, reply) => {
    const store = requestStore(registry, request);
    const key = storeKey(store.storeId, request.url);
    const hit = answers.peek(key);
    if (hit) return reply.type('application/json; charset=utf-8').send(await hit);
    const raw = request.query as Record<string, string | string[]>;
    // Each non-filter parameter once; filters may repeat (`sizes=92&sizes=93`).
    const single: Record<string, string> = {};
    for (const key of LIST_PARAMS) {
      const v = raw[key];
      if (Array.isArray(v)) throw new ApiError(400, `${key} must be given once`);
      if (v !== undefined) single[key] = v;
    }
    const q = parseOr400(listQuery, single, 'catalog');
    // `size` is the page size here, so the size filter travels as `sizes` (the index field's name).
    const filterParams = new URLSearchParams();
    for (const [key, value] of new URL(request.url, 'http://x').searchParams) {
      if (key === 'size') continue;
      filterParams.append(key === 'sizes' ? 'size' : key, value);
    }
    const { filters, sort, invalid } = filtersFromSearchParams(filterParams, {
      ignore: LIST_PARAMS.filter((k) => k !== 'size'),
    });
    if (invalid.length > 0) throw new ApiError(400, `Invalid filter or sort: ${invalid.slice(0, 5).join(', ')}`);
    const params: ProductSearchParams = { filters, start: q.start, size: q.size };
    if (sort) params.sort = sort;
    if (q.text !== undefined) params.text = q.text;
    if (q.license_type !== undefined) params.licenseType = q.license_type as ProductSearchParams['licenseType'];
    if (q.category !== undefined) params.categoryId = categoryParam(manager.catalog(store.storeId), store, q.category);
    const list = await searching(() => services.searchProducts(store, params));
    const body = JSON.stringify(
      ok({
        items: list.items,
        total: list.total,
        start: list.start,
        perPage: list.perPage,
        aggregations: list.facets,
        attributeMetadata: list.attributeMetadata,
        suggestions: list.suggestions,
      }),
    );
    answers.set(key, body);
    return reply.type('application/json; charset=utf-8').send(body);
  });

  app.post(
    '/api/catalog/search',
    {
      config: {
        docs: {
          summary: 'Search the catalogue index (products, categories, attributes, tax rules, CMS)',
          description: 'The store\'s own filters (visibility, status, stock, store) are always added to the query\'s `filters`.',
          tags: ['Catalogue'],
          body: searchBody,
          security: 'none',
        },
      },
    },
    async (request) => {
    const store = requestStore(registry, request);
    const body = parseOr400(searchBody, request.body ?? {}, 'catalog');
    const catalog = manager.catalog(store.storeId);
    const query = body.query as SearchQuery;
    if (query.filters !== undefined && !Array.isArray(query.filters))
      throw new ApiError(400, 'query.filters must be an array');
    const enforced: SearchQuery = {
      ...query,
      filters: [...enforcedFilters(body.entity, catalog, store), ...(query.filters ?? [])],
    };
    const index = {
      product: catalog.products,
      category: catalog.categories,
      attribute: catalog.attributes,
      taxrule: catalog.taxRules,
      cms_page: catalog.cmsPages,
      cms_block: catalog.cmsBlocks,
    }[body.entity] as StoreCatalog['products'];
    return ok(searching(() => index.search(enforced, { now: clock() })));
  });

  registerCatalogLookupRoutes(app, { registry, manager });
}
