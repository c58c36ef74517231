/**
 * Cart totals from server prices (spec §3 totals segments), through the domain's computeTotals:
 * each line's components become totals lines (a bundle's members are taxed by their own tax
 * class), then the per-component amounts are added back up per cart line.
 *
 * Every amount is integer cents (`amounts_in: 'cents'`); `thc_equivalent_grams` is grams.
 * `discount` is the amount taken off, as a positive number: total = subtotal − discount +
 * excise_taxes + sales_taxes + shipping.
 */
import type { Cents, LicenseType, Store } from '@verdant/domain';
import { allocateCents, computeTotals, type Coupon, type TaxCustomer, type TaxLine, type TaxLineAmount, type TaxLineTotal, type Totals, type TotalsLine } from '@verdant/domain';
import type { ProductTaxFacts } from '../tax/facts.ts';
import { limitCheck } from './checks.ts';
import type { StoreDealsOutcome } from '../deals/apply.ts';
import { dealsSummary, dealWordsOf } from '../deals/display.ts';
import type { DealDisplayPreset } from '@verdant/domain';
import type { ResolvedLine } from './resolve.ts';

export interface PricedCart {
  totals: Totals;
  /** Per cart line, in the order given. */
  lines: LineAmounts[];
  overLimit: boolean;
  overLimitMessage: string | null;
}

export interface LineAmounts {
  rowTotal: Cents;
  discount: Cents;
  excise: Cents;
  sales: Cents;
  rowTotalInclTax: Cents;
  thcGrams: number;
  /** Per named tax line that applies to the line (issue 14; with `taxLines` in the input). */
  taxLines?: TaxLineAmount[];
}

export interface PriceCartInput {
  lines: readonly ResolvedLine[];
  coupon: Coupon | null;
  credits: Cents;
  shippingInclTax: Cents;
  store: Store;
  licenseType: LicenseType;
  /**
   * The store's named tax lines (issue 14, tax/section.ts) with the shopper's exemptions and the
   * products' tax facts (tax/facts.ts): every tax of a cart and an order comes from them.
   */
  taxLines: { lines: readonly TaxLine[]; customer: TaxCustomer; facts: ReadonlyMap<number, ProductTaxFacts> };
  /**
   * The deals' discount of each line in cents (issue 28, deals/apply.ts), same order as `lines`:
   * taken off before the coupon and points, so every tax is on the price after deals. A bundle's
   * share is split over its members by their amounts (exact to the cent).
   */
  dealDiscounts?: readonly number[] | null;
}

export function priceCart(input: PriceCartInput): PricedCart {
  const totalsLines: TotalsLine[] = [];
  const owner: number[] = [];
  input.lines.forEach((l, i) => {
    const deal = input.dealDiscounts?.[i] ?? 0;
    const shares = deal > 0 ? allocateCents(deal, l.components.map((c) => c.unitPrice * l.qty * c.qtyPerUnit)) : null;
    l.components.forEach((c, k) => {
      const facts = input.taxLines.facts.get(c.productId);
      const tax = { taxClassId: c.taxClassId, kind: facts?.kind ?? null, thcPercent: facts?.thcPercent ?? null };
      const globalDiscount = shares && shares[k] > 0 ? { type: 0, value: shares[k] } : null;
      totalsLines.push({ id: `${i}:${k}`, qty: l.qty * c.qtyPerUnit, unitPrice: c.unitPrice, rates: [], limit: c.limit, tax, globalDiscount });
      owner.push(i);
    });
  });
  const taxLines = { lines: input.taxLines.lines, customer: input.taxLines.customer };
  const totals = computeTotals({ lines: totalsLines, coupon: input.coupon, credits: input.credits, shippingInclTax: input.shippingInclTax, taxLines });
  const lines: LineAmounts[] = input.lines.map(() => ({ rowTotal: 0, discount: 0, excise: 0, sales: 0, rowTotalInclTax: 0, thcGrams: 0 }));
  totals.lines.forEach((t, j) => {
    const a = lines[owner[j]];
    a.rowTotal += t.rowTotal;
    a.discount += t.discount;
    a.excise += t.excise;
    a.sales += t.sales;
    a.rowTotalInclTax += t.rowTotalInclTax;
    // A bundle's members add up per named line on the cart line.
    if (t.taxLines) {
      a.taxLines ??= [];
      for (const x of t.taxLines) {
        const have = a.taxLines.find((y) => y.code === x.code);
        if (have) have.amount += x.amount;
        else a.taxLines.push({ ...x });
      }
    }
  });
  input.lines.forEach((l, i) => (lines[i].thcGrams = limitCheck([l], input.store, input.licenseType).grams));
  const limit = limitCheck(input.lines, input.store, input.licenseType);
  return { totals, lines, overLimit: limit.over, overLimitMessage: limit.message };
}

