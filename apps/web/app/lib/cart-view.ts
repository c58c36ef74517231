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
import type { CartDealsEstimate } from './context.ts';
import { limitItems, lineKey, totalsLines, type CartItem } from '../state/cart-items.ts';

export interface TotalsView {
  /** `server`: the store's own figures; `estimate`: computed here until the store answers. */
  source: 'server' | 'estimate';
  subtotal: Cents;
  /** Every discount of the order: the deals', a coupon's and reward points'. */
  discount: Cents;
  /** Issue 28: the deals' part of `discount` (the server's deal_discount; offline the estimate's sum). */
  dealDiscount: Cents;
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
  /** Issue 28 (server answers only): each line's deal, by line key: its words (null: price only) and its discount. */
  lineDeals?: Map<string, { reason: string | null; discount: Cents }>;
  /** Issue 28: what the deals say of this cart: nudges ("Add 1 more eighth…") and why a deal on its items was missed. */
  dealNotes?: { nudges: string[]; missed: string[] };
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
  /**
   * Issue 28: the deals of these lines estimated offline from the snapshot (lib/deal-estimate.ts),
   * for exactly `hash`'s lines: each line's discount by line key, and nudges. The server's answer replaces it.
   */
  dealEstimate?: {
    hash: string;
    discounts: Readonly<Record<string, Cents>>;
    nudges: string[];
    /** The snapshot's tax lines and each line's tax facts: the estimate then taxes as the server does. */
    tax?: CartDealsEstimate['tax'];
  } | null;
  /** A logged-in medical customer whose card is valid today (a tax line may exempt them, as on the server). */
  medicalCard?: boolean;
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
      dealDiscount: t.deal_discount ?? 0,
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
      ...dealsOf(t, s.items),
    };
  }
  // Issue 28: offline, the deals the snapshot estimates for exactly these lines, taken off each line before tax (as the server does).
  const deals = o.dealEstimate && o.dealEstimate.hash === cartItemsHash(s.items, s.token) ? o.dealEstimate : null;
  // With the store's named tax lines from the snapshot, each line is taxed by them (kind, THC, tax
  // class) exactly as the server's priceCart does; else by the tax rules read online, if any.
  const tax = deals?.tax;
  const taxClass = new Map(s.items.map((i) => [lineKey(i), i.tax_class_id]));
  const lines = totalsLines(s.items, o.ratesOf).map((l) => ({
    ...l,
    ...(deals?.discounts[l.id] ? { globalDiscount: { type: 2, value: deals.discounts[l.id] } } : {}),
    ...(tax ? { rates: [], tax: { taxClassId: taxClass.get(l.id) ?? null, kind: tax.facts[l.id]?.kind ?? null, thcPercent: tax.facts[l.id]?.thcPercent ?? null } } : {}),
  }));
  const estimate = computeTotals({
    lines,
    shippingInclTax: s.items.length ? o.shippingInclTax : 0,
    credits: o.credits ?? 0,
    ...(tax ? { taxLines: { lines: tax.lines, customer: { medical: o.licenseType === 'medical', medicalCard: o.medicalCard === true } } } : {}),
  });
  const seg = estimate.segments;
  return {
    source: 'estimate',
    subtotal: seg.subtotal,
    discount: seg.discount,
    dealDiscount: deals ? Object.values(deals.discounts).reduce((sum, d) => sum + d, 0) : 0,
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
    ...(deals
      ? {
          lineDeals: new Map(Object.entries(deals.discounts).map(([key, discount]) => [key, { reason: null, discount }])),
          dealNotes: { nudges: deals.nudges, missed: [] },
        }
      : {}),
  };
}

/** Reasons a missed deal is worth telling: the shopper could act on it or would otherwise wonder (issue 28: "not today, medical only, limit reached"). */
const TOLD_REASONS = new Set([
  'not_today',
  'outside_hours',
  'not_started',
  'medical_only',
  'recreational_only',
  'first_order_only',
  'new_customers_only',
  'limit_reached',
  'budget_exhausted',
  'not_combinable_with_coupon',
  'not_combinable_with_points',
]);

/** The deals' part of a server answer (issue 28): per line, nudges and missed deals. */
export function dealsOf(t: ServerTotals, items: readonly CartItem[]): Pick<TotalsView, 'lineDeals' | 'dealNotes'> {
  const byId = new Map(t.items.map((i) => [i.item_id, i]));
  const lineDeals = new Map<string, { reason: string | null; discount: Cents }>();
  for (const item of items) {
    const line = item.server_item_id != null ? byId.get(item.server_item_id) : undefined;
    if (line?.deal_discount_amount) lineDeals.set(lineKey(item), { reason: line.discount_reason ?? null, discount: line.deal_discount_amount });
  }
  const nudges = t.deals?.nudges.map((n) => n.text) ?? [];
  const nudged = new Set(t.deals?.nudges.map((n) => n.id));
  const missed = (t.deals?.not_applied ?? []).filter((n) => n.related && TOLD_REASONS.has(n.reason) && !nudged.has(n.id)).map((n) => (n.title ? `${n.title}: ${n.text}` : n.text));
  return { lineDeals, dealNotes: { nudges, missed } };
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
