/**
 * The demo's dispatch (issue 29), demo mode only, after the demo staff exist (main.ts):
 *
 * - The demo driver login `driver@demo.verdant.test` (staff/demo.ts, role Driver, store downtown)
 *   is linked to downtown's driver Dana Whitfield — when Dana has no login yet and the login is
 *   linked to no other driver.
 * - A sample planned trip in downtown (Dana, the first vehicle) with three confirmed delivery orders,
 *   when the store has no trip yet. The orders go through the checkout's own code path
 *   (orders/place.ts placeOrder: priced with the store's taxes, zone fee, deals and stock; history
 *   and messages) with fixed idempotency keys, then are confirmed through the order lifecycle
 *   (applyTransition) and put on a trip with the dispatch code (delivery/trips.ts createTrip).
 *
 * Idempotent: a second run finds the trip (and the orders by their keys) and adds nothing. A store
 * whose staff already made trips is left as it is. Products come from downtown's simple, each-sold
 * cannabis products with the most stock, not the eighths the browser journeys order from.
 */
import type { Store } from '@verdant/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { GUEST_VIEWER } from '../cart/repository.ts';
import { createTrip } from '../delivery/trips.ts';
import { applyTransition } from '../orders/lifecycle/transitions.ts';
import { placeOrder } from '../orders/place.ts';
import { requestHash } from '../orders/idempotency.ts';
import { orderSaveSchema } from '../orders/schema.ts';

export const DEMO_DRIVER_EMAIL = 'driver@demo.verdant.test';
const STORE_CODE = 'downtown';
const LINKED_DRIVER = 'Dana Whitfield';

/** Three Sacramento addresses in downtown's delivery radius, nearest last (the suggested order differs). */
const CUSTOMERS = [
  { key: '5f0d9c1e-29a0-4c1b-9a0e-7d1f00000291', first: 'Rosa', last: 'Delgado', phone: '(916) 555-0191', zip: '95822', address: '2400 Florin Rd', city: 'Sacramento' },
  { key: '5f0d9c1e-29a0-4c1b-9a0e-7d1f00000292', first: 'Owen', last: 'Park', phone: '(916) 555-0192', zip: '95819', address: '5100 Folsom Blvd', city: 'Sacramento' },
  { key: '5f0d9c1e-29a0-4c1b-9a0e-7d1f00000293', first: 'Lena', last: 'Brooks', phone: '(916) 555-0193', zip: '95811', address: '1500 C St', city: 'Sacramento' },
] as const;

export interface DemoDispatchWritten {
  linked: boolean;
  trip: boolean;
  orders: number;
}

export async function ensureDemoDispatch(db: Kysely<Database>, stores: readonly Store[], now: Date = new Date()): Promise<DemoDispatchWritten> {
  const written: DemoDispatchWritten = { linked: false, trip: false, orders: 0 };
  const store = stores.find((s) => s.storeCode === STORE_CODE);
  if (!store) return written;
  const dana = await db.selectFrom('drivers').selectAll().where('store_id', '=', store.storeId).where('name', '=', LINKED_DRIVER).executeTakeFirst();
  if (!dana) return written;

  // 1. The demo driver login → Dana.
  const login = await db.selectFrom('staff').select('id').where('email', '=', DEMO_DRIVER_EMAIL).where('role', '=', 'driver').executeTakeFirst();
  if (login && dana.staff_id == null) {
    const taken = await db.selectFrom('drivers').select('id').where('store_id', '=', store.storeId).where('staff_id', '=', login.id).executeTakeFirst();
    if (!taken) {
      const moved = await db.updateTable('drivers').set({ staff_id: login.id, updated_at: now.toISOString() }).where('id', '=', dana.id).where('staff_id', 'is', null).executeTakeFirst();
      written.linked = Number(moved.numUpdatedRows) === 1;
    }
  }

  // 2. The sample trip, once per store.
  if (await db.selectFrom('trips').select('id').where('store_id', '=', store.storeId).limit(1).executeTakeFirst()) return written;
  const vehicle = await db.selectFrom('vehicles').select('id').where('store_id', '=', store.storeId).where('active', '=', 1).orderBy('id').executeTakeFirst();
  if (!vehicle || !dana.active) return written;
  const products = await db
    .selectFrom('products')
    .innerJoin('stock', 'stock.product_id', 'products.id')
    .select(['products.sku'])
    .where('products.store_id', '=', store.storeId)
    .where('products.type_id', '=', 'simple')
    .where('products.parent_id', 'is', null)
    .where('products.status', '=', 1)
    .where('products.license_type', 'in', ['recreational', 'both'])
    .where('products.uom', '=', 'ea')
    .where('products.canna_type', 'not in', [4, 6])
    .where('stock.is_in_stock', '=', 1)
    .where('stock.qty', '>=', 20)
    .orderBy('stock.qty', 'desc')
    .orderBy('products.sku')
    .limit(CUSTOMERS.length)
    .execute();
  if (products.length === 0) return written;

  const orderIds: number[] = [];
  for (const [i, c] of CUSTOMERS.entries()) {
    const input = orderSaveSchema.parse({
      idempotency_key: c.key,
      order_type: 'delivery',
      license_type: 'recreational',
      personal_details: { firstName: c.first, lastName: c.last, emailAddress: `${c.first.toLowerCase()}.${c.last.toLowerCase()}@demo.verdant.test`, phone: c.phone },
      birthday: '1988-05-14',
      shipping_address: { address: c.address, city: c.city, zip: c.zip },
      payment_method: 'cashondelivery',
      products: [{ sku: products[i % products.length].sku, qty: 2 }],
    });
    const { idempotency_key: _key, ...meaning } = input;
    const placed = await placeOrder(db, store, input, c.key, requestHash(store.storeId, { ...meaning, customer: null }), GUEST_VIEWER, now);
    const orderId = (placed.body as { result: { order_id: number } }).result.order_id;
    const order = await db.selectFrom('orders').select(['status']).where('id', '=', orderId).executeTakeFirstOrThrow();
    if (!placed.replayed) written.orders += 1;
    if (order.status === 'submitted')
      try {
        await applyTransition(db, {
          storeId: store.storeId,
          orderId,
          action: 'confirm',
          input: { readyBy: new Date(now.getTime() + 60 * 60_000).toISOString() },
          actor: { type: 'system', id: null, name: 'Demo seed' },
          now,
        });
      } catch (error) {
        // Another seeder confirmed it first (409 transition_not_allowed): read below what it is now.
        if (!(error instanceof ApiError && error.statusCode === 409)) throw error;
      }
    const confirmed = await db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow();
    if (confirmed.status === 'confirmed') orderIds.push(orderId);
  }
  if (orderIds.length === 0) return written;
  try {
    await createTrip(db, store, { driverId: dana.id, vehicleId: vehicle.id, orderIds, createdBy: 'Demo seed', now });
    written.trip = true;
  } catch (error) {
    // Another seeder running at the same moment put these orders on its trip first (409 order_on_trip).
    if (!(error instanceof ApiError && error.extra?.errorCode === 'order_on_trip')) throw error;
  }
  return written;
}
