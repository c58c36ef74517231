/**
 * The demo's product reviews (issue 30), demo mode only, after the demo staff exist (main.ts): in
 * downtown and eastside, three demo customers each buy one product (the first cannabis product sold by the each, by sku) — a pickup order placed through
 * the checkout's own code (orders/place.ts placeOrder, as the customer), then confirmed, marked ready
 * and completed through the order lifecycle (applyTransition, ID checked) — so each is a real
 * "verified buyer". They write their reviews through the reviews module (which checks that they
 * bought it); two are approved by "Demo seed" and the third stays pending with a moderation flag (a
 * health claim), so the console's Reviews page has something to do.
 *
 * The orders are dated 20 days back (at noon in California, when the stores are open) so today's
 * queue and daily report are not changed. Idempotent: fixed idempotency keys, and a store whose
 * product already has reviews is left as it is.
 */
import type { Store } from '@verdant/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { applyTransition } from '../orders/lifecycle/transitions.ts';
import { placeOrder } from '../orders/place.ts';
import { requestHash } from '../orders/idempotency.ts';
import { orderSaveSchema } from '../orders/schema.ts';
import { writeReview } from '../reviews/service.ts';
import { decideReview } from '../reviews/moderation.ts';
import { toE164 } from '../users/phone.ts';
import { GUEST_CUSTOMER_TAX_CLASS, reviewInputSchema } from '@verdant/domain';

const STORES = ['downtown', 'eastside'] as const;

const REVIEWERS = [
  {
    n: 1,
    first: 'Maya',
    last: 'Chen',
    approve: true,
    review: { stars: 5, title: 'Exactly as described', text: 'Fresh, well packed and the budtender had it ready on time. Would buy again.', effects: ['relaxed', 'happy'], flavours: ['citrus'] },
  },
  {
    n: 2,
    first: 'Jordan',
    last: 'Reyes',
    approve: true,
    review: { stars: 4, title: 'Solid pick for the price', text: 'Smooth and consistent from start to finish. A little pricier than last month but still worth it.', effects: ['calm'], flavours: ['earthy', 'pine'] },
  },
  {
    n: 3,
    first: 'Sam',
    last: 'Okafor',
    approve: false,
    review: { stars: 5, title: 'My go-to', text: 'Honestly this cures my insomnia better than anything my doctor gave me.', effects: ['sleepy'], flavours: [] },
  },
] as const;

export async function ensureDemoReviews(db: Kysely<Database>, stores: readonly Store[], now: Date = new Date()): Promise<number> {
  let written = 0;
  // 20 days back at 19:00 UTC: noon in the demo stores' zone, within their hours.
  const day = new Date(now.getTime() - 20 * 86_400_000);
  const at = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 19, 0, 0));
  for (const code of STORES) {
    const store = stores.find((s) => s.storeCode === code);
    if (!store) continue;
    const product = await db
      .selectFrom('products')
      .innerJoin('stock', 'stock.product_id', 'products.id')
      .select(['products.id', 'products.sku'])
      .where('products.store_id', '=', store.storeId)
      .where('products.type_id', '=', 'simple')
      .where('products.parent_id', 'is', null)
      .where('products.status', '=', 1)
      .where('products.visibility', 'in', [2, 3, 4])
      .where('products.license_type', 'in', ['recreational', 'both'])
      .where('products.uom', '=', 'ea')
      .where('products.canna_type', 'not in', [4, 6])
      .where('stock.is_in_stock', '=', 1)
      .where('stock.qty', '>=', 20)
      .orderBy('products.sku')
      .executeTakeFirst();
    if (!product) continue;
    const has = await db.selectFrom('reviews').select('id').where('store_id', '=', store.storeId).where('product_id', '=', product.id).limit(1).executeTakeFirst();
    if (has) continue;
    for (const r of REVIEWERS) {
      const phone = `(916) 555-07${store.storeId}${r.n}`;
      // As a login stores it (E.164), so the demo's reviewers can sign in with their number.
      const identity = toE164(phone) as string;
      const iso = at.toISOString();
      await db
        .insertInto('customers')
        .values({ store_id: store.storeId, phone: identity, firstname: r.first, lastname: r.last, license_type: 'recreational', birthday: '1987-03-09', phone_verified_at: iso, id_verified: 1, id_status: 'verified', created_from: 'demo_seed', created_at: iso, updated_at: iso })
        .onConflict((oc) => oc.doNothing())
        .execute();
      const customer = await db.selectFrom('customers').selectAll().where('store_id', '=', store.storeId).where('phone', '=', identity).executeTakeFirst();
      if (!customer) continue;
      const key = `6a1e0c2d-3000-4b1c-8a0e-${String(store.storeId).padStart(6, '0')}${String(r.n).padStart(6, '0')}`;
      const input = orderSaveSchema.parse({
        idempotency_key: key,
        order_type: 'pickup',
        license_type: 'recreational',
        personal_details: { firstName: r.first, lastName: r.last, emailAddress: `${r.first.toLowerCase()}@demo.verdant.test`, phone },
        birthday: '1987-03-09',
        payment_method: 'cashondelivery',
        products: [{ sku: product.sku, qty: 1 }],
      });
      const { idempotency_key: _key, ...meaning } = input;
      const viewer = { customer: { id: customer.id, groupId: customer.group_id, taxClassId: GUEST_CUSTOMER_TAX_CLASS }, tokenInvalid: false };
      const placed = await placeOrder(db, store, input, key, requestHash(store.storeId, { ...meaning, customer: customer.id }), viewer, at);
      const orderId = (placed.body as { result?: { order_id?: number } }).result?.order_id;
      if (!orderId) continue;
      const actor = { type: 'system' as const, id: null, name: 'Demo seed' };
      const steps = [
        { action: 'confirm' as const, input: { readyBy: new Date(at.getTime() + 30 * 60_000).toISOString() } },
        { action: 'mark_ready' as const, input: {} },
        { action: 'complete' as const, input: { idChecked: true } },
      ];
      for (const [i, step] of steps.entries()) {
        const { status } = await db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow();
        if (status === 'completed') break;
        await applyTransition(db, { storeId: store.storeId, orderId, action: step.action, input: step.input, actor, now: new Date(at.getTime() + (i + 1) * 60_000) });
      }
      const reviewAt = new Date(at.getTime() + (2 + r.n) * 86_400_000);
      const review = await writeReview(db, store, customer.id, product.sku, reviewInputSchema.parse(r.review), reviewAt);
      if (r.approve) await decideReview(db, store.storeId, review.id, { decision: 'approve' }, 'Demo seed', new Date(reviewAt.getTime() + 3_600_000));
      written += 1;
    }
  }
  return written;
}
