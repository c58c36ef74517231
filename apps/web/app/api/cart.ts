/**
 * The cart, stock, shipping and order calls of spec §7, typed as apps/server answers them
 * (apps/server/src/cart/view.ts, totals.ts; stock/routes.ts; orders/place.ts). Amounts are integer
 * cents. The cart store talks to the server only through `CartTransport`, so its unit tests run
 * it against a fake.
 */
import type { LicenseType, ProductType, ServerCartItem, StockStatus } from '@verdant/domain';
import { callApi, type CallOptions } from './envelope.ts';

/** A bundle's chosen options as the server takes and stores them (spec §3 product_option): selections are link ids. */
export interface BundleOptionsPayload {
  extension_attributes: { bundle_options: { option_id: number; option_qty: number; option_selections: number[] }[] };
}

/** A line as `/api/cart/pull` and `/api/cart/update` return it (spec §3 cart item). */
export interface ServerItem extends ServerCartItem {
  name: string | null;
  /** Unit price the server charges (cents), null when it cannot price the line any more. */
  price: number | null;
  row_total: number | null;
  product_type: ProductType;
  parentSku: string | null;
  size: number | null;
  uom: string | null;
  canna_type: number | null;
  unit_weight_grams_equivelent: number | null;
  /** A bundle line's options as stored (other options the browser does not send are passed through). */
  product_option?: BundleOptionsPayload | null;
  errors?: { stock?: string };
}

export interface TotalsItem {
  item_id: number | null;
  sku: string;
  qty: number;
  price: number;
  row_total: number;
  discount_amount: number;
  excise_tax_amount: number;
  sales_tax_amount: number;
  row_total_incl_tax: number;
  thc_equivalent_grams: number;
  /** Issue 28: the deals' part of discount_amount, and their words (spec cart item discount_reason; null: none or price only). */
  deal_discount_amount?: number;
  discount_reason?: string | null;
}

/** Issue 28: the deals of a cart as the server judged them (apps/server/src/deals/display.ts). */
export interface TotalsDeals {
  display: string;
  applied: { id: string; title: string | null; discount: number }[];
  /** Why a deal did not apply; `related`: a line of the cart takes part in it. */
  not_applied: { id: string; title?: string | null; reason: string; text: string; related?: boolean }[];
  nudges: { id: string; text: string }[];
}

/** One named tax line of the store, as the cart states it (issue 14). */
export interface TotalsTaxLine {
  code: string;
  title: string;
  kind: 'excise' | 'sales';
  rate: number;
  amount: number;
}

/** `/api/cart/totals` (spec §3 totals segments), cents. */
export interface ServerTotals {
  /** Every named tax line charged on something (issue 14); absent from older servers. */
  tax_lines?: TotalsTaxLine[];
  grand_total: number;
  subtotal: number;
  discount_amount: number;
  excise_tax_amount: number;
  sales_tax_amount: number;
  shipping_incl_tax: number;
  shipping_method: 'pickup' | 'delivery';
  coupon_code: string | null;
  coupon_discount: number;
  credits_used: number;
  /** The reward points the cart was asked to redeem (cart/update burnCredits); credits_used is what they cover. */
  credits_requested: number;
  items_qty: number;
  items: TotalsItem[];
  total_segments: { code: string; title: string; value: number }[];
  over_limit: boolean;
  over_limit_message: string | null;
  license_type: LicenseType;
  unavailable_items: { item_id: number; sku: string; qty: number; error: string | null }[];
  /** Issue 28: the deals' part of discount_amount and what applied, what not and why, nudges; absent from older servers. */
  deal_discount?: number;
  deals?: TotalsDeals | null;
}

export interface CartItemPayload {
  sku?: string;
  qty: number;
  quoteId: string;
  item_id?: number;
  size?: number | null;
  /** A bundle's chosen options: sent with every write of the line, so the server never falls back to defaults. */
  product_option?: BundleOptionsPayload;
}

