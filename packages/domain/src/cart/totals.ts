import { percentOf, type Cents } from '../money.ts';
import { allocateCents } from './allocate.ts';
import { thcEquivalentGrams, type LimitItem } from './limits.ts';
import { taxOn, type TaxRate } from './tax.ts';
import { computeTaxLines, type TaxCustomer, type TaxItem, type TaxLine, type TaxLineAmount, type TaxLineTotal } from '../tax/lines.ts';

/**
 * Cart totals (spec §3 totals segments): subtotal, discount, excise_taxes, sales_taxes, shipping,
 * total, thc_equivalent_grams. Pure and shared: the browser shows them at once, the server
 * computes them again from its own prices before it saves an order.
 *
 * Order of operations, all in integer cents:
 *  1. row total = unit price × qty (unit price already reflects special and weight prices);
 *  2. a line's own discount (global_discount: type 1 is a percentage, any other type a fixed
 *     amount; spec §3), capped at the row;
 *  3. the coupon (percent of, or fixed amount off, what is left), then reward-point credits —
 *     dispensary loyalty redemptions are discounts, so they lower the taxed amount — both
 *     spread over the lines in proportion (exact to the cent);
 *  4. taxes per group of lines with the same rates, on the group's discounted amount, rounded
 *     once per group (tax.ts), then shown per line by exact allocation;
 *  5. shipping as the method's price including its tax (spec §9: delivery 4, 5 incl. tax).
 * total = subtotal − discount + excise + sales + shipping, never negative.
 */
export interface TotalsLine {
  id: string;
  qty: number;
  unitPrice: Cents;
  rates: readonly TaxRate[];
  /** A per-line discount: type 1 = percent, otherwise a fixed amount in cents. */
  globalDiscount?: { type: number; value: number } | null;
  limit?: Omit<LimitItem, 'qty'>;
  /** What the store's named tax lines look at (issue 14); used when the input has `taxLines`. */
  tax?: Omit<TaxItem, 'id' | 'net'>;
}

export interface Coupon {
  code: string;
  type: 'percent' | 'fixed';
  /** Percent (10 = 10 %) or cents. */
  value: number;
}

export interface TotalsInput {
  lines: readonly TotalsLine[];
  coupon?: Coupon | null;
  /** Reward-point credits to redeem, in cents. */
  credits?: Cents;
  /** The shipping method's price including tax. */
  shippingInclTax?: Cents;
  /**
   * The store's named tax lines (issue 14, ../tax/lines.ts): when given, taxes come from them (per
   * line `tax`) instead of `rates`, and every line's amount is stated in `taxLines`.
   */
  taxLines?: { lines: readonly TaxLine[]; customer: TaxCustomer };
}

export interface LineTotals {
  id: string;
  rowTotal: Cents;
  discount: Cents;
  excise: Cents;
  sales: Cents;
  rowTotalInclTax: Cents;
  /** Per named tax line that applies (only with `taxLines` in the input). */
  taxLines?: TaxLineAmount[];
}

export interface TotalsSegments {
  subtotal: Cents;
  discount: Cents;
  excise_taxes: Cents;
  sales_taxes: Cents;
  shipping: Cents;
  total: Cents;
  thc_equivalent_grams: number;
}

export interface Totals {
  lines: LineTotals[];
  segments: TotalsSegments;
  /** Credits actually used (never more than what is left to pay before tax). */
  creditsUsed: Cents;
  couponDiscount: Cents;
  /** Every named tax line of the store with its amount (only with `taxLines` in the input). */
  taxLines?: TaxLineTotal[];
}

const rateKey = (rates: readonly TaxRate[]) =>
  rates.map((r) => `${r.kind}:${r.rate}`).sort().join('|');

function lineDiscount(row: Cents, d: TotalsLine['globalDiscount']): Cents {
  if (!d || !(d.value > 0)) return 0;
  const off = d.type === 1 ? percentOf(row, Math.min(100, d.value)) : Math.round(d.value);
  return Math.min(row, Math.max(0, off));
}

export function computeTotals(input: TotalsInput): Totals {
  const lines = input.lines.map((l) => {
    if (!Number.isInteger(l.unitPrice) || l.unitPrice < 0) throw new RangeError(`line ${l.id}: unit price must be whole cents ≥ 0`);
    if (!(l.qty > 0)) throw new RangeError(`line ${l.id}: quantity must be above 0`);
    const row = Math.round(l.unitPrice * l.qty);
    return { line: l, row, own: lineDiscount(row, l.globalDiscount) };
  });
  const subtotal = lines.reduce((a, x) => a + x.row, 0);
  const afterOwn = lines.map((x) => x.row - x.own);
  const base = afterOwn.reduce((a, b) => a + b, 0);

  const c = input.coupon;
  const couponDiscount = !c ? 0 : Math.min(base, c.type === 'percent' ? percentOf(base, Math.min(100, Math.max(0, c.value))) : Math.max(0, Math.round(c.value)));
  const creditsUsed = Math.min(base - couponDiscount, Math.max(0, Math.round(input.credits ?? 0)));
  const shared = allocateCents(couponDiscount + creditsUsed, afterOwn);
  const net = afterOwn.map((v, i) => v - shared[i]);

  // Taxes per group of lines that share the same rates, rounded once per group.
  const excise = new Array<Cents>(lines.length).fill(0);
  const sales = new Array<Cents>(lines.length).fill(0);
  const named = input.taxLines
    ? computeTaxLines(
        lines.map((x, i) => ({ id: x.line.id, net: net[i], taxClassId: x.line.tax?.taxClassId ?? null, kind: x.line.tax?.kind, thcPercent: x.line.tax?.thcPercent })),
        input.taxLines.lines,
        input.taxLines.customer,
      )
    : null;
  if (named)
    named.items.forEach((t, i) => {
      excise[i] = t.excise;
      sales[i] = t.sales;
    });
  const groups = new Map<string, number[]>();
  if (!named)
    lines.forEach((x, i) => {
      const k = rateKey(x.line.rates);
      groups.set(k, [...(groups.get(k) ?? []), i]);
    });
  for (const idx of groups.values()) {
    const weights = idx.map((i) => net[i]);
    const t = taxOn(weights.reduce((a, b) => a + b, 0), lines[idx[0]].line.rates);
    allocateCents(t.excise, weights).forEach((v, k) => (excise[idx[k]] = v));
    allocateCents(t.sales, weights).forEach((v, k) => (sales[idx[k]] = v));
  }

  const lineTotals: LineTotals[] = lines.map((x, i) => ({
    id: x.line.id,
    rowTotal: x.row,
    discount: x.own + shared[i],
    excise: excise[i],
    sales: sales[i],
    rowTotalInclTax: net[i] + excise[i] + sales[i],
    ...(named ? { taxLines: named.items[i].lines } : {}),
  }));
  const discount = lineTotals.reduce((a, l) => a + l.discount, 0);
  const exciseTotal = excise.reduce((a, b) => a + b, 0);
  const salesTotal = sales.reduce((a, b) => a + b, 0);
  const shipping = Math.max(0, Math.round(input.shippingInclTax ?? 0));
  return {
    lines: lineTotals,
    creditsUsed,
    couponDiscount,
    ...(named ? { taxLines: named.lines } : {}),
    segments: {
      subtotal,
      discount,
      excise_taxes: exciseTotal,
      sales_taxes: salesTotal,
      shipping,
      total: subtotal - discount + exciseTotal + salesTotal + shipping,
      thc_equivalent_grams: thcEquivalentGrams(input.lines.map((l) => ({ qty: l.qty, ...l.limit }))),
    },
  };
}
