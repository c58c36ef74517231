/**
 * Stock endpoints (spec §7 Stock): `GET /api/stock/check` for one sku and quantity, and
 * `GET /api/stock/list` for up to 15 skus (the client chunks), products and their configurable
 * children. Status is the domain's rule (ok, volatile at or below the low-stock threshold,
 * out_of_stock); for gram products the checked weight is the size's weight × qty. `qty` is what
 * the stock holds (grams for `g` products), `available_qty` how many units that is.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { isEnabledStatus, isSizeId, sizeWeightGrams, stockStatus, type StockStatus } from '@verdant/domain';
import type { CommerceContext } from '../commerce-context.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import { qtySchema } from '../cart/schemas.ts';

export const STOCK_LIST_MAX_SKUS = 15;

interface StockRow {
  id: number;
  sku: string;
  type_id: string;
  parent_id: number | null;
  size: number | null;
  uom: string;
  status: number;
  qty: number | null;
  is_in_stock: number | null;
  manage_stock: number | null;
  low_stock_threshold: number | null;
}

function stockQuery(db: Kysely<Database>) {
  return db
    .selectFrom('products as p')
    .leftJoin('stock as s', 's.product_id', 'p.id')
    .select(['p.id', 'p.sku', 'p.type_id', 'p.parent_id', 'p.size', 'p.uom', 'p.status', 's.qty', 's.is_in_stock', 's.manage_stock', 's.low_stock_threshold']);
}

/** Grams one unit weighs for `g` products (size weight, default 1), else 1 unit. */
function perUnit(row: Pick<StockRow, 'uom' | 'size'>, size: number | null = row.size): number {
  return row.uom === 'g' ? sizeWeightGrams(isSizeId(size) ? size : null) : 1;
}

export function stockItem(row: StockRow, qty = 1, size: number | null = row.size) {
  const unit = perUnit(row, size);
  const info = row.qty == null
    ? null
    : { qty: row.qty, is_in_stock: row.is_in_stock === 1, manage_stock: row.manage_stock === 1, low_stock_threshold: row.low_stock_threshold ?? 0 };
  const status: StockStatus = !info || !isEnabledStatus(row.status) ? 'out_of_stock' : stockStatus(info, unit * qty);
  return {
    sku: row.sku,
    product_id: row.id,
    qty: info?.qty ?? 0,
    uom: row.uom,
    size,
    is_in_stock: status !== 'out_of_stock',
    manage_stock: info?.manage_stock ?? true,
    available_qty: !info || !info.is_in_stock ? 0 : info.manage_stock ? Math.floor(info.qty / unit + 1e-9) : null,
    status,
  };
}

const checkSchema = z.object({
  sku: z.string({ error: 'sku is required' }).trim().min(1, 'sku is required').max(128),
  product_type: z.string().max(32).optional(),
  product_size: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().optional()),
  qty: qtySchema.optional(),
});

const listSchema = z.object({
  skus: z
    .string({ error: 'skus is required' })
    .transform((s) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))])
    .refine((a) => a.length > 0, 'skus is required')
    .refine((a) => a.length <= STOCK_LIST_MAX_SKUS, `At most ${STOCK_LIST_MAX_SKUS} skus per request`),
});

export function registerStockRoutes(app: FastifyInstance, c: CommerceContext): void {
  app.get(
    '/api/stock/check',
    { config: { docs: { summary: 'Check the stock of one product (a configurable parent with product_size: that size)', description: 'For a gram product the weight checked is the size times qty.', tags: ['Stock'], query: checkSchema, security: 'none', errors: { 404: 'No such product (or size) in this store' } } } },
    async (request) => {
    const q = parseOr400(checkSchema, request.query, 'shopper');
    const storeId = request.store.storeId;
    const row = await stockQuery(c.db).where('p.store_id', '=', storeId).where('p.sku', '=', q.sku).executeTakeFirst();
    if (!row) throw new ApiError(404, `Product "${q.sku}" does not exist in this store.`);
    // A configurable parent with a size answers for the child of that size.
    if (row.type_id === 'configurable' && q.product_size != null) {
      const child = await stockQuery(c.db).where('p.parent_id', '=', row.id).where('p.size', '=', q.product_size).executeTakeFirst();
      if (!child) throw new ApiError(404, `Product "${q.sku}" has no size ${q.product_size}.`);
      return ok(stockItem(child, q.qty ?? 1));
    }
    return ok(stockItem(row, q.qty ?? 1, row.size ?? q.product_size ?? null));
  });

  app.get(
    '/api/stock/list',
    { config: { docs: { summary: 'Stock of several products and their configurable children', description: '`skus` is a comma-separated list.', tags: ['Stock'], query: listSchema, security: 'none' } } },
    async (request) => {
    const q = parseOr400(listSchema, request.query, 'shopper');
    const storeId = request.store.storeId;
    const rows = await stockQuery(c.db).where('p.store_id', '=', storeId).where('p.sku', 'in', q.skus).execute();
    const parents = rows.filter((r) => r.type_id === 'configurable').map((r) => r.id);
    const children = parents.length ? await stockQuery(c.db).where('p.parent_id', 'in', parents).orderBy('p.id').execute() : [];
    const bySku = new Map(rows.map((r) => [r.sku, r]));
    const out = q.skus.flatMap((sku) => {
      const r = bySku.get(sku);
      if (!r) return [];
      return [stockItem(r), ...children.filter((ch) => ch.parent_id === r.id).map((ch) => stockItem(ch))];
    });
    return ok(out);
  });
}
