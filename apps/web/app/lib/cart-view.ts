/**
 * What the microcart and checkout show of the cart's money and limit (spec §3 totals segments,
 * §5 transaction limit): the server's totals when they were computed for exactly these lines,
 * else the instant estimate of @verdant/domain's computeTotals (server totals win as soon as they
 * arrive). The limit uses the domain's checkTransactionLimit; a fresh server answer overrides it.
 */
import {
  cartItemsHash,
  checkTransactionLimit,
  computeTotals,
  type Cents,
  type LicenseType,
  type Store,
  type TaxRate,
} from '@verdant/domain';
import type { CartLimits, ServerTotals } from '../api/cart.ts';
import { limitItems, lineKey, totalsLines, type CartItem } from '../state/cart-items.ts';

export interface TotalsView {
  /** `server`: the store's own figures; `estimate`: computed here until the store answers. */
  source: 'server' | 'estimate';
  subtotal: Cents;
  discount: Cents;
  excise: Cents;
  sales: Cents;
  shipping: Cents;
  total: Cents;
  couponCode: string | null;
  /** THC-equivalent grams in the cart, the store's limit for the licence type (null: none), over it or not. */
  grams: number;
  limit: number | null;
  over: boolean;
  overMessage: string | null;
  /** Each line's row total before tax (cents), by line key. */
  rowTotals: Map<string, Cents>;
  /** The store's named tax lines from the server (issue 14); absent on an estimate, which shows the two sums. */
  taxLines?: { title: string; rate: number; amount: Cents }[];
  /**
   * The store has a limit model of its own (issue 14): the cart's limit meters (components/cart/LimitMeters.tsx)
   * state the over-limit message per bucket with what to remove, so the summary does not repeat it.
   */
  limitMeters?: boolean;
}

export interface TotalsViewInput {
  items: readonly CartItem[];
  token: string | null;
  totals: ServerTotals | null;
  totalsHash: string | null;
  /** The server's purchase-limit answer (issue 14) and the lines it was given for. */
  limits?: CartLimits | null;
  limitsHash?: string | null;
}

export interface TotalsViewOptions {
  ratesOf: (taxClassId: number | null) => readonly TaxRate[];
  limits: Pick<Store, 'dispensarySettings'> | null;
  licenseType: LicenseType;
  /** The chosen shipping method's price including tax, for the estimate. */
  shippingInclTax: Cents;
  /**
   * Reward points (1 point = 1¢) a logged-in customer redeems at checkout. Server totals count
   * only what the server cart was asked for (credits_requested): until it says these, they are
   * not this order's figures, and the estimate (with these credits) shows instead.
   */
  credits?: number;
}

export function isTotalsFresh(s: TotalsViewInput, credits = 0): s is TotalsViewInput & { totals: ServerTotals } {
  return s.totals != null && s.totalsHash != null && s.totalsHash === cartItemsHash(s.items, s.token) && (s.totals.credits_requested ?? 0) === credits;
}

/**
 * Whether the store has a limit model of its own (issue 14), i.e. anything but today's single
 * per-order bucket (apps/server/src/limits/section.ts transactionLimitsSetting: "cannabis", per
 * order), which the THC-equivalent line and the domain's per-order check already show and check.
 */
export function isOwnLimitModel(limits: CartLimits | null | undefined): boolean {
  if (!limits) return false;
  const [only, ...more] = limits.meters;
  return !(more.length === 0 && (!only || (only.bucket === 'cannabis' && only.window.type === 'transaction')));
}

/** The server's limits answer when it was given for exactly these lines. */
export function freshLimits(s: TotalsViewInput): CartLimits | null {
  return s.limits && s.limitsHash != null && s.limitsHash === cartItemsHash(s.items, s.token) ? s.limits : null;
}

export function totalsView(s: TotalsViewInput, o: TotalsViewOptions): TotalsView {
  const view = totalsViewOf(s, o);
  // Purchase-limit buckets (issue 14): the server's answer for these lines decides whether the cart
  // is over (the same evaluation that enforces it); a store with its own model has no single
  // per-order figure, so the THC-equivalent line shows the grams alone and the meters the buckets.
  const limits = freshLimits(s);
  if (limits) {
    view.over = !limits.ok;
    view.overMessage = limits.ok ? null : limits.message;
  } else if (isOwnLimitModel(s.limits)) {
    // Until the server answers for these lines: today's per-order figure is not this store's rule.
    view.over = false;
    view.overMessage = null;
  }
  if (isOwnLimitModel(s.limits)) {
    view.limit = null;
    view.limitMeters = true;
  }
  return view;
}

function totalsViewOf(s: TotalsViewInput, o: TotalsViewOptions): TotalsView {
  const limit = checkTransactionLimit(limitItems(s.items), o.limits, o.licenseType);
  if (isTotalsFresh(s, o.credits ?? 0)) {
    const t = s.totals;
    const byId = new Map(t.items.map((i) => [i.item_id, i.row_total]));
    const rowTotals = new Map(s.items.map((i) => [lineKey(i), (i.server_item_id != null ? byId.get(i.server_item_id) : undefined) ?? i.price * i.qty]));
    const grams = segment(t, 'thc_equivalent_grams') ?? limit.grams;
    return {
      source: 'server',
      subtotal: t.subtotal,
      discount: t.discount_amount,
      excise: t.excise_tax_amount,
      sales: t.sales_tax_amount,
      shipping: t.shipping_incl_tax,
      total: t.grand_total,
      couponCode: t.coupon_code,
      grams,
      limit: limit.limit,
      over: t.over_limit,
      overMessage: t.over_limit ? t.over_limit_message : null,
      rowTotals,
      taxLines: t.tax_lines?.map(({ title, rate, amount }) => ({ title, rate, amount })),
    };
  }
  const estimate = computeTotals({ lines: totalsLines(s.items, o.ratesOf), shippingInclTax: s.items.length ? o.shippingInclTax : 0, credits: o.credits ?? 0 });
  const seg = estimate.segments;
  return {
    source: 'estimate',
    subtotal: seg.subtotal,
    discount: seg.discount,
    excise: seg.excise_taxes,
    sales: seg.sales_taxes,
    shipping: seg.shipping,
    total: seg.total,
    // A coupon stays on the server cart; its amount is only known from the server's answer.
    couponCode: s.totals?.coupon_code ?? null,
    grams: limit.grams,
    limit: limit.limit,
    over: limit.over,
    overMessage: limit.message,
    rowTotals: new Map(estimate.lines.map((l) => [l.id, l.rowTotal])),
  };
}

function segment(t: ServerTotals, code: string): number | null {
  const s = t.total_segments.find((x) => x.code === code);
  return s ? s.value : null;
}

/** `7 g of 28.5 g` (at most two decimals). */
export function gramsOfLimit(grams: number, limit: number | null): string {
  const g = (n: number) => `${Number(n.toFixed(2))} g`;
  return limit == null ? g(grams) : `${g(grams)} of ${g(limit)}`;
}

/** The store's per-transaction limits as the domain's limit check reads them (compliance_settings only). */
export function limitSettings(limits: Partial<Record<LicenseType, number>>): Pick<Store, 'dispensarySettings'> {
  const entries = Object.entries(limits).map(([type, max]) => [type, { per_transaction: { usable_max: max } }]);
  // Only compliance_settings is read by checkTransactionLimit (usableMaxGrams); the rest stays on the server.
  return { dispensarySettings: { compliance_settings: { limits: Object.fromEntries(entries), hidden_categories: [] } } } as unknown as Pick<Store, 'dispensarySettings'>;
}
