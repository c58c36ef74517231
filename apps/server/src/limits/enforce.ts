/**
 * Purchase-limit buckets on the server (issue 14): the store's model (the `limits` settings
 * section), what the cart's lines count (products' menu fields), the customer's earlier orders in
 * the windows, and the verdict of @verdant/domain's evaluateLimits — the same code the browser runs.
 * Run at cart update (../cart/update.ts) and again inside the order-save transaction
 * (../orders/prepare.ts).
 *
 * Decisions where the issue is silent:
 *  - While a store is on the spec's per-order limit (isSpecPerOrderModel), products are counted exactly
 *    as spec §5 counts them (limitFactsFromCartItem). Under any other model (a state preset it starts
 *    on, the console, the stores file) the menu's fields count too — concentrate grams (attribute
 *    concentrate_grams), THC mg (thc_mg, or thc_mg_per_piece × pieces), net weight — and the product's
 *    kind fills what they leave out (domain limitFactsFromMenu / deriveLimitFacts, issue 26).
 *  - Earlier orders are counted with their products' facts as they are now (order_items keep the
 *    product id and size, not the facts); a product deleted since counts as spec §5's 1 g.
 *  - Cancelled and no-show orders count toward nothing (their goods went back).
 *  - A guest (no customer account) is counted on this order alone; the checkout says so.
 *  - Residency is the shopper's statement (cart update / order body `residency`); until given, the
 *    stricter cap applies (domain capFor).
 *  - A cart change that does not make any bucket more over than it was is allowed (as spec §5 did
 *    for grams): a cart that became over (the store lowered a cap, an order was placed elsewhere)
 *    can always be made smaller.
 */
import {
  evaluateLimits,
  isSpecPerOrderModel,
  limitFactsFromCartItem,
  limitFactsFromMenu,
  normaliseLimitModel,
  windowStart,
  type LicenseType,
  type LimitCartLine,
  type LimitEarlierOrder,
  type LimitEvaluation,
  type LimitModel,
  type LimitProductFacts,
  type Residency,
  type Store,
} from '@verdant/domain';
import { sql, type Kysely } from 'kysely';
import { locksRows } from '../cart/repository.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import type { ResolvedLine } from '../cart/resolve.ts';
import { sectionOf, type SettingsSource } from '../store-settings/read.ts';
import { LIMITS } from './section.ts';

type Db = Kysely<Database>;

export interface StoreLimits {
  model: LimitModel;
  source: SettingsSource;
  licenceHolder: string | null;
  /**
   * Count the menu's fields (concentrate, THC mg, net weight) and the product's kind: false while
   * the store keeps the spec's per-order limit (isSpecPerOrderModel), whose products count as spec §5 says.
   */
  menuFacts: boolean;
}

// By store object (the registry's, which requests carry): the deployment's stores, for the licence holder's.
const deployment = new WeakMap<Store, readonly Store[]>();

/** The deployment's stores (app.ts); the settings come through the app's service (store-settings bindStoreSettings). */
export function bindStoreLimits(stores: readonly Store[]): void {
  for (const s of stores) deployment.set(s, stores);
}

/**
 * The store's limits: through the app's settings service (1 s cache) on the app's database; on any
 * other connection (a transaction, SQLite's group-commit connection) read on that connection
 * (store-settings sectionOf).
 */
export async function storeLimits(conn: Db, store: Store): Promise<StoreLimits> {
  const { value, source } = await sectionOf(conn, store, LIMITS);
  const model = normaliseLimitModel(value.model);
  return { model, source, licenceHolder: value.licence_holder, menuFacts: !isSpecPerOrderModel(model) };
}

/** What a check needs besides the shopper: the store's model and the deployment's stores. */
export interface LimitScope {
  store: Store;
  /** Every store of the deployment (for the licence holder's). */
  stores: readonly Store[];
  limits: StoreLimits;
}

export async function limitScope(conn: Db, store: Store): Promise<LimitScope> {
  return { store, stores: deployment.get(store) ?? [store], limits: await storeLimits(conn, store) };
}

