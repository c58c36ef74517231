/**
 * Catalogue lookups of spec §7: categories (filters on parent_id, level, is_active and
 * product_count > 0, position ascending, size 4000), attributes (by attribute_code or
 * attribute_id, size 150; ids containing a dot are refused, spec §5) and single products by sku,
 * url_path or configurable child sku, with the spec §8 errors. Answers from the store's
 * in-memory catalogue; every answer is `{code, result}`.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Filter } from '@verdant/search';
import { SEARCH_DEFAULTS } from '@verdant/search';
import { ApiError, ok } from '../http/envelope.ts';
import type { StoreRegistry } from '../stores/registry.ts';
import { commaList, parseOr400 } from '../http/parse.ts';
import { requestStore } from '../http/request-store.ts';
import { searching } from '../http/searching.ts';
import type { CatalogIndexManager } from './index-manager.ts';
import { CatalogNotFoundError, LOOKUP_MESSAGES, loadProduct, parentOfChildSku } from './product-lookup.ts';
import { visibleCategoryIds } from './visibility.ts';

const flag = z
  .enum(['1', '0', 'true', 'false'], { message: 'expected 1, 0, true or false' })
  .transform((v) => v === '1' || v === 'true');
const id = z
  .string()
  .regex(/^\d{1,9}$/, 'expected a whole number')
  .transform(Number);
const storeCode = z.string().optional();

const categoriesQuery = z
  .object({
    parent_id: id.optional(),
    level: id.optional(),
    is_active: flag.optional(),
    product_count_gt: z
      .string()
      .regex(/^\d{1,9}$/, 'expected a whole number')
      .transform(Number)
      .optional(),
    size: id.pipe(z.number().min(1).max(SEARCH_DEFAULTS.categoryListSize)).optional(),
    start: id.optional(),
    storeCode,
  })
  .strict();

const attributesQuery = z
  .object({
    attribute_code: z.string().max(2000).optional(),
    attribute_id: z.string().max(2000).optional(),
    is_user_defined: flag.optional(),
    is_visible: flag.optional(),
    size: id.pipe(z.number().min(1).max(SEARCH_DEFAULTS.attributeListSize)).optional(),
    storeCode,
  })
  .strict();

const productQuery = z
  .object({
    sku: z.string().min(1).max(255).optional(),
    url_path: z.string().min(1).max(2048).optional(),
    child_sku: z.string().min(1).max(255).optional(),
    storeCode,
  })
  .strict();

/** GET /api/catalog/product/:sku takes no query parameter but storeCode. */
const productBySkuQuery = z.object({ storeCode }).strict();

export interface LookupRouteDeps {
  registry: StoreRegistry;
  manager: CatalogIndexManager;
}

