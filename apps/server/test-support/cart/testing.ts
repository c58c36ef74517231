/**
 * Test helpers of the commerce suites (not a test file): the app with the commerce routes on a
 * demo catalogue seeded at a fixed reference date and a clock pinned to it, a shopper client,
 * and fixtures that pin a product's price, stock and status so that expected numbers do not
 * depend on the generator's choices.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp, type AppDeps } from '../../src/app.ts';
import { DEMO_STORES_FILE } from '../../src/config.ts';
import type { Database } from '../../src/db/schema.ts';
import { readStoresFile, seedDemo } from '../../src/seed/index.ts';
import { StoreRegistry } from '../../src/stores/registry.ts';
import type { TestDatabase } from '../databases.ts';

export const REFERENCE_DATE = new Date('2026-06-15T12:00:00.000Z');
export const registry = StoreRegistry.fromFile(DEMO_STORES_FILE);

/** The apps built over each test database, whose in-memory catalogues must hear of catalogue writes. */
const appsOf = new WeakMap<Kysely<Database>, Set<FastifyInstance>>();

export async function commerceApp(t: TestDatabase, now: () => Date = () => REFERENCE_DATE): Promise<FastifyInstance> {
  await seedDemo(t.db, readStoresFile(DEMO_STORES_FILE), { dataDir: t.dataDir, referenceDate: REFERENCE_DATE });
  const deps: AppDeps = {
    config: { dataDir: t.dataDir, demoMode: true, production: true, logLevel: 'silent' },
    registry,
    db: t.db,
    logger: false,
    clock: now,
  };
  const app = await buildApp(deps);
  const apps = appsOf.get(t.db) ?? new Set();
  appsOf.set(t.db, apps.add(app));
  app.addHook('onClose', async () => void apps.delete(app));
  return app;
}

/**
 * What every catalogue writer does after writing (app.catalog.catalogChanged): the apps over
 * `db` reindex these products, so the cart prices what the database now says.
 */
export async function catalogChanged(db: Kysely<Database>, storeId: number, productIds: readonly number[]): Promise<void> {
  for (const app of appsOf.get(db) ?? []) await app.catalog.catalogChanged(storeId, productIds);
}

export interface Answer<T = any> {
  status: number;
  code: number;
  result: T;
  headers: Record<string, unknown>;
}

/** A shopper of one store (by host), holding one cart token. */
export class Shopper {
  token = '';
  constructor(
    readonly app: FastifyInstance,
    readonly host = 'downtown.localhost',
  ) {}

  async call<T = any>(method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const opts: InjectOptions = { method, url, headers: { host: this.host, ...headers } };
    if (body !== undefined) opts.payload = body as InjectOptions['payload'];
    const res = await this.app.inject(opts);
    const json = res.json() as { code: number; result: T };
    return { status: res.statusCode, code: json.code, result: json.result, headers: res.headers };
  }

  async createCart(licenseType?: 'recreational' | 'medical'): Promise<string> {
    const r = await this.call<string>('POST', '/api/cart/create', licenseType ? { license_type: licenseType } : {});
    if (r.status !== 200) throw new Error(`cart/create answered ${r.status}: ${JSON.stringify(r.result)}`);
    this.token = r.result;
    return this.token;
  }

  update(cartItem: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    return this.call('POST', `/api/cart/update?cartId=${this.token}`, { cartItem: { quoteId: this.token, ...cartItem }, ...extra });
  }

  pull() {
    return this.call<any[]>('GET', `/api/cart/pull?cartId=${this.token}`);
  }

  totals() {
    return this.call('GET', `/api/cart/totals?cartId=${this.token}`);
  }

  saveOrder(body: Record<string, unknown>, headers: Record<string, string> = {}) {
    return this.call('POST', '/api/order/save', body, headers);
  }
}

export function orderBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    idempotency_key: randomUUID(),
    order_type: 'pickup',
    personal_details: { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0101' },
    // Age on every order (issue 14): a guest gives a date of birth.
    birthday: '1990-01-01',
    payment_method: 'cashondelivery',
    ...overrides,
  };
}