/** Menu fields of products, by product id (attributes the menu import writes). */
async function menuFactsOf(db: Db, productIds: readonly number[]): Promise<Map<number, Record<string, string>>> {
  const out = new Map<number, Record<string, string>>();
  if (productIds.length === 0) return out;
  const rows = await db
    .selectFrom('product_attribute_values')
    .select(['product_id', 'attribute_code', 'value'])
    .where('product_id', 'in', [...new Set(productIds)])
    .where('attribute_code', 'in', ['concentrate_grams', 'thc_mg', 'thc_mg_per_piece', 'pieces', 'net_weight'])
    .execute();
  for (const r of rows) {
    const a = out.get(r.product_id) ?? {};
    a[r.attribute_code] = r.value;
    out.set(r.product_id, a);
  }
  return out;
}

/**
 * One package's facts: spec §5's fields while the store keeps the spec's per-order limit; under any
 * other model also the menu's fields and the product's kind (domain limitFactsFromMenu; issue 26).
 */
export function factsOf(
  limit: { size?: number | null; unit_weight_grams_equivelent?: number | null; canna_type?: number | null },
  attrs: Record<string, string> | undefined,
  menuFacts = attrs != null,
): LimitProductFacts {
  return menuFacts ? limitFactsFromMenu(limit, attrs ?? {}) : limitFactsFromCartItem(limit);
}

/** The cart's lines as the evaluation's lines: one per component, id `<line>:<component>`. */
export async function limitCartLines(db: Db, limits: StoreLimits, lines: readonly ResolvedLine[]): Promise<LimitCartLine[]> {
  const attrs = limits.menuFacts
    ? await menuFactsOf(
        db,
        lines.flatMap((l) => l.components.map((c) => c.productId)),
      )
    : null;
  return lines.flatMap((l, i) =>
    l.components.map((c, k) => ({
      id: `${i}:${k}`,
      qty: l.qty * c.qtyPerUnit,
      facts: factsOf(c.limit, attrs?.get(c.productId), limits.menuFacts),
      // The shopper's line, for "remove Blue Dream 28 g (1 oz)": only where a package of the
      // component is a package of the line (a bundle's parts are not taken out one by one).
      ...(l.components.length === 1 && c.qtyPerUnit === 1 ? { name: l.name } : {}),
    })),
  );
}

/**
 * The customer's orders since the earliest window start of the model (none for guests or a
 * per-order model), across the licence holder's stores when the model shares them.
 */
export async function earlierOrdersOf(
  db: Db,
  store: Store,
  stores: readonly Store[],
  limits: StoreLimits,
  customerId: number | null,
  now: Date,
): Promise<LimitEarlierOrder[]> {
  if (customerId == null) return [];
  const tz = store.dispensarySettings.place_info.timezone;
  const starts = limits.model.buckets.map((b) => windowStart(b.window, now, tz)).filter((d): d is Date => d != null);
  if (starts.length === 0) return [];
  const since = new Date(Math.min(...starts.map((d) => d.getTime())));
  let customerIds = [customerId];
  if (limits.model.shareWithLicenceHolder && limits.licenceHolder) {
    const others: number[] = [];
    for (const s of stores)
      if (s.storeId !== store.storeId && (await storeLimits(db, s)).licenceHolder === limits.licenceHolder) others.push(s.storeId);
    if (others.length) {
      // Customers are per store: the same person elsewhere is the same phone number.
      const me = await db.selectFrom('customers').select('phone').where('id', '=', customerId).executeTakeFirst();
      if (me) {
        const twins = await db.selectFrom('customers').select('id').where('store_id', 'in', others).where('phone', '=', me.phone).execute();
        customerIds = [customerId, ...twins.map((t) => t.id)];
      }
    }
  }
  const orders = await db
    .selectFrom('orders')
    .select(['id', 'status', 'license_type', 'created_at', 'released_at'])
    .where('customer_id', 'in', customerIds)
    .where('created_at', '>=', since.toISOString())
    .where('created_at', '<=', now.toISOString())
    .execute();
  if (orders.length === 0) return [];
  const items = await db
    .selectFrom('order_items')
    .leftJoin('products', 'products.id', 'order_items.product_id')
    .select([
      'order_items.order_id',
      'order_items.qty',
      'order_items.size',
      'order_items.product_id',
      'products.unit_weight_grams_equivelent',
      'products.canna_type',
    ])
    .where(
      'order_items.order_id',
      'in',
      orders.map((o) => o.id),
    )
    .execute();
  const attrs = limits.menuFacts
    ? await menuFactsOf(
        db,
        items.flatMap((i) => (i.product_id != null ? [i.product_id] : [])),
      )
    : null;
  return orders.map((o) => ({
    placedAt: new Date(o.created_at),
    cancelled: o.status === 'cancelled' || o.status === 'no_show',
    customerType: o.license_type,
    lines: items
      .filter((i) => i.order_id === o.id)
      .map((i) => ({
        qty: i.qty,
        facts: factsOf(
          { size: i.size, unit_weight_grams_equivelent: i.unit_weight_grams_equivelent, canna_type: i.canna_type },
          i.product_id != null ? attrs?.get(i.product_id) : undefined,
          limits.menuFacts,
        ),
      })),
  }));
}