export interface StockItem {
  sku: string;
  qty: number;
  size: number | null;
  is_in_stock: boolean;
  available_qty: number | null;
  status: StockStatus;
}

export interface ShippingAddressInput {
  lat?: number;
  lng?: number;
  city?: string;
  zip?: string;
  address?: string;
  apt_ste?: string | null;
}

export interface ShippingInformation {
  shipping_method: 'pickup' | 'delivery';
  distance: number | null;
  too_far: boolean;
  /** The delivery zone of the address (issue 14): its name, ETA and the fee this cart pays there. */
  zone?: DeliveryZoneView | null;
  payment_methods: PaymentMethod[];
  totals: ServerTotals;
}

export interface DeliveryZoneView {
  name: string;
  eta: string;
  fee_incl_tax: number;
  free: boolean;
}

export interface PaymentMethod {
  code: string;
  title: string;
  cost: number;
  cost_incl_tax: number;
  default: boolean;
}

/** The shopper's residency statement (purchase-limit buckets, issue 14). */
export type Residency = 'resident' | 'non_resident';

/** One bucket's meter of `GET /api/cart/limits` (apps/server/src/limits/routes.ts): amounts in the bucket's unit. */
export interface CartLimitMeter {
  bucket: string;
  label: string;
  unit: 'flower_g' | 'concentrate_g' | 'thc_mg' | 'flower_equivalent_g';
  window: { type: 'transaction' | 'day' | 'month' } | { type: 'rolling_days'; days: number };
  cap: number | null;
  /** Counted from the customer's earlier orders in the window. */
  used: number;
  in_cart: number;
  remaining: number | null;
  over: boolean;
  /** "10 g of 28.5 g per day" */
  text: string;
}

/** `GET /api/cart/limits`: the cart's purchase-limit meters and, when over, which bucket, by how much and what to remove. */
export interface CartLimits {
  ok: boolean;
  needs_residency: boolean;
  meters: CartLimitMeter[];
  violations: { bucket: string; label: string; unit: CartLimitMeter['unit']; excess: number; reason: 'over_cap' | 'not_sold'; message: string }[];
  remove: { sku: string | null; name: string | null; qty: number }[];
  message: string | null;
  /** A guest: only this order is counted (the server's text). */
  guest_notice: string | null;
}

/** Issue 30: one line of `POST /api/cart/buy-again` (apps/server/src/cart/buy-again.ts). */
export interface BuyAgainLine {
  sku: string;
  name: string;
  qty: number;
  added: number;
  status: 'added' | 'price_changed' | 'sold_out' | 'not_sold' | 'limited';
  price_then: number;
  price_now: number | null;
  /** What changed, in the server's words; null when the line went in as it was. */
  message: string | null;
  /** For what cannot be had: up to 2 similar products in stock (paths without the store prefix). */
  similar: { sku: string; name: string; url: string }[];
}

export interface BuyAgainAnswer {
  order_id: string;
  added: number;
  lines: BuyAgainLine[];
}

/** Spec §7: `/api/stock/list` takes at most 15 skus per call. */
export const STOCK_LIST_CHUNK = 15;

export interface CartTransport {
  create(licenseType: LicenseType): Promise<string>;
  pull(token: string): Promise<ServerItem[]>;
  /** `extra.burnCredits`: the reward points to redeem, kept on the server cart so its totals count them (spec §7). */
  update(token: string, cartItem: CartItemPayload, extra?: { burnCredits?: number }): Promise<ServerItem>;
  remove(token: string, cartItem: { item_id?: number; sku?: string; quoteId: string }): Promise<boolean>;
  totals(token: string): Promise<ServerTotals>;
  shippingInformation(token: string, method: 'pickup' | 'delivery', address?: ShippingAddressInput): Promise<ShippingInformation>;
  applyCoupon(token: string, coupon: string): Promise<boolean>;
  deleteCoupon(token: string): Promise<boolean>;
  stockCheck(sku: string, qty: number): Promise<StockItem>;
  stockList(skus: readonly string[]): Promise<StockItem[]>;
  /** Issue 14: the purchase-limit meters of the cart for this residency (absent from test doubles that don't need it). */
  limits?(token: string, residency: Residency | null): Promise<CartLimits>;
  /** Issue 30: a past order's lines into the cart (a logged-in customer's); one key per tap, kept for its retries. */
  buyAgain?(token: string, orderId: string, idempotencyKey: string, residency: Residency | null): Promise<BuyAgainAnswer>;
}

