/**
 * Placing an order: ONE transaction that records the idempotency key, re-prices and re-checks
 * the order (./prepare.ts), takes the stock with conditional decrements, counts the coupon use,
 * records the order with every tax and discount line, redeems loyalty points, clears the server cart
 * and completes the key with the response.
 *
 * Overselling is impossible by construction: each decrement is
 *   UPDATE stock SET qty = qty - :w WHERE product_id = :id AND manage_stock = 1 AND is_in_stock = 1 AND qty >= :w
 * and a product whose row did not change fails the whole order. PostgreSQL (READ COMMITTED)
 * makes a concurrent decrement of the same row wait and re-evaluate the condition on the
 * committed value; SQLite runs one write transaction at a time. Rows are decremented in product
 * id order so that two orders never wait on each other in a cycle.
 */
import {
  groupHours,
  verificationNeeds,
  weekTable,
  type AgeSettings,
  type HoursSettings,
  type OrderStatus,
  type Store,
  type Verification,
} from '@verdant/domain';
import { ApiError } from '../http/envelope.ts';
import { inWriteTransaction } from '../db/group-commit.ts';
import { cartCacheFor } from '../cart/cart-cache.ts';
import { CART_MESSAGES as M } from '../cart/messages.ts';
import type { CartViewer, Db } from '../cart/repository.ts';
import { stockNeeds } from '../cart/checks.ts';
import { findKey, isUniqueViolation, ORDER_SCOPE, replay, type StoredAnswer } from './idempotency.ts';
import { orderNumber } from './number.ts';
import { orderSearchKeys } from './console/search-keys.ts';
import { prepareOrder, type PreparedOrder } from './prepare.ts';
import type { OrderInput } from './schema.ts';
import { recordPlaced } from './lifecycle/placed.ts';
import { holdOf } from './lifecycle/store-facts.ts';
import { recordOrderTaxLines } from '../tax/order-lines.ts';
import { statedTaxLines } from '../cart/totals.ts';
import { bookOrderSlot, hoursOf, type BookedSlot } from '../hours/booking.ts';
import { readSection, withStoreSettings } from '../store-settings/read.ts';
import { redeemForOrder } from '../loyalty/orders.ts';
import { fileGuestOrder } from '../customers/guest-profiles.ts';
import { balanceOf } from '../loyalty/ledger.ts';
import { DEAL_DISPLAY_SECTION } from '../deals/display-section.ts';
import { recordRedemptions } from '../deals/redemptions.ts';
import { dealDisplayPresetOf, dealWordsOf } from '../deals/display.ts';

export interface PlaceOrderResult extends StoredAnswer {
  /** True when this answer is the stored answer of an earlier request with the same key. */
  replayed: boolean;
  /** Products whose stock this order took (the catalogue index must hear about them). */
  stockChanged: number[];
}

