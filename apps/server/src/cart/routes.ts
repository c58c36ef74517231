/**
 * The cart endpoints of spec §7. The cart id is the `cartId` query parameter (or the Bearer
 * token while no customer token exists); a cart is only ever found in the store of the request,
 * and a customer's cart only with that customer's token (repository.ts assertCartViewer).
 * Every answer is `{code, result}`; amounts are integer cents.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { offeredLicenseTypes, storeOffers, LICENSE_TYPES, type Store } from '@verdant/domain';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { paymentMethodsFor, shippingMethodsFor, type ShippingMethodCode } from '../shipping/methods.ts';
import { chargeFor, zoneFor, zonesOf, zoneView } from '../shipping/zones.ts';
import { findUsableCoupon } from './coupons.ts';
import { CART_MESSAGES as M } from './messages.ts';
import { cartTokenOf, createCart, customerOf, openCartOf, requireCart, requireCartWithLines, viewerOf, type CartRow } from './repository.ts';
import { cartCacheFor } from './cart-cache.ts';
import { inWriteTransaction } from '../db/group-commit.ts';
import { cartDeleteSchema, cartUpdateSchema, cartUpdateSchemaOf, orderTypeSchema } from './schemas.ts';
import type { RouteDocs } from '../http/route-docs.ts';
import { deleteFromCart, updateCart } from './update.ts';
import { buyAgain, BUY_AGAIN_MESSAGES } from './buy-again.ts';
import { cartTotals, readCart, serverItem, totalsOf } from './view.ts';

const createSchema = z.object({
  license_type: z.enum(LICENSE_TYPES, { error: 'license_type must be recreational or medical' }).optional(),
});

// Accepted for older clients, never used: the server places an address by its ZIP code.
const latLng = { lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) };

const shippingInfoSchema = z.object({
  addressInformation: z.object({
    shippingAddress: z
      .object({
        ...latLng,
        city: z.string().max(100).optional(),
        zip: z.string().max(20).optional(),
        address: z.string().max(200).optional(),
        apt_ste: z.string().max(100).nullable().optional(),
      })
      .partial({ lat: true, lng: true })
      .optional(),
    shipping_method_code: orderTypeSchema.optional(),
    shipping_carrier_code: z.string().max(50).optional(),
  }),
});

const collectTotalsSchema = z.object({
  methods: z
    .object({
      shippingMethodCode: orderTypeSchema.optional(),
      shippingCarrierCode: z.string().max(50).optional(),
      paymentMethod: z.object({ method: z.literal('cashondelivery', { error: 'Unknown payment method' }) }).optional(),
    })
    .optional(),
});

const buyAgainSchema = z.object({
  order_id: z.string().trim().min(1, BUY_AGAIN_MESSAGES.orderNotFound).max(64, BUY_AGAIN_MESSAGES.orderNotFound),
  residency: z.enum(['resident', 'non_resident']).nullable().optional(),
});
const idempotencyKeySchema = z.string().trim().min(8, 'An Idempotency-Key header (8 to 200 characters) is required').max(200, 'An Idempotency-Key header (8 to 200 characters) is required');

const couponSchema = z.object({ coupon: z.string().trim().min(1, M.incorrectCoupon).max(64, M.incorrectCoupon) });

/** The OpenAPI entry of a cart route (openapi/): every one names its cart the same way. */
const CART_ID_TEXT =
  'The cart is named by the `cartId` query parameter (or `Authorization: Bearer <cartId>` while there is no customer token); ' +
  "a logged-in customer's cart also needs that customer's token (Bearer). A cart is only found in the store of the request.";
const cartDocs = (summary: string, { description, ...more }: Partial<RouteDocs> = {}): { config: { docs: RouteDocs } } => ({
  config: { docs: { summary, description: description ? `${CART_ID_TEXT}\n\n${description}` : CART_ID_TEXT, tags: ['Cart'], security: 'none', ...more } },
});
const updateDocs = cartDocs('Add, change or replace cart lines', {
  description: 'One line `{cartItem, order_type}` (added, or its quantity set), or every line `{cartItems, order_type, burnCredits}`; the form is picked by its key.',
  body: cartUpdateSchema,
});
const couponDocs = cartDocs('Apply a coupon code', {
  description: 'The code as the `coupon` query parameter (spec §7); a `coupon` in a JSON body is read when the query has none.',
  query: couponSchema,
});

