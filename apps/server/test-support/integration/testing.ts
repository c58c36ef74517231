/**
 * Test helpers of the integration suites (not a test file): a POS client for one API key, and a
 * fingerprint of a store's menu to prove that refused writes changed nothing.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import { exportMenuJson } from '../../src/menu-import/index.ts';
import { KEY_PATTERN } from '../../src/integration/keys.ts';

export interface Reply {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}

export interface Caller {
  key: string;
  get(path: string, host?: string): Promise<Reply>;
  post(path: string, payload: unknown, idempotencyKey: string): Promise<Reply>;
  delete(path: string, idempotencyKey: string): Promise<Reply>;
}

const BASE = '/api/integration/v1';

/** Requests as a POS sends them: `Authorization: Bearer <key>`, an Idempotency-Key on writes. */
export function api(app: FastifyInstance, key: string): Caller {
  const send = async (method: 'GET' | 'POST' | 'DELETE', path: string, payload?: unknown, idem?: string, host = 'downtown.localhost') => {
    const res = await app.inject({
      method,
      url: `${BASE}${path}`,
      headers: { host, authorization: `Bearer ${key}`, ...(idem ? { 'idempotency-key': idem } : {}) },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    const type = String(res.headers['content-type'] ?? '');
    return { status: res.statusCode, body: type.includes('json') ? res.json() : res.body, headers: res.headers as Record<string, unknown> };
  };
  return {
    key,
    get: (path, host) => send('GET', path, undefined, undefined, host),
    post: (path, payload, idem) => send('POST', path, payload, idem),
    delete: (path, idem) => send('DELETE', path, undefined, idem),
  };
}

/** The store's whole menu (the export) and the history's length: equal before and after = nothing written. */
export async function menuSnapshot(db: Kysely<Database>, storeId: number): Promise<string> {
  const changes = await db.selectFrom('menu_changes').select('id').where('store_id', '=', storeId).execute();
  const stock = await db
    .selectFrom('stock')
    .innerJoin('products', 'products.id', 'stock.product_id')
    .select(['stock.product_id', 'stock.qty', 'stock.version'])
    .where('products.store_id', '=', storeId)
    .orderBy('stock.product_id')
    .execute();
  return `${await exportMenuJson(db, storeId)}\n${changes.length}\n${JSON.stringify(stock)}`;
}

/** A valid new package row (menu-file format) in `category`. */
export function newRow(category: string, externalId: string): Record<string, string> {
  return {
    external_id: externalId,
    sku: externalId,
    name: `Integration Gummies ${externalId}`,
    category,
    unit: 'ea',
    price: '12.50',
    stock: '9',
  };
}

/**
 * The secret part of a key (`vdk_<prefix>_<secret>`). Not `key.split('_')[2]`: a base64url secret
 * may itself hold `_`, and then that gives a fragment short enough to appear anywhere (even empty).
 */
export function secretOf(key: string): string {
  const m = KEY_PATTERN.exec(key);
  if (!m) throw new Error(`not an API key: ${key}`);
  return m[2];
}
