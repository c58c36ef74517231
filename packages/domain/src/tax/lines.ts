import type { TaxLine } from './schema.ts';
import { allocateCents } from '../cart/allocate.ts';
import { percentOf, type Cents } from '../money.ts';
import type { TaxLineKind, TaxProductKind } from './kinds.ts';

/**
 * Named tax lines per store (issue 14 "Tax rules per store"). A store's taxes are an ordered list of
 * lines; each line has
 *  - a rate (percent) and a kind (`excise` or `sales`: the cart's two tax segments stay the sums of
 *    the lines of each kind, so existing totals keep their meaning);
 *  - a base: `price` (the discounted line price) or `price_plus_earlier` (the price plus every
 *    earlier line that applies to the same item — California charges sales tax on top of the 15 %
 *    excise, research/dispensary-domain.md §3);
 *  - which products it applies to: product tax classes, product kinds and a THC-potency band
 *    (Illinois: 10 % up to 35 % THC, 25 % above, 20 % for infused products); every given
 *    condition must hold, an absent condition holds for all;
 *  - which customers are exempt: `medical` (any medical shopper: Illinois medical pays no
 *    purchaser excise), `medical_card` (a medical shopper with a state medical ID card: California's
 *    MMIC exempts from sales tax, a physician's letter does not), `recreational` (so a line can be
 *    medical-only, e.g. Illinois' 1 % on medical cannabis).
 *
 * Rounding: items with exactly the same applicable lines form a group; each line is computed once
 * on the group's amount, rounded to the cent once (half away from zero), then shown on the items
 * by exact allocation. For one excise and one sales line this is precisely the earlier
 * `taxOn` per rate group, so today's demo totals are unchanged to the cent.
 */

export { MAX_TAX_LINES, TAX_BASES, TAX_EXEMPTIONS, TAX_LINE_KINDS, TAX_PRODUCT_KINDS } from './kinds.ts';
export type { TaxBase, TaxExemption, TaxLineKind, TaxProductKind } from './kinds.ts';
export type { TaxLine, TaxLineInput, TaxSettings } from './schema.ts';

/** What a tax line needs to know about one priced item. */
export interface TaxItem {
  id: string;
  /** The item's amount after every discount, in cents. */
  net: Cents;
  taxClassId: number | null;
  kind?: TaxProductKind | null;
  /** THC in percent of the product; unknown counts as 100 so a potency tier never under-collects. */
  thcPercent?: number | null;
}

export interface TaxCustomer {
  medical: boolean;
  /** A medical shopper with a valid state medical ID card (CA MMIC). */
  medicalCard: boolean;
}

export const RECREATIONAL_CUSTOMER: TaxCustomer = { medical: false, medicalCard: false };

export function lineApplies(line: TaxLine, item: Pick<TaxItem, 'taxClassId' | 'kind' | 'thcPercent'>, customer: TaxCustomer): boolean {
  if (line.exempt.includes('recreational') && !customer.medical) return false;
  if (line.exempt.includes('medical') && customer.medical) return false;
  if (line.exempt.includes('medical_card') && customer.medical && customer.medicalCard) return false;
  const a = line.applies_to;
  if (a.tax_class_ids && !(item.taxClassId != null && a.tax_class_ids.includes(item.taxClassId))) return false;
  if (a.kinds && !(item.kind != null && a.kinds.includes(item.kind))) return false;
  const thc = item.thcPercent ?? 100;
  if (a.thc_percent_above != null && !(thc > a.thc_percent_above)) return false;
  if (a.thc_percent_at_most != null && !(thc <= a.thc_percent_at_most)) return false;
  return true;
}

export interface TaxLineAmount {
  code: string;
  amount: Cents;
}

export interface ItemTax {
  id: string;
  /** Only the lines that apply to the item, in the store's order. */
  lines: TaxLineAmount[];
  excise: Cents;
  sales: Cents;
}

export interface TaxLineTotal {
  code: string;
  title: string;
  kind: TaxLineKind;
  rate: number;
  /** The sum of the bases the line was charged on (for the tax report). */
  taxable: Cents;
  amount: Cents;
}

export interface TaxBreakdown {
  items: ItemTax[];
  /** Every line of the store, in its order, with 0 where nothing applied. */
  lines: TaxLineTotal[];
  excise: Cents;
  sales: Cents;
}

/** The taxes of items under a store's lines for one customer; see the header for the rounding. */
export function computeTaxLines(items: readonly TaxItem[], lines: readonly TaxLine[], customer: TaxCustomer): TaxBreakdown {
  const perItem = items.map(() => new Array<Cents>(lines.length).fill(0));
  const totals = lines.map((l) => ({ code: l.code, title: l.title, kind: l.kind, rate: l.rate, taxable: 0, amount: 0 }));
  const groups = new Map<string, { applicable: number[]; idx: number[] }>();
  items.forEach((item, i) => {
    if (!Number.isInteger(item.net) || item.net < 0) throw new RangeError(`item ${item.id}: net must be whole cents ≥ 0`);
    const applicable = lines.flatMap((l, k) => (lineApplies(l, item, customer) ? [k] : []));
    const key = applicable.join(',');
    const g = groups.get(key) ?? { applicable, idx: [] };
    g.idx.push(i);
    groups.set(key, g);
  });
  for (const { applicable, idx } of groups.values()) {
    const weights = idx.map((i) => items[i].net);
    const net = weights.reduce((a, b) => a + b, 0);
    let earlier = 0;
    for (const k of applicable) {
      const base = lines[k].base === 'price_plus_earlier' ? net + earlier : net;
      const amount = percentOf(base, lines[k].rate);
      totals[k].taxable += base;
      totals[k].amount += amount;
      allocateCents(amount, weights).forEach((v, j) => (perItem[idx[j]][k] = v));
      earlier += amount;
    }
  }
  const itemTaxes: ItemTax[] = items.map((item, i) => {
    const applied = lines.flatMap((l, k) => (lineApplies(l, item, customer) ? [k] : []));
    const sumKind = (kind: TaxLineKind) => applied.filter((k) => lines[k].kind === kind).reduce((a, k) => a + perItem[i][k], 0);
    return {
      id: item.id,
      lines: applied.map((k) => ({ code: lines[k].code, amount: perItem[i][k] })),
      excise: sumKind('excise'),
      sales: sumKind('sales'),
    };
  });
  const sumKind = (kind: TaxLineKind) => totals.filter((t) => t.kind === kind).reduce((a, t) => a + t.amount, 0);
  return { items: itemTaxes, lines: totals, excise: sumKind('excise'), sales: sumKind('sales') };
}