export function registerCatalogLookupRoutes(app: FastifyInstance, { registry, manager }: LookupRouteDeps): void {
  app.get(
    '/api/catalog/categories',
    { config: { docs: { summary: 'List categories visible in the store', tags: ['Catalogue'], query: categoriesQuery, security: 'none' } } },
    async (request) => {
    const store = requestStore(registry, request);
    const q = parseOr400(categoriesQuery, request.query, 'catalog');
    const catalog = manager.catalog(store.storeId);
    // Compliance-hidden categories (and their descendants) are not part of this store's menu.
    const filters: Filter[] = [
      {
        field: 'id',
        op: 'in',
        values: [...visibleCategoryIds(store, catalog.allCategories(), { includeInactive: true })],
      },
    ];
    if (q.parent_id !== undefined) filters.push({ field: 'parent_id', op: 'eq', value: q.parent_id });
    if (q.level !== undefined) filters.push({ field: 'level', op: 'eq', value: q.level });
    if (q.is_active !== undefined) filters.push({ field: 'is_active', op: 'eq', value: q.is_active });
    if (q.product_count_gt !== undefined) filters.push({ field: 'product_count', op: 'range', gt: q.product_count_gt });
    const result = searching(() =>
      catalog.categories.search({
        filters,
        sort: [{ field: 'position', order: 'asc' }],
        start: q.start ?? 0,
        size: q.size ?? SEARCH_DEFAULTS.categoryListSize,
      }),
    );
    return ok({ items: result.items, total: result.total, start: result.start, perPage: result.perPage });
  });

  app.get(
    '/api/catalog/attributes',
    { config: { docs: { summary: 'List product attributes and their options', description: '`attribute_code` and `attribute_id` take comma-separated lists.', tags: ['Catalogue'], query: attributesQuery, security: 'none' } } },
    async (request) => {
    const store = requestStore(registry, request);
    const q = parseOr400(attributesQuery, request.query, 'catalog');
    const filters: Filter[] = [];
    if (q.attribute_code !== undefined)
      filters.push({ field: 'attribute_code', op: 'in', values: commaList(q.attribute_code) });
    if (q.attribute_id !== undefined) {
      const ids = commaList(q.attribute_id);
      // Spec §5: attribute ids containing a dot are never requested.
      if (ids.some((x) => x.includes('.'))) throw new ApiError(400, 'attribute_id must not contain a dot');
      if (!ids.every((x) => /^\d{1,9}$/.test(x))) throw new ApiError(400, 'attribute_id: expected whole numbers');
      filters.push({ field: 'attribute_id', op: 'in', values: ids.map(Number) });
    }
    if (q.is_user_defined !== undefined) filters.push({ field: 'is_user_defined', op: 'eq', value: q.is_user_defined });
    if (q.is_visible !== undefined) filters.push({ field: 'is_visible', op: 'eq', value: q.is_visible });
    const result = searching(() =>
      manager.catalog(store.storeId).attributes.search({ filters, size: q.size ?? SEARCH_DEFAULTS.attributeListSize }),
    );
    return ok({ items: result.items, total: result.total, start: result.start, perPage: result.perPage });
  });

  app.get<{ Params: { sku: string } }>(
    '/api/catalog/product/:sku',
    { config: { docs: { summary: 'Read one product by sku', tags: ['Catalogue'], query: productBySkuQuery, security: 'none', errors: { 404: 'No such product in this store' } } } },
    async (request) => {
    const store = requestStore(registry, request);
    parseOr400(productBySkuQuery, request.query, 'catalog');
    const sku = request.params.sku;
    if (!sku || sku.length > 255) throw new ApiError(400, LOOKUP_MESSAGES.searchKey);
    const product = loadProduct(manager.catalog(store.storeId), store, sku);
    if (!product) throw new CatalogNotFoundError(`Product query returned empty result sku = ${sku}`);
    return ok(product);
  });

  app.get(
    '/api/catalog/product',
    { config: { docs: { summary: 'Find one product by sku, url_path or a child\'s sku', tags: ['Catalogue'], query: productQuery, security: 'none', errors: { 404: 'No such product in this store' } } } },
    async (request) => {
    const store = requestStore(registry, request);
    const q = parseOr400(productQuery, request.query, 'catalog');
    const catalog = manager.catalog(store.storeId);
    const keys = [q.sku, q.url_path, q.child_sku].filter((k) => k !== undefined);
    if (keys.length !== 1) throw new ApiError(400, LOOKUP_MESSAGES.searchKey);
    if (q.child_sku !== undefined) return ok(parentOfChildSku(catalog, store, q.child_sku));
    if (q.sku !== undefined) {
      const product = loadProduct(catalog, store, q.sku);
      if (!product) throw new CatalogNotFoundError(`Product query returned empty result sku = ${q.sku}`);
      return ok(product);
    }
    const path = (q.url_path as string).replace(/^\/+|\/+$/g, '');
    const bySku = catalog.productByUrlPath(path);
    const product = bySku ? loadProduct(catalog, store, bySku.sku) : null;
    if (!product) throw new CatalogNotFoundError(`Product query returned empty result url_path = ${path}`);
    return ok(product);
  });
}