const SEGMENT_TITLES = {
  subtotal: 'Subtotal',
  discount: 'Discount',
  excise_taxes: 'Excise taxes',
  sales_taxes: 'Sales taxes',
  shipping: 'Shipping',
  total: 'Grand Total',
  thc_equivalent_grams: 'THC equivalent (g)',
} as const;

export interface TotalsItemExtra {
  item_id: number | null;
}

/** The store's tax lines a receipt states: those charged on something (an exempt line is left out). */
export function statedTaxLines(lines: readonly TaxLineTotal[]) {
  return lines.filter((l) => l.taxable > 0).map(({ code, title, kind, rate, amount }) => ({ code, title, kind, rate, amount }));
}

/** The `/api/cart/totals` result. */
export function totalsResponse(
  priced: PricedCart,
  lines: readonly ResolvedLine[],
  extras: readonly TotalsItemExtra[],
  meta: { couponCode: string | null; shippingMethod: string; creditsRequested: number; deals?: { outcome: StoreDealsOutcome; preset: DealDisplayPreset } | null },
) {
  const s = priced.totals.segments;
  const deals = meta.deals ?? null;
  const words = deals ? dealWordsOf(deals.outcome, deals.preset) : null;
  /** The deals' part of a line (issue 28): spec cart item `discount_reason` and `global_discount` (type 2: a fixed amount). */
  const dealFields = (i: number) => {
    const cents = deals?.outcome.lineDiscounts[i] ?? 0;
    const shares = deals?.outcome.lineDeals[i] ?? [];
    const reason = shares.map((d) => words?.get(d.code) ?? null).filter((w): w is string => !!w).join(' + ') || null;
    return {
      deal_discount_amount: cents,
      discount_reason: cents > 0 ? reason : null,
      global_discount: cents > 0 ? { type: 2, value: cents, reason } : null,
      deals: shares.map((d) => ({ id: d.code, title: words?.get(d.code) ?? null, discount: d.discount })),
    };
  };
  return {
    grand_total: s.total,
    base_currency_code: 'USD',
    quote_currency_code: 'USD',
    amounts_in: 'cents',
    subtotal: s.subtotal,
    discount_amount: s.discount,
    excise_tax_amount: s.excise_taxes,
    sales_tax_amount: s.sales_taxes,
    tax_amount: s.excise_taxes + s.sales_taxes,
    shipping_incl_tax: s.shipping,
    shipping_method: meta.shippingMethod,
    coupon_code: meta.couponCode,
    coupon_discount: priced.totals.couponDiscount,
    credits_requested: meta.creditsRequested,
    credits_used: priced.totals.creditsUsed,
    items_qty: lines.reduce((a, l) => a + l.qty, 0),
    items: lines.map((l, i) => ({
      item_id: extras[i]?.item_id ?? null,
      sku: l.sku,
      name: l.name,
      qty: l.qty,
      price: l.unitPrice,
      row_total: priced.lines[i].rowTotal,
      discount_amount: priced.lines[i].discount,
      excise_tax_amount: priced.lines[i].excise,
      sales_tax_amount: priced.lines[i].sales,
      tax_amount: priced.lines[i].excise + priced.lines[i].sales,
      row_total_incl_tax: priced.lines[i].rowTotalInclTax,
      thc_equivalent_grams: priced.lines[i].thcGrams,
      ...(priced.lines[i].taxLines ? { tax_lines: priced.lines[i].taxLines } : {}),
      ...dealFields(i),
    })),
    // Deals (issue 28): their part of `discount_amount`, and what applied, what did not and why, and nudges.
    deal_discount: deals ? deals.outcome.result.discountCents : 0,
    deals: deals ? dealsSummary(deals.outcome, deals.preset) : null,
    // Every named tax line that applied to something in the cart, separately stated (issue 14).
    ...(priced.totals.taxLines ? { tax_lines: statedTaxLines(priced.totals.taxLines) } : {}),
    total_segments: (Object.keys(SEGMENT_TITLES) as (keyof typeof SEGMENT_TITLES)[]).map((code) => ({
      code,
      title: SEGMENT_TITLES[code],
      value: s[code],
    })),
    over_limit: priced.overLimit,
    over_limit_message: priced.overLimitMessage,
  };
}