export async function placeOrder(
  db: Db,
  store: Store,
  input: OrderInput,
  key: string,
  hash: string,
  viewer: CartViewer,
  now: Date,
  ageSettings?: AgeSettings,
): Promise<PlaceOrderResult> {
  const earlier = await findKey(db, key);
  if (earlier) return { ...replay(earlier, store.storeId, hash), replayed: true, stockChanged: [] };
  try {
    let stockChanged: number[] = [];
    // One transaction (grouped with other writes on SQLite, ../db/group-commit.ts).
    const cache = cartCacheFor(db);
    // The store's settings sections are read once, at the start (store-settings withStoreSettings).
    const body = await inWriteTransaction(db, (trx, tx) =>
      withStoreSettings(trx, store, async () => {
        const iso = now.toISOString();
        await trx
          .insertInto('idempotency_keys')
          .values({
            scope: ORDER_SCOPE,
            key,
            store_id: store.storeId,
            request_hash: hash,
            status: 'in_progress',
            http_status: null,
            response: null,
            created_at: iso,
            updated_at: iso,
          })
          .execute();
        const order = await prepareOrder(trx, store, input, viewer, now, ageSettings);
        const ordered = order.cart?.token;
        // The order empties and marks the cart: the server's kept copy goes (../cart/cart-cache.ts).
        if (cache && ordered) cache.writing(ordered, tx);
        const taken = await takeStock(trx, order, iso);
        stockChanged = [...taken.keys()];
        // The time slot (issue 14): checked again and counted here, after the stock rows (../hours/booking.ts).
        const hours = await hoursOf(trx, store);
        const slot = await bookOrderSlot(trx, store, hours, input.order_type, input.slot, now);
        if (order.coupon) await countCouponUse(trx, order.coupon.id, iso);
        const answer = await recordOrder(trx, store, input, key, order, iso, slot, hours);
        // Issue 31: a store that keeps guest profiles files a guest's order under its phone's profile.
        if (order.customerId === null)
          await fileGuestOrder(
            trx,
            store,
            {
              orderId: answer.result.order_id,
              phone: input.personal_details.phone,
              email: input.personal_details.emailAddress,
              firstName: input.personal_details.firstName,
              lastName: input.personal_details.lastName,
              licenseType: order.licenseType,
              birthday: order.age.birthday,
            },
            now,
          );
        // History, outbox event and (store setting) auto-confirm, in this same transaction.
        answer.result.status = await recordPlaced(trx, store, answer.result.order_id, taken, now);
        // What the order waits for (issue 26): the thank-you page says it is held, and why, at once.
        answer.result.hold = answer.result.status === 'submitted' ? await placedHold(trx, store, answer.result.order_id) : [];
        await trx
          .updateTable('idempotency_keys')
          .set({ status: 'completed', http_status: 200, response: JSON.stringify(answer), updated_at: iso })
          .where('scope', '=', ORDER_SCOPE)
          .where('key', '=', key)
          .execute();
        return answer;
      }),
    );
    return { status: 200, body, replayed: false, stockChanged };
  } catch (error) {
    // Lost a race on the key: the winner has committed; answer what it answered.
    if (isUniqueViolation(error)) {
      const winner = await findKey(db, key);
      if (winner) return { ...replay(winner, store.storeId, hash), replayed: true, stockChanged: [] };
    }
    throw error;
  }
}

/** Takes the stock; returns what it took per product (units, or grams for gram products). */
async function takeStock(trx: Db, order: PreparedOrder, iso: string): Promise<Map<number, number>> {
  const stockOf = new Map(order.lines.flatMap((l) => l.components.map((c) => [c.productId, c.stock] as const)));
  const needs = [...stockNeeds(order.lines).entries()].sort(([a], [b]) => a - b);
  const taken = new Map<number, number>();
  for (const [productId, need] of needs) {
    const stock = stockOf.get(productId);
    if (!stock || !stock.is_in_stock) throw new ApiError(409, M.productsNotAvailable);
    if (!stock.manage_stock) continue;
    const result = await trx
      .updateTable('stock')
      .set((eb) => ({
        qty: eb('qty', '-', need),
        version: eb('version', '+', 1),
        // Sold out: say so, so that listings and stock checks stop offering it.
        is_in_stock: eb
          .case()
          .when(eb(eb('qty', '-', need), '>', 0))
          .then(eb.ref('is_in_stock'))
          .else(eb.val<0 | 1>(0))
          .end(),
        updated_at: iso,
      }))
      .where('product_id', '=', productId)
      .where('manage_stock', '=', 1)
      .where('is_in_stock', '=', 1)
      .where('qty', '>=', need)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new ApiError(409, M.productsNotAvailable);
    taken.set(productId, need);
  }
  return taken;
}

async function countCouponUse(trx: Db, couponId: number, iso: string): Promise<void> {
  const result = await trx
    .updateTable('coupons')
    .set((eb) => ({ times_used: eb('times_used', '+', 1), updated_at: iso }))
    .where('id', '=', couponId)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('times_used', '<', eb.ref('max_uses'))]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new ApiError(400, M.incorrectCoupon);
}

/** The address as given, with the server's ZIP and distance in place of any client coordinates. */
function storedAddress(address: NonNullable<OrderInput['shipping_address']>, order: PreparedOrder) {
  const { lat: _lat, lng: _lng, ...rest } = address;
  return { ...rest, ...(order.delivery ? { zip: order.delivery.zip } : {}), distance: order.delivery?.distance ?? null };
}