const cart = (token: string) => ({ cartId: token });

/**
 * Runs a call with the logged-in customer's access token (null for a guest), refreshing it under
 * the session's lock when needed (../state/auth-store.ts). The server reads the customer from it
 * (customer carts, the medical-card rule, the customer group's prices).
 */
export type WithUserToken = <T>(call: (userToken: string | null) => Promise<T>) => Promise<T>;

const asGuest: WithUserToken = (call) => call(null);

/**
 * The real transport: same-origin `/api/*` calls; the store comes from the host (spec §1).
 * `residency`: the shopper's statement, sent with every cart update so the server holds a
 * non-resident to the non-resident caps (and a resident to the resident ones) as the lines go in.
 */
export function createHttpCartTransport(withUser: WithUserToken = asGuest, o: { residency?: () => Residency | null } = {}): CartTransport {
  const residencyOf = () => {
    const r = o.residency?.() ?? null;
    return r ? { residency: r } : {};
  };
  const api = <T>(path: string, options: CallOptions = {}) =>
    withUser((userToken) => callApi<T>(path, userToken ? { ...options, headers: { ...options.headers, authorization: `Bearer ${userToken}` } } : options));
  return {
    create: (licenseType) => api<string>('/api/cart/create', { method: 'POST', body: { license_type: licenseType } }),
    pull: (token) => api<ServerItem[]>('/api/cart/pull', { query: cart(token) }),
    update: (token, cartItem, extra = {}) => api<ServerItem>('/api/cart/update', { method: 'POST', query: cart(token), body: { cartItem, ...extra, ...residencyOf() } }),
    remove: (token, cartItem) => api<boolean>('/api/cart/delete', { method: 'POST', query: cart(token), body: { cartItem } }),
    totals: (token) => api<ServerTotals>('/api/cart/totals', { query: cart(token) }),
    shippingInformation: (token, method, address) =>
      api<ShippingInformation>('/api/cart/shipping-information', {
        method: 'POST',
        query: cart(token),
        body: { addressInformation: { shipping_method_code: method, shipping_carrier_code: method, ...(address ? { shippingAddress: address } : {}) } },
      }),
    applyCoupon: (token, coupon) => api<boolean>('/api/cart/apply-coupon', { method: 'POST', query: { ...cart(token), coupon } }),
    deleteCoupon: (token) => api<boolean>('/api/cart/delete-coupon', { method: 'POST', query: cart(token) }),
    stockCheck: (sku, qty) => callApi<StockItem>('/api/stock/check', { query: { sku, qty } }),
    limits: (token, residency) => api<CartLimits>('/api/cart/limits', { query: { ...cart(token), residency } }),
    buyAgain: (token, orderId, idempotencyKey, residency) =>
      api<BuyAgainAnswer>('/api/cart/buy-again', {
        method: 'POST',
        query: cart(token),
        headers: { 'idempotency-key': idempotencyKey },
        body: { order_id: orderId, ...(residency ? { residency } : {}) },
        // Several lines, each through the cart's checks, in one transaction: more than a cart change's 5 s on a busy store.
        timeoutMs: 15_000,
      }),
    stockList: async (skus) => {
      const out: StockItem[] = [];
      for (let i = 0; i < skus.length; i += STOCK_LIST_CHUNK) {
        out.push(...(await callApi<StockItem[]>('/api/stock/list', { query: { skus: skus.slice(i, i + STOCK_LIST_CHUNK).join(',') } })));
      }
      return out;
    },
  };
}

/** A guest's transport (no customer token). */
export const httpCartTransport: CartTransport = createHttpCartTransport();