/**
 * Serialise the limit checks of one person across every store whose orders count toward the same
 * limit (issue 26): the stores of a licence holder share a count (earlierOrdersOf: the same phone
 * number at each of them), so a lock on one store's customer row is not enough — two orders for the
 * same person at two such stores would each check before the other was saved. A transaction-scoped
 * advisory lock on (schema, licence holder, phone) is taken before the customer's row lock, in the
 * order's transaction, whenever the store names a licence holder (also when it does not share
 * itself: a sharing sibling counts its orders). Released at commit or rollback. SQLite runs one
 * write transaction at a time, so there is nothing to lock.
 */
export async function lockLimitHolder(trx: Db, limits: StoreLimits, customerId: number): Promise<void> {
  if (!limits.licenceHolder || !locksRows(trx)) return;
  const me = await trx.selectFrom('customers').select('phone').where('id', '=', customerId).executeTakeFirst();
  if (!me) return;
  const key = `verdant:limit-holder:${limits.licenceHolder}:${me.phone}`;
  await sql`select pg_advisory_xact_lock(hashtextextended(coalesce(current_schema(), '') || ${key}, 0))`.execute(trx);
}

export interface LimitCheckInput extends LimitScope {
  customerType: LicenseType;
  residency: Residency | null;
  customerId: number | null;
  now: Date;
}

export async function evaluateCart(
  db: Db,
  input: LimitCheckInput,
  lines: readonly ResolvedLine[],
  earlier?: LimitEarlierOrder[],
): Promise<LimitEvaluation> {
  const cartLines = await limitCartLines(db, input.limits, lines);
  return evaluateLimits(input.limits.model, {
    customerType: input.customerType,
    residency: input.residency,
    now: input.now,
    timezone: input.store.dispensarySettings.place_info.timezone,
    cartLines,
    earlierOrders: earlier ?? (await earlierOrdersOf(db, input.store, input.stores, input.limits, input.customerId, input.now)),
    guest: input.customerId == null,
  });
}

/** 400 naming the bucket, how much over and what to remove (meta for the cart's notice). */
export function limitError(e: LimitEvaluation, lines: readonly ResolvedLine[]): ApiError {
  const v = e.violations[0];
  const remove = e.remove.map((r) => {
    const line = lines[Number(r.lineId.split(':')[0])];
    return { sku: line?.sku ?? null, name: line?.name ?? null, qty: r.qty };
  });
  return new ApiError(400, e.message ?? v.message, {
    errorCode: 'purchase_limit',
    meta: {
      violations: e.violations.map((x) => ({
        bucket: x.bucketId,
        label: x.label,
        unit: x.unit,
        excess: x.excess / 1000,
        reason: x.reason,
      })),
      remove,
    },
  });
}

/** Order save: refuse when over any bucket (earlier orders read in the order's transaction). */
export async function assertWithinLimits(db: Db, input: LimitCheckInput, lines: readonly ResolvedLine[]): Promise<void> {
  const e = await evaluateCart(db, input, lines);
  if (!e.ok) throw limitError(e, lines);
}

/** Cart update: refuse a change that makes some bucket more over than it was. */
export async function limitChangeProblem(
  db: Db,
  input: LimitCheckInput,
  before: readonly ResolvedLine[],
  after: readonly ResolvedLine[],
): Promise<ApiError | null> {
  const earlier = await earlierOrdersOf(db, input.store, input.stores, input.limits, input.customerId, input.now);
  const next = await evaluateCart(db, input, after, earlier);
  if (next.ok) return null;
  const previous = await evaluateCart(db, input, before, earlier);
  const was = new Map(previous.violations.map((v) => [v.bucketId, v.excess]));
  const worse = next.violations.some((v) => v.excess > (was.get(v.bucketId) ?? 0) || (v.reason === 'not_sold' && !was.has(v.bucketId)));
  return worse ? limitError(next, after) : null;
}
