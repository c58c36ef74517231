/**
 * Reading a cart: its lines re-resolved against today's catalogue and prices (a cart never keeps
 * a price), the server item shape of spec §3 (item_id, quote_id, …) and the totals.
 */
import { CART_COPY, type Store } from '@verdant/domain';
import { ApiError } from '../http/envelope.ts';
import type { LoadedProduct } from '../prices/loader.ts';
import { priceDeliveryCart } from '../shipping/zones.ts';
import { findUsableCoupon, toDomainCoupon } from './coupons.ts';
import { cartProducts, type CatalogSource } from './catalog-source.ts';
import { stockProblem } from './checks.ts';
import { CART_MESSAGES as M } from './messages.ts';
import { lineInputOf, type CartLineRow, type CartRow, type CustomerRef, type Db } from './repository.ts';
import { resolveLine, type ResolveContext, type ResolvedLine } from './resolve.ts';
import { priceCart, totalsResponse } from './totals.ts';
import { evaluateCart, limitScope } from '../limits/enforce.ts';
import { cartTaxLines } from '../tax/section.ts';
import { evaluateStoreDeals } from '../deals/apply.ts';
import { dealDisplayPresetOf } from '../deals/display.ts';
import { activeDealsFor } from '../deals/repository.ts';
import { DEAL_DISPLAY_SECTION } from '../deals/display-section.ts';
import { readSection } from '../store-settings/read.ts';

export interface LineEntry {
  row: CartLineRow;
  resolved: ResolvedLine | null;
  /**
   * Why the line cannot be sold any more: disabled, price gone… (`resolved` null: left out of the
   * totals), or its stock no longer covers it (`resolved` set: still priced, but no order with it).
   */
  error: string | null;
}

export function resolveContext(store: Store, customer: CustomerRef | null, now: Date): ResolveContext {
  return { now, groupId: customer?.groupId ?? store.tax.userGroupId };
}

export function resolveRows(rows: readonly CartLineRow[], products: ReadonlyMap<string, LoadedProduct>, ctx: ResolveContext): LineEntry[] {
  return rows.map((row) => {
    try {
      const [resolved] = resolveLine(lineInputOf(row), products, ctx);
      return { row, resolved: resolved ?? null, error: resolved ? null : 'unavailable' };
    } catch (e) {
      if (e instanceof ApiError) return { row, resolved: null, error: e.message };
      throw e;
    }
  });
}

/**
 * The cart's lines (`rows`, see requireCartWithLines) re-resolved against today's catalogue and
 * stock (issue 13: a change reaches open carts on their next read). A line whose stock no longer
 * covers it stays in the cart, priced, and carries the spec's stock-sync error (§4: 'Out of stock!',
 * or 'Only N products of this type are available.' when some are left) in `errors.stock`; placing
 * the order refuses it (orders/place.ts: 'Some of the ordered products are not available!').
 */
export async function readCart(db: Db, catalog: CatalogSource | null, store: Store, rows: readonly CartLineRow[], customer: CustomerRef | null, now: Date): Promise<LineEntry[]> {
  const ctx = resolveContext(store, customer, now);
  // Stock always: one indexed query, and the only way a sold-out line is told before checkout.
  const products = await cartProducts(db, catalog, store.storeId, rows.map((r) => r.sku), ctx.groupId, 'always');
  const entries = resolveRows(rows, products, ctx);
  const sellable = entries.flatMap((e) => (e.resolved ? [e.resolved] : []));
  for (const e of entries) {
    if (!e.resolved || e.error) continue;
    const problem = stockProblem(sellable, [e.resolved]);
    if (problem) e.error = problem === M.outOfStock ? CART_COPY.itemOutOfStock : problem;
  }
  return entries;
}

/** One server cart item (spec §3 cart item; prices in cents). */
export function serverItem(row: Pick<CartLineRow, 'id' | 'sku' | 'qty' | 'size' | 'parent_sku' | 'product_option'>, resolved: ResolvedLine | null, token: string, error: string | null = null) {
  return {
    item_id: row.id,
    sku: row.sku,
    qty: row.qty,
    quote_id: token,
    name: resolved?.name ?? null,
    price: resolved?.unitPrice ?? null,
    original_price: resolved?.originalPrice ?? null,
    special_price: resolved?.specialPrice ?? null,
    row_total: resolved ? resolved.unitPrice * row.qty : null,
    product_type: resolved?.productType ?? null,
    parentSku: row.parent_sku,
    size: row.size,
    uom: resolved?.uom ?? null,
    canna_type: resolved?.cannaType ?? null,
    unit_weight_grams_equivelent: resolved?.unitWeight ?? null,
    product_option: row.product_option ? JSON.parse(row.product_option) : null,
    ...(error ? { errors: { stock: error } } : {}),
  };
}

