/**
 * Everything an order is judged on, read inside its transaction: the lines (the payload's
 * products on the offline path, else the server cart), re-resolved and re-priced from the
 * database; licence mixing; the purchase limit; the coupon; reward points; the delivery area;
 * and the server-computed totals. Nothing priced by the client survives this step.
 */
import { offeredLicenseTypes, storeOffers, type AgeSettings, type LicenseType, type Store } from '@verdant/domain';
import { ApiError } from '../http/envelope.ts';
import { licenseProblem } from '../cart/checks.ts';
import { assertWithinLimits, limitScope, lockLimitHolder } from '../limits/enforce.ts';
import { findUsableCoupon, toDomainCoupon, type CouponRow } from '../cart/coupons.ts';
import { CART_MESSAGES as M, MAX_CART_LINES } from '../cart/messages.ts';
import { cartLines, lineInputOf, lockPointsOf, medicalCardProblem, pointsBalance, requireCart, type CartRow, type CartViewer, type Db } from '../cart/repository.ts';
import { resolveLine, type ResolvedLine } from '../cart/resolve.ts';
import type { LineInput } from '../cart/schemas.ts';
import { priceCart, type PricedCart } from '../cart/totals.ts';
import { resolveContext } from '../cart/view.ts';
import { loadProducts } from '../prices/loader.ts';
import type { DeliveryCheck } from '../shipping/methods.ts';
import { priceInZone, zoneFor, zonesOf } from '../shipping/zones.ts';
import type { DeliveryZone } from '@verdant/domain';
import type { OrderInput } from './schema.ts';
import { orderAge, type OrderAge } from '../age/order-age.ts';
import { cartTaxLines } from '../tax/section.ts';
import type { StoreDealsOutcome } from '../deals/apply.ts';
import { reserveStoreDeals } from '../deals/redemptions.ts';
import { activeDealsOn } from '../deals/repository.ts';

export interface PreparedOrder {
  cart: CartRow | null;
  licenseType: LicenseType;
  lines: ResolvedLine[];
  priced: PricedCart;
  coupon: CouponRow | null;
  customerId: number | null;
  delivery: (DeliveryCheck & { zip: string }) | null;
  /** Age on every order (issue 14): the date of birth checked and the minimum age applied. */
  age: OrderAge;
  /** The deals the order gets (issue 28), their budgets and per-customer limits already taken in this transaction. */
  deals: StoreDealsOutcome | null;
}