export function registerCartRoutes(app: FastifyInstance, c: CommerceContext): void {
  // A store delivers when it has a delivery zone (shipping/zones.ts, issue 14).
  const assertDeliversIf = async (store: Store, code: ShippingMethodCode | undefined): Promise<void> => {
    if (code === 'delivery' && (await zonesOf(c.db, store)).length === 0) throw new ApiError(400, M.deliveryNotOffered);
  };
  const token = (request: FastifyRequest) => cartTokenOf(request);

  app.post('/api/cart/create', cartDocs('Create a cart (a logged-in customer gets their open cart back)', { body: createSchema }), async (request) => {
    const body = parseOr400(createSchema, request.body, 'shopper');
    const store = request.store;
    const licenseType = body.license_type ?? offeredLicenseTypes(store)[0];
    if (!storeOffers(store, licenseType)) throw new ApiError(400, M.licenseNotOffered(licenseType));
    // A logged-in customer gets their open cart back (from any device); guests get a new one.
    const customer = await customerOf(request);
    const open = customer ? await openCartOf(c.db, customer.id, store.storeId, licenseType) : undefined;
    const cart = open ?? (await createCart(c.db, store.storeId, licenseType, c.now(), customer?.id ?? null));
    return ok(cart.token, { license_type: licenseType });
  });

  app.post('/api/cart/update', updateDocs, async (request) => {
    const body = parseOr400(cartUpdateSchemaOf(request.body), request.body, 'shopper');
    await assertDeliversIf(request.store, body.order_type);
    const viewer = await viewerOf(request);
    const items = await updateCart(
      c.db,
      c.catalog,
      request.store,
      token(request),
      {
        changes: 'cartItem' in body ? [body.cartItem] : body.cartItems,
        mode: 'cartItem' in body ? 'add-or-set' : 'replace',
        orderType: body.order_type,
        burnCredits: body.burnCredits,
        residency: body.residency ?? null,
      },
      viewer,
      c.now(),
    );
    return ok('cartItem' in body && items.length === 1 ? items[0] : items);
  });

  app.post(
    '/api/cart/buy-again',
    cartDocs("Put one of my past orders' items back in the cart, at today's prices (issue 30)", {
      description:
        "Needs the customer's access token (Bearer) and an `Idempotency-Key` header: a retry with the same key answers the first answer and adds nothing. " +
        'Every line goes through the same checks as `cart/update` (stock, licence, medical card, purchase limits); a line that does not fit whole is added at the largest quantity that fits. ' +
        'Answers per line `added`, `price_changed`, `sold_out`, `not_sold` or `limited`, with a message and, for what cannot be had, up to 2 similar products in stock. ' +
        "Another customer's order, or an order of another store, is 404.",
      body: buyAgainSchema,
      security: 'customer',
      errors: { 401: 'No valid customer token', 404: 'No such order of mine, or no such cart' },
    }),
    async (request) => {
      const body = parseOr400(buyAgainSchema, request.body, 'shopper');
      const viewer = await viewerOf(request);
      if (viewer.tokenInvalid) throw new ApiError(401, BUY_AGAIN_MESSAGES.loginRequired);
      if (!viewer.customer) throw new ApiError(401, BUY_AGAIN_MESSAGES.loginRequired);
      const key = parseOr400(idempotencyKeySchema, request.headers['idempotency-key'] ?? '', 'shopper');
      return ok(
        await buyAgain(c.db, c.catalog, request.store, token(request), viewer, { incrementId: body.order_id, idempotencyKey: key, residency: body.residency ?? null }, c.now()),
      );
    },
  );

  app.post('/api/cart/delete', cartDocs('Remove a cart line', { body: cartDeleteSchema }), async (request) => {
    const body = parseOr400(cartDeleteSchema, request.body, 'shopper');
    return ok(await deleteFromCart(c.db, request.store, token(request), await viewerOf(request), body.cartItem, c.now()));
  });

  app.get('/api/cart/pull', cartDocs('Read the cart lines, re-priced now'), async (request) => {
    const viewer = await viewerOf(request);
    const { cart, rows } = await requireCartWithLines(c.db, token(request), request.store.storeId, viewer);
    const entries = await readCart(c.db, c.catalog, request.store, rows, viewer.customer, c.now());
    return ok(entries.map((e) => serverItem(e.row, e.resolved, cart.token, e.error)));
  });

  app.get('/api/cart/totals', cartDocs('Read the cart totals (integer cents)'), async (request) => {
    const viewer = await viewerOf(request);
    const { cart, rows } = await requireCartWithLines(c.db, token(request), request.store.storeId, viewer);
    return ok(await cartTotals(c.db, c.catalog, request.store, cart, rows, viewer.customer, c.now()));
  });

  app.post('/api/cart/collect-totals', cartDocs('Choose pickup or delivery and read the totals', { body: collectTotalsSchema }), async (request) => {
    const body = parseOr400(collectTotalsSchema, request.body, 'shopper');
    const code = body.methods?.shippingMethodCode;
    await assertDeliversIf(request.store, code);
    const viewer = await viewerOf(request);
    let { cart, rows } = await requireCartWithLines(c.db, token(request), request.store.storeId, viewer);
    if (code && code !== cart.order_type) cart = await setOrderType(c, cart, code);
    return ok(await cartTotals(c.db, c.catalog, request.store, cart, rows, viewer.customer, c.now()));
  });

  app.get('/api/cart/payment-methods', cartDocs('List the payment methods for this cart'), async (request) => {
    const { rows } = await requireCartWithLines(c.db, token(request), request.store.storeId, await viewerOf(request));
    const entries = await readCart(c.db, c.catalog, request.store, rows, null, c.now());
    return ok(paymentMethodsFor(entries.flatMap((e) => (e.resolved ? [e.resolved.productType] : []))));
  });

  app.get('/api/cart/shipping-methods', cartDocs('List pickup and delivery for this cart'), async (request) => {
    const cart = await requireCart(c.db, token(request), request.store.storeId, await viewerOf(request));
    return ok(shippingMethodsFor(request.store, await zonesOf(c.db, request.store)).map((m) => ({ ...m, selected: m.method_code === cart.order_type })));
  });

  app.post('/api/cart/shipping-information', cartDocs('Set the order type and delivery address', { body: shippingInfoSchema }), async (request) => {
    const { addressInformation: info } = parseOr400(shippingInfoSchema, request.body, 'shopper');
    const store = request.store;
    const code = info.shipping_method_code ?? 'pickup';
    await assertDeliversIf(store, code);
    const viewer = await viewerOf(request);
    let { cart, rows } = await requireCartWithLines(c.db, token(request), store.storeId, viewer);
    // Decided from the address's ZIP code; lat/lng a browser sends are display only and ignored.
    // A refusal (unknown ZIP, outside every zone, under the zone's minimum) leaves the cart as it was.
    const delivery = code === 'delivery' ? zoneFor(store, await zonesOf(c.db, store), info.shippingAddress?.zip) : null;
    const entries = await readCart(c.db, c.catalog, store, rows, viewer.customer, c.now());
    let quote = null;
    if (delivery) {
      // The cart's value (priced as pickup: subtotal after discounts, before taxes) against the zone's minimum.
      const bare = await totalsOf(c.db, c.catalog, store, { ...cart, order_type: 'pickup' }, entries, viewer.customer, c.now());
      quote = chargeFor(delivery.zone, bare.subtotal - bare.discount_amount);
    }
    const zip = delivery?.zip ?? null;
    if (code !== cart.order_type || zip !== cart.delivery_zip) cart = await changeCart(c, cart, { order_type: code, delivery_zip: zip });
    return ok({
      shipping_method: code,
      distance: delivery?.distance ?? null,
      too_far: false,
      zone: delivery && quote ? zoneView(delivery.zone, quote) : null,
      payment_methods: paymentMethodsFor(entries.flatMap((e) => (e.resolved ? [e.resolved.productType] : []))),
      totals: await totalsOf(c.db, c.catalog, store, cart, entries, viewer.customer, c.now()),
    });
  });

  app.post('/api/cart/apply-coupon', couponDocs, async (request) => {
    const query = request.query as Record<string, unknown>;
    const { coupon } = parseOr400(couponSchema, { coupon: query.coupon ?? (request.body as Record<string, unknown> | undefined)?.coupon }, 'shopper');
    const cart = await requireCart(c.db, token(request), request.store.storeId, await viewerOf(request));
    const usable = await findUsableCoupon(c.db, coupon, request.store.storeId, c.now());
    if (!usable) throw new ApiError(400, M.incorrectCoupon);
    await changeCart(c, cart, { coupon_code: usable.code });
    return ok(true);
  });

  app.post('/api/cart/delete-coupon', cartDocs('Remove the coupon'), async (request) => {
    const cart = await requireCart(c.db, token(request), request.store.storeId, await viewerOf(request));
    await changeCart(c, cart, { coupon_code: null });
    return ok(true);
  });
}

/**
 * Change fields of the cart row, as every cart write does: in a write transaction that drops the
 * server's kept copy of the cart (./cart-cache.ts) and keeps it dropped once committed.
 */
function changeCart(c: CommerceContext, cart: CartRow, fields: Partial<Pick<CartRow, 'coupon_code' | 'order_type' | 'delivery_zip'>>): Promise<CartRow> {
  const cache = cartCacheFor(c.db);
  return inWriteTransaction(c.db, async (trx, tx) => {
    cache?.writing(cart.token, tx);
    return trx
      .updateTable('carts')
      .set({ ...fields, updated_at: c.now().toISOString() })
      .where('id', '=', cart.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

function setOrderType(c: CommerceContext, cart: CartRow, code: ShippingMethodCode): Promise<CartRow> {
  return changeCart(c, cart, { order_type: code });
}