export async function cartTotals(db: Db, catalog: CatalogSource | null, store: Store, cart: CartRow, rows: readonly CartLineRow[], customer: CustomerRef | null, now: Date) {
  const entries = await readCart(db, catalog, store, rows, customer, now);
  return totalsOf(db, catalog, store, cart, entries, customer, now);
}

export async function totalsOf(db: Db, catalog: CatalogSource | null, store: Store, cart: CartRow, entries: readonly LineEntry[], customer: CustomerRef | null, now: Date) {
  const sellable = entries.filter((e): e is LineEntry & { resolved: ResolvedLine } => e.resolved != null);
  const coupon = await findUsableCoupon(db, cart.coupon_code, store.storeId, now);
  // The store's named tax lines (issue 14, tax/section.ts).
  const productIds = sellable.flatMap((e) => e.resolved.components.map((c) => c.productId));
  const taxLines = await cartTaxLines(db, store, cart.license_type, customer, productIds, now, catalog?.find(store.storeId)?.taxFacts);
  // The store's deals on the server's prices (issue 28, deals/apply.ts): the order runs the same.
  const deals = await evaluateStoreDeals(db, {
    store,
    deals: await activeDealsFor(db, store.storeId),
    lines: sellable.map((e) => e.resolved),
    shopper: { licence: cart.license_type, customerId: customer?.id ?? null },
    couponApplied: coupon != null,
    pointsRedeemed: cart.credits > 0,
    now,
  });
  const price = (shippingInclTax: number) =>
    priceCart({
      lines: sellable.map((e) => e.resolved),
      dealDiscounts: deals?.lineDiscounts ?? null,
      taxLines,
      coupon: coupon ? toDomainCoupon(coupon) : null,
      credits: cart.credits,
      shippingInclTax,
      store,
      licenseType: cart.license_type,
    });
  // Delivery: the fee of the zone of the address accepted at shipping-information (issue 14).
  const priced = cart.order_type === 'delivery' ? await priceDeliveryCart(db, store, cart.delivery_zip, price) : price(0);
  const response = totalsResponse(
    priced,
    sellable.map((e) => e.resolved),
    sellable.map((e) => ({ item_id: e.row.id })),
    {
      couponCode: coupon?.code ?? null,
      shippingMethod: cart.order_type,
      creditsRequested: cart.credits,
      deals: deals ? { outcome: deals, preset: dealDisplayPresetOf(store, cart.license_type, (await readSection(db, store, DEAL_DISPLAY_SECTION)).value) } : null,
    },
  );
  // A store with a limit model other than the spec's per-order limit (issue 14; a state preset it
  // starts on, issue 26): over_limit is that model's verdict, earlier orders in the windows counted,
  // residency not known here (the stricter caps; GET /api/cart/limits answers for a stated residency,
  // with the meters). Today's per-order check stays for a store on the spec's per-order limit.
  const scope = await limitScope(db, store);
  if (scope.limits.menuFacts) {
    const verdict = await evaluateCart(
      db,
      { ...scope, customerType: cart.license_type, residency: null, customerId: customer?.id ?? null, now },
      sellable.map((e) => e.resolved),
    );
    response.over_limit = !verdict.ok;
    response.over_limit_message = verdict.ok ? null : (verdict.message ?? verdict.violations[0]?.message ?? null);
  }
  // Added to the object, not spread into a copy: V8 (Node 20) adds fields to a spread copy slowly.
  return Object.assign(response, {
    license_type: cart.license_type,
    unavailable_items: entries.filter((e) => e.resolved == null).map((e) => ({ item_id: e.row.id, sku: e.row.sku, qty: e.row.qty, error: e.error })),
    // Lines still priced above whose stock no longer covers them (sold out since they were added).
    stock_problems: entries.filter((e) => e.resolved != null && e.error).map((e) => ({ item_id: e.row.id, sku: e.row.sku, qty: e.row.qty, error: e.error })),
  });
}