export interface ProductFixture {
  price?: number;
  special?: { price: number; from?: string | null; to?: string | null } | null;
  stock?: number;
  manageStock?: boolean;
  inStock?: boolean;
  lowStock?: number;
  status?: number;
  tiers?: { qty: number; price: number }[];
}

/**
 * Pin a product of a store: price (group 0), special, tiers, stock and status, and announce the
 * change to the apps' catalogues as a catalogue writer must. Returns its id.
 */
export async function pin(db: Kysely<Database>, storeId: number, sku: string, f: ProductFixture): Promise<number> {
  const { id } = await db.selectFrom('products').select('id').where('store_id', '=', storeId).where('sku', '=', sku).executeTakeFirstOrThrow();
  if (f.status != null) await db.updateTable('products').set({ status: f.status }).where('id', '=', id).execute();
  if (f.price != null || f.special !== undefined) {
    const special = f.special ?? null;
    await db.deleteFrom('product_prices').where('product_id', '=', id).execute();
    const current = f.price;
    if (current != null) {
      await db
        .insertInto('product_prices')
        .values({
          product_id: id,
          customer_group_id: 0,
          price_cents: current,
          special_price_cents: special?.price ?? null,
          special_from_date: special?.from ?? null,
          special_to_date: special?.to ?? null,
        })
        .execute();
    }
  }
  if (f.tiers) {
    await db.deleteFrom('tier_prices').where('product_id', '=', id).execute();
    if (f.tiers.length) {
      await db.insertInto('tier_prices').values(f.tiers.map((t) => ({ product_id: id, customer_group_id: 0, qty: t.qty, price_cents: t.price }))).execute();
    }
  }
  if (f.stock != null || f.manageStock != null || f.inStock != null || f.lowStock != null) {
    await db
      .updateTable('stock')
      .set({
        ...(f.stock != null ? { qty: f.stock } : {}),
        ...(f.manageStock != null ? { manage_stock: f.manageStock ? 1 : 0 } : {}),
        is_in_stock: f.inStock === false ? 0 : 1,
        ...(f.lowStock != null ? { low_stock_threshold: f.lowStock } : {}),
      })
      .where('product_id', '=', id)
      .execute();
  }
  await catalogChanged(db, storeId, [id]);
  return id;
}

export async function stockQty(db: Kysely<Database>, storeId: number, sku: string): Promise<number> {
  const row = await db
    .selectFrom('stock')
    .innerJoin('products', 'products.id', 'stock.product_id')
    .select('stock.qty')
    .where('products.store_id', '=', storeId)
    .where('products.sku', '=', sku)
    .executeTakeFirstOrThrow();
  return row.qty;
}

/**
 * Log a phone in through the SMS-code steps, as a shopper does (a new phone becomes a
 * recreational customer); answers the access token and the customer's id.
 */
export async function loginCustomer(app: FastifyInstance, phone: string, host = 'downtown.localhost'): Promise<{ token: string; customerId: number }> {
  const send = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/user/login', headers: { host }, payload }).then((r) => r.json());
  const sent = await send({ phone });
  if (sent.code !== 200) throw new Error(`login code not sent: ${JSON.stringify(sent)}`);
  // Demo mode answers the code, as the outbox would deliver it.
  const code = sent.meta?.demo_code ?? app.accounts!.sms.lastCode!(phone.replace(/\D/g, ''));
  let body = await send({ phone, code });
  if (body.result?.needs) body = await send({ phone, license_type: 'recreational', birthday: '1990-01-01', pendingToken: body.meta.pendingToken });
  if (!body.meta?.token) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return { token: body.meta.token, customerId: body.meta.customer_id };
}

/** A guest session's access token (POST /api/user/login-guest). */
export async function guestToken(app: FastifyInstance, host = 'downtown.localhost', storeId = 1): Promise<string> {
  const r = await app.inject({ method: 'POST', url: '/api/user/login-guest', headers: { host }, payload: { license_type: 'recreational', storeId } });
  return r.json().meta.token as string;
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