export async function prepareOrder(
  trx: Db,
  store: Store,
  input: OrderInput,
  viewer: CartViewer,
  now: Date,
  ageSettings?: AgeSettings,
): Promise<PreparedOrder> {
  const offline = (input.products?.length ?? 0) > 0;
  const customer = viewer.customer;
  let cart: CartRow | null = null;
  if (input.cart_id) {
    try {
      // Another customer's cart is not found: it is neither read, nor ordered, nor emptied.
      cart = await requireCart(trx, input.cart_id, store.storeId, viewer, true);
    } catch (e) {
      // The offline path carries its own lines: a cart that expired meanwhile does not matter.
      // A failed token (401) still fails, so the browser refreshes and the order stays the customer's.
      if (!(offline && e instanceof ApiError && e.statusCode === 404)) throw e;
    }
  }
  const licenseType = cart?.license_type ?? input.license_type ?? offeredLicenseTypes(store)[0];
  if (!storeOffers(store, licenseType)) throw new ApiError(400, M.licenseNotOffered(licenseType));

  const inputs: LineInput[] = offline ? input.products! : cart ? (await cartLines(trx, cart.id)).map(lineInputOf) : [];
  if (inputs.length === 0) throw new ApiError(400, M.emptyCart);
  if (inputs.length > MAX_CART_LINES) throw new ApiError(400, M.tooManyLines);
  // Nobody under the minimum age orders, guest or customer (../age/order-age.ts).
  const age = await orderAge(trx, store, input.birthday, customer?.id ?? null, licenseType, now, ageSettings);
  const ctx = resolveContext(store, customer, now);
  const products = await loadProducts(trx, store.storeId, inputs.map((i) => i.sku), ctx.groupId);
  const lines = mergeLines(inputs, (i) => {
    try {
      return resolveLine(i, products, ctx);
    } catch (e) {
      if (e instanceof ApiError) throw new ApiError(409, M.productsNotAvailable);
      throw e;
    }
  });

  const card = medicalCardProblem(customer, licenseType, now, lines);
  if (card) throw new ApiError(400, card);
  const mix = licenseProblem(lines, licenseType);
  if (mix) throw new ApiError(400, mix);
  // Purchase-limit buckets (issue 14), with the customer's earlier orders read in this transaction,
  // under the customer's lock taken BEFORE the check (issue 26): parallel orders of one customer
  // are checked one after the other, each seeing the orders saved before it, so together they can't
  // pass a per-day limit (PostgreSQL; SQLite runs one write transaction at a time). Stores of one
  // licence holder share a count: first a lock on holder + person covering all of them (lockLimitHolder).
  const scope = await limitScope(trx, store);
  if (customer?.id != null) {
    await lockLimitHolder(trx, scope.limits, customer.id);
    await lockPointsOf(trx, customer.id);
  }
  const limits = { ...scope, customerType: licenseType, residency: input.residency ?? null, customerId: customer?.id ?? null, now };
  await assertWithinLimits(trx, limits, lines);

  const code = input.coupon ?? cart?.coupon_code ?? null;
  const coupon = code ? await findUsableCoupon(trx, code, store.storeId, now) : null;
  if (code && !coupon) throw new ApiError(400, M.incorrectCoupon);

  // The cart is the customer's own or a guest cart (requireCart), so the order is the requester's.
  const customerId = customer?.id ?? null;
  const credits = input.credits ?? cart?.credits ?? 0;
  if (credits > 0) {
    // Spent at most once: concurrent orders of the customer waited at the lock above until this one
    // was done, and then read the balance it left.
    const balance = await pointsBalance(trx, customerId, store.storeId);
    if (credits > balance) throw new ApiError(400, M.notEnoughPoints(balance));
  }

  let delivery: PreparedOrder['delivery'] = null;
  let zone: DeliveryZone | null = null;
  if (input.order_type === 'delivery') {
    if (!input.shipping_address) throw new ApiError(400, M.deliveryAddressRequired);
    // From the address's ZIP code; the lat/lng a client sends are ignored (refused: ApiError 400).
    // The store's delivery zones (issue 14) as saved now, read in this transaction.
    ({ zone, ...delivery } = zoneFor(store, await zonesOf(trx, store), input.shipping_address.zip));
  }

  // The store's named tax lines as saved now, read in this transaction (issue 14, tax/section.ts).
  const taxLines = await cartTaxLines(trx, store, licenseType, customer, lines.flatMap((l) => l.components.map((c) => c.productId)), now);
  // The store's deals as they are now, read in this transaction, on the same lines and prices; the
  // deals' budgets and per-customer limits are taken here (deals/redemptions.ts), so a burst of
  // orders gets exactly as many as the budget allows.
  const deals = await reserveStoreDeals(trx, {
    store,
    deals: await activeDealsOn(trx, store.storeId),
    lines,
    shopper: { licence: licenseType, customerId, phone: input.personal_details.phone },
    couponApplied: coupon != null,
    pointsRedeemed: credits > 0,
    now,
  });
  const price = (shippingInclTax: number) => priceCart({
    lines,
    dealDiscounts: deals?.lineDiscounts ?? null,
    taxLines,
    coupon: coupon ? toDomainCoupon(coupon) : null,
    credits,
    shippingInclTax,
    store,
    licenseType,
  });
  // Delivery: the zone's fee, free from its threshold, refused under its minimum (shipping/zones.ts).
  const priced = zone ? priceInZone(price, zone).priced : price(0);
  return { cart, licenseType, lines, priced, coupon, customerId, delivery, age, deals };
}

/** Resolve each input and merge lines that are the same (an offline payload may repeat a sku). */
function mergeLines(inputs: readonly LineInput[], resolve: (i: LineInput) => ResolvedLine[]): ResolvedLine[] {
  const byKey = new Map<string, ResolvedLine>();
  for (const input of inputs) {
    for (const line of resolve(input)) {
      const same = byKey.get(line.key);
      if (!same) {
        byKey.set(line.key, line);
        continue;
      }
      // Re-resolve at the summed quantity: tier prices depend on it.
      const [merged] = resolve({ sku: line.sku, qty: same.qty + line.qty, size: line.size, product_option: line.productOption });
      byKey.set(line.key, merged);
    }
  }
  return [...byKey.values()];
}
