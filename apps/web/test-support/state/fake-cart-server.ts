/**
 * An in-memory stand-in for the cart API, for the cart store's unit tests only (the Playwright
 * journeys run the real server). It keeps the server's semantics that the store relies on: a line
 * without item_id adds (same sku and size grows), with item_id sets; refusals are `ApiError` 400
 * with a message; "no answer" is a `NetworkError` — optionally after the change was applied,
 * which is how a lost response looks to a browser.
 */
import type { LicenseType } from '@verdant/domain';
import type { BuyAgainAnswer, CartItemPayload, CartTransport, ServerItem, ServerTotals, StockItem } from '../../app/api/cart.ts';
import { ApiError, NetworkError } from '../../app/api/envelope.ts';

interface Line {
  item_id: number;
  sku: string;
  qty: number;
  size: number | null;
}

export class FakeCartServer {
  carts = new Map<string, Line[]>();
  coupons = new Map<string, string | null>();
  calls: string[] = [];
  private nextId = 1;
  private nextToken = 1;
  /** Answer the next calls of a kind with these failures, in order. */
  failNext: Partial<Record<keyof CartTransport, (ApiError | NetworkError | 'lost-answer')[]>> = {};
  /** Refuse an update that would make a line's quantity larger than this (a stock or limit rule). */
  maxQty = Infinity;
  stock = new Map<string, StockItem['status']>();
  /** The logged-in customer's open cart: `create` answers it (as the server does for a customer token). */
  customerCart: string | null = null;
  prices = new Map<string, number>();
  /** Past orders' lines for buyAgain, by order id; the keys already answered (a retry adds nothing). */
  orders = new Map<string, { sku: string; qty: number }[]>();
  private answered = new Map<string, BuyAgainAnswer>();

  private fail(kind: keyof CartTransport): 'lost-answer' | null {
    const next = this.failNext[kind]?.shift();
    if (next === 'lost-answer') return next;
    if (next) throw next;
    return null;
  }

  private cart(token: string): Line[] {
    const lines = this.carts.get(token);
    if (!lines) throw new ApiError(404, 'Cart not found');
    return lines;
  }

  private item(line: Line, token: string): ServerItem {
    const price = this.prices.get(line.sku) ?? 1000;
    return {
      item_id: line.item_id, sku: line.sku, qty: line.qty, quote_id: token, name: `Product ${line.sku}`, price, row_total: price * line.qty,
      product_type: line.size != null ? 'configurable' : 'simple', parentSku: null, size: line.size, uom: 'g', canna_type: 1, unit_weight_grams_equivelent: null,
    };
  }

