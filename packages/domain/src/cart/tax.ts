import { percentOf, type Cents } from '../money.ts';

/**
 * Tax rules (spec §5) and cannabis tax lines (research/dispensary-domain.md §3).
 * A rule applies to a product only if the product's tax class id is positive and listed in the
 * rule; with grouped tax (customer groups) the customer tax class must be listed too. Within a
 * rule the first rate whose country matches and whose region matches (same name, region id 0, or
 * no region name) is used. Cannabis excise is charged on the net amount; sales tax on the net
 * amount plus the excise (California: sales tax applies on top of the excise, which must be
 * stated separately).
 */
export type TaxKind = 'excise' | 'sales';

export interface TaxRate {
  code: string;
  kind: TaxKind;
  /** Percent: 15 means 15 %. */
  rate: number;
  tax_country_id: string;
  region_name: string | null;
  tax_region_id: number;
}

export interface TaxRule {
  code: string;
  priority: number;
  product_tax_class_ids: number[];
  customer_tax_class_ids: number[];
  rates: TaxRate[];
}

export interface TaxContext {
  countryId: string;
  regionName?: string | null;
  /** Require the customer tax class in the rule (spec §5 grouped tax). */
  groupedTax: boolean;
  customerTaxClassId: number;
}

function regionMatches(rate: TaxRate, regionName: string | null | undefined): boolean {
  if (!rate.region_name || rate.tax_region_id === 0) return true;
  return !!regionName && rate.region_name.toLowerCase() === regionName.toLowerCase();
}

/** The rates that apply to a product tax class, in rule priority order (one per rule). */
export function applicableRates(productTaxClassId: number, rules: readonly TaxRule[], ctx: TaxContext): TaxRate[] {
  if (!(productTaxClassId > 0)) return [];
  return rules
    .filter((r) => r.product_tax_class_ids.includes(productTaxClassId))
    .filter((r) => !ctx.groupedTax || r.customer_tax_class_ids.includes(ctx.customerTaxClassId))
    .sort((a, b) => a.priority - b.priority)
    .flatMap((r) => {
      const rate = r.rates.find((t) => t.tax_country_id === ctx.countryId && regionMatches(t, ctx.regionName));
      return rate ? [rate] : [];
    });
}

export interface TaxAmounts {
  excise: Cents;
  sales: Cents;
}

/**
 * Excise and sales tax on a net amount in cents: excise = net × Σexcise%, sales = (net + excise) ×
 * Σsales%. Each is rounded to the cent once, here — the one place tax is rounded.
 */
export function taxOn(net: Cents, rates: readonly TaxRate[]): TaxAmounts {
  const excisePct = rates.filter((r) => r.kind === 'excise').reduce((a, r) => a + r.rate, 0);
  const salesPct = rates.filter((r) => r.kind === 'sales').reduce((a, r) => a + r.rate, 0);
  const excise = percentOf(net, excisePct);
  const sales = percentOf(net + excise, salesPct);
  return { excise, sales };
}

/**
 * The customer tax class of a guest, and of every customer group in this catalogue (the demo rules
 * list class 3). Rules are matched with grouped tax on, so a tax-exempt class (a CA medical patient
 * with an MMIC pays no sales tax) only needs rules that leave it out.
 */
export const GUEST_CUSTOMER_TAX_CLASS = 3;

/**
 * Taxes are charged where the store is (pickup, and delivery from it): the store's tax defaults,
 * else its address. The browser's estimate and the server's totals use this same context.
 */
export function storeTaxContext(
  place: { country_id: string; region_code: string },
  tax: { defaultCountry?: string; defaultRegion?: string } = {},
  customerTaxClassId = GUEST_CUSTOMER_TAX_CLASS,
): TaxContext {
  return {
    countryId: tax.defaultCountry || place.country_id,
    regionName: tax.defaultRegion || place.region_code,
    groupedTax: true,
    customerTaxClassId,
  };
}

/** Rates per product tax class, worked out once per class. */
export function rateLookup(rules: readonly TaxRule[], ctx: TaxContext): (taxClassId: number | null) => TaxRate[] {
  const cache = new Map<number, TaxRate[]>();
  return (taxClassId) => {
    const id = taxClassId ?? 0;
    let rates = cache.get(id);
    if (!rates) cache.set(id, (rates = applicableRates(id, rules, ctx)));
    return rates;
  };
}