async function recordOrder(
  trx: Db,
  store: Store,
  input: OrderInput,
  key: string,
  order: PreparedOrder,
  iso: string,
  slot: BookedSlot | null,
  hours: HoursSettings | null,
) {
  const s = order.priced.totals.segments;
  const { id } = await trx
    .insertInto('orders')
    .values({
      // Unique placeholder until the id is known; replaced below in the same transaction.
      increment_id: `pending-${key}`,
      store_id: store.storeId,
      customer_id: order.customerId,
      idempotency_key: key,
      status: 'submitted',
      order_type: input.order_type,
      license_type: order.licenseType,
      // What staff must verify before confirming (domain rule), fixed when placed.
      verification_needs: JSON.stringify(verificationNeeds({ license_type: order.licenseType, order_type: input.order_type })),
      payment_method: input.payment_method,
      shipping_method: input.order_type,
      coupon_code: order.coupon?.code ?? null,
      subtotal_cents: s.subtotal,
      discount_cents: s.discount,
      excise_tax_cents: s.excise_taxes,
      sales_tax_cents: s.sales_taxes,
      shipping_cents: s.shipping,
      total_cents: s.total,
      deal_discount_cents: order.deals?.result.discountCents ?? 0,
      credits_used_cents: order.priced.totals.creditsUsed,
      thc_equivalent_grams: s.thc_equivalent_grams,
      personal_details: JSON.stringify(input.personal_details),
      // What the console queue searches by, indexed (orders/console/search-keys.ts).
      ...orderSearchKeys(input.personal_details),
      // Age on every order (issue 14): what the age check was made with, for the console.
      birthday: order.age.birthday,
      minimum_age: order.age.minimumAge,
      slot_start: slot?.start ?? null,
      slot_end: slot?.end ?? null,
      shipping_address: input.shipping_address ? JSON.stringify(storedAddress(input.shipping_address, order)) : null,
      billing_address: null,
      status_changed_at: iso,
      created_at: iso,
      updated_at: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const incrementId = orderNumber(store, id);
  await trx.updateTable('orders').set({ increment_id: incrementId }).where('id', '=', id).execute();

  // Each deal's share of each line (issue 28): the manager's title, and the words the shopper was shown (null: price only).
  const words = order.deals ? dealWordsOf(order.deals, dealDisplayPresetOf(store, order.licenseType, (await readSection(trx, store, DEAL_DISPLAY_SECTION)).value)) : null;
  const lineDeals = (i: number) =>
    (order.deals?.lineDeals[i] ?? []).map((d) => ({ code: d.code, title: d.title, words: words?.get(d.code) ?? null, discount_cents: d.discount }));
  const items = order.lines.map((l, i) => {
    const a = order.priced.lines[i];
    const deals = lineDeals(i);
    return {
      order_id: id,
      product_id: l.productId,
      sku: l.sku,
      parent_sku: l.parentSku,
      name: l.name,
      type_id: l.productType,
      qty: l.qty,
      size: l.size,
      uom: l.uom,
      price_cents: l.unitPrice,
      row_total_cents: a.rowTotal,
      discount_cents: a.discount,
      excise_tax_cents: a.excise,
      sales_tax_cents: a.sales,
      thc_equivalent_grams: a.thcGrams,
      deal_discount_cents: order.deals?.lineDiscounts[i] ?? 0,
      deal_discounts: deals.length ? JSON.stringify(deals) : null,
      // Bundles keep what they were made of, as sold.
      product_option:
        l.productOption || l.components.length > 1
          ? JSON.stringify({
              ...(l.productOption ?? {}),
              components: l.components.map((c) => ({ sku: c.sku, qty: c.qtyPerUnit, price: c.unitPrice })),
            })
          : null,
    };
  });
  await trx.insertInto('order_items').values(items).execute();
  // Every named tax line, separately stated (issue 14, ../tax/order-lines.ts).
  await recordOrderTaxLines(trx, id, order.priced.totals.taxLines);
  // One redemption row per deal the order got (budgets and per-customer limits were taken in prepareOrder).
  await recordRedemptions(trx, id, store.storeId, order.deals, iso);

  // Points redeemed (issue 30, ../loyalty/orders.ts): a conditional debit that never goes below 0 —
  // prepareOrder checked the balance under the customer's lock, this is the rule that holds anyway.
  // Points are EARNED when the order is completed (./lifecycle/transitions.ts), not here.
  if (order.priced.totals.creditsUsed > 0 && order.customerId != null) {
    const redeemed = await redeemForOrder(trx, { customerId: order.customerId, storeId: store.storeId, orderId: id, points: order.priced.totals.creditsUsed, iso });
    if (!redeemed) throw new ApiError(400, M.notEnoughPoints(await balanceOf(trx, order.customerId, store.storeId)));
  }
  if (order.cart) {
    // The browser clears its own cart without a sync (spec §4 Place order); the server's goes too.
    await trx.deleteFrom('cart_items').where('cart_id', '=', order.cart.id).execute();
    // Marked as ordered: cart/create never hands it to the customer's other devices again.
    await trx
      .updateTable('carts')
      .set({ coupon_code: null, credits: 0, ordered_at: iso, updated_at: iso })
      .where('id', '=', order.cart.id)
      .execute();
  }

  return {
    code: 200,
    result: {
      order_id: id,
      increment_id: incrementId,
      status: 'submitted' as OrderStatus,
      /** The verifications the order waits for (set after recordPlaced). */
      hold: [] as Verification[],
      created_at: iso,
      order_type: input.order_type,
      license_type: order.licenseType,
      payment_method: input.payment_method,
      coupon_code: order.coupon?.code ?? null,
      currency: 'USD',
      amounts_in: 'cents',
      subtotal: s.subtotal,
      discount: s.discount,
      // The deals' part of `discount` (issue 28), and each deal the order got.
      deal_discount: order.deals?.result.discountCents ?? 0,
      deals: (order.deals?.applied ?? []).map((d) => ({ id: d.deal.code, title: d.deal.title, words: words?.get(d.deal.code) ?? null, discount: d.discount })),
      excise_taxes: s.excise_taxes,
      sales_taxes: s.sales_taxes,
      // Each of the store's named tax lines charged on the order, as order_tax_lines keeps them (issue 14 receipt).
      tax_lines: statedTaxLines(order.priced.totals.taxLines ?? []),
      shipping: s.shipping,
      total: s.total,
      credits_used: order.priced.totals.creditsUsed,
      thc_equivalent_grams: s.thc_equivalent_grams,
      delivery_distance: order.delivery?.distance ?? null,
      // What the thank-you page shows (issue 11): where the order goes, from the server, never guessed by the browser.
      shipping_address: input.shipping_address ? storedAddress(input.shipping_address, order) : null,
      pickup: input.order_type === 'pickup' ? pickupPlace(store, hours) : null,
      // The booked time slot (issue 14); null: as soon as possible.
      slot,
      items: items.map((it, i) => ({
        sku: it.sku,
        name: it.name,
        qty: it.qty,
        size: it.size,
        price: it.price_cents,
        row_total: it.row_total_cents,
        discount: it.discount_cents,
        deal_discount: it.deal_discount_cents,
        deals: lineDeals(i).map((d) => ({ id: d.code, title: d.title, words: d.words, discount: d.discount_cents })),
        excise_tax: it.excise_tax_cents,
        sales_tax: it.sales_tax_cents,
        row_total_incl_tax: order.priced.lines[i].rowTotalInclTax,
      })),
    },
  };
}

/**
 * Where a pickup order is collected: the store's address, phone and pickup hours (its hours
 * settings, Monday first, as the storefront shows them; issue 14), en-US, grouped.
 */
function pickupPlace(store: Store, hours: HoursSettings | null) {
  const place = store.dispensarySettings.place_info;
  const a = place.address;
  return {
    name: store.name,
    street: a.street,
    city: a.city,
    region_code: a.region_code,
    postcode: a.postcode,
    phone: place.phone,
    hours: groupHours(hours ? weekTable(hours, 'pickup') : place.hours).map((g) => ({ days: g.days, hours: g.hours })),
  };
}

/** The verifications a just-placed order waits for (lifecycle/store-facts.ts holdOf). */
async function placedHold(trx: Db, store: Store, orderId: number): Promise<Verification[]> {
  const row = await trx.selectFrom('orders').select(['verification_needs', 'created_at', 'customer_id']).where('id', '=', orderId).executeTakeFirstOrThrow();
  if (row.customer_id == null) return [];
  const docs = await trx.selectFrom('customers').select(['id_status', 'medcard_status', 'medcard_expiry']).where('id', '=', row.customer_id).executeTakeFirst();
  return holdOf(row, docs ?? null, store.dispensarySettings.place_info.timezone || 'UTC');
}