  transport(): CartTransport {
    const call = <T>(kind: keyof CartTransport, fn: () => T): Promise<T> => {
      this.calls.push(kind);
      try {
        const lost = this.fail(kind);
        const result = fn();
        if (lost) return Promise.reject(new NetworkError());
        return Promise.resolve(result);
      } catch (e) {
        return Promise.reject(e);
      }
    };
    return {
      create: (_license: LicenseType) =>
        call('create', () => {
          if (this.customerCart && this.carts.has(this.customerCart)) return this.customerCart;
          const token = `token-${String(this.nextToken++).padStart(16, '0')}`;
          this.carts.set(token, []);
          return token;
        }),
      pull: (token) => call('pull', () => this.cart(token).map((l) => this.item(l, token))),
      update: (token, ci: CartItemPayload) =>
        call('update', () => {
          const lines = this.cart(token);
          const byId = ci.item_id != null ? lines.find((l) => l.item_id === ci.item_id) : undefined;
          if (ci.item_id != null && !byId) throw new ApiError(404, `Cart item ${ci.item_id} not found`);
          const sku = ci.sku ?? byId!.sku;
          const size = ci.size ?? byId?.size ?? null;
          const same = lines.find((l) => l !== byId && l.sku === sku && l.size === size);
          const qty = byId ? (same ? same.qty + ci.qty : ci.qty) : (same?.qty ?? 0) + ci.qty;
          if (qty > this.maxQty) throw new ApiError(400, `Only ${this.maxQty} products of this type are available.`);
          if (byId && same) {
            same.qty = qty;
            lines.splice(lines.indexOf(byId), 1);
            return this.item(same, token);
          }
          const line = byId ?? same ?? { item_id: this.nextId++, sku, qty: 0, size };
          Object.assign(line, { sku, size, qty });
          if (!lines.includes(line)) lines.push(line);
          return this.item(line, token);
        }),
      remove: (token, ci) =>
        call('remove', () => {
          const lines = this.cart(token);
          this.carts.set(token, lines.filter((l) => (ci.item_id != null ? l.item_id !== ci.item_id : l.sku !== ci.sku)));
          return true;
        }),
      totals: (token) => call('totals', () => this.totalsOf(token)),
      shippingInformation: (token, method) =>
        call('shippingInformation', () => ({ shipping_method: method, distance: null, too_far: false, payment_methods: [], totals: this.totalsOf(token) })),
      applyCoupon: (token, coupon) =>
        call('applyCoupon', () => {
          if (coupon.toUpperCase() !== 'WELCOME10') throw new ApiError(400, "You've entered an incorrect coupon code. Please try again.");
          this.coupons.set(token, 'WELCOME10');
          return true;
        }),
      deleteCoupon: (token) => call('deleteCoupon', () => (this.coupons.set(token, null), true)),
      stockCheck: (sku, qty) => call('stockCheck', () => ({ sku, qty, size: null, is_in_stock: true, available_qty: null, status: this.stock.get(sku) ?? 'ok' })),
      stockList: (skus) =>
        call('stockList', () => skus.map((sku) => ({ sku, qty: 0, size: null, is_in_stock: this.stock.get(sku) !== 'out_of_stock', available_qty: null, status: this.stock.get(sku) ?? 'ok' }))),
      buyAgain: (token, orderId, key) =>
        call('buyAgain', () => {
          const lines = this.cart(token);
          const seen = this.answered.get(key);
          if (seen) return seen;
          const order = this.orders.get(orderId);
          if (!order) throw new ApiError(404, 'Order not found');
          for (const o of order) {
            const same = lines.find((l) => l.sku === o.sku);
            if (same) same.qty += o.qty;
            else lines.push({ item_id: this.nextId++, sku: o.sku, qty: o.qty, size: null });
          }
          const answer: BuyAgainAnswer = {
            order_id: orderId,
            added: order.reduce((a, o) => a + o.qty, 0),
            lines: order.map((o) => ({ sku: o.sku, name: `Product ${o.sku}`, qty: o.qty, added: o.qty, status: 'added', price_then: 1000, price_now: 1000, message: null, similar: [] })),
          };
          this.answered.set(key, answer);
          return answer;
        }),
    };
  }

  totalsOf(token: string): ServerTotals {
    const lines = this.cart(token);
    const subtotal = lines.reduce((a, l) => a + (this.prices.get(l.sku) ?? 1000) * l.qty, 0);
    const discount = this.coupons.get(token) ? Math.round(subtotal / 10) : 0;
    return {
      grand_total: subtotal - discount, subtotal, discount_amount: discount, excise_tax_amount: 0, sales_tax_amount: 0, shipping_incl_tax: 0,
      shipping_method: 'pickup', coupon_code: this.coupons.get(token) ?? null, coupon_discount: discount, credits_used: 0, credits_requested: 0,
      items_qty: lines.reduce((a, l) => a + l.qty, 0), items: [], total_segments: [], over_limit: false, over_limit_message: null,
      license_type: 'recreational', unavailable_items: [],
    };
  }

  /** A line put in the cart by someone else (another device). */
  addLine(token: string, sku: string, qty = 1): void {
    this.cart(token).push({ item_id: this.nextId++, sku, qty, size: null });
  }

  /** Lines of the only (or the given) cart as `sku×qty`. */
  lines(token = [...this.carts.keys()].at(-1)!): string[] {
    return (this.carts.get(token) ?? []).map((l) => `${l.sku}×${l.qty}`);
  }
}
