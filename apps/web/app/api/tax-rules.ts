/**
 * The store's tax rules, for the cart's instant estimate only (the server computes the totals that
 * count). Read once per page life from the catalogue search's `taxrule` entity (spec §7 "Tax rules
 * search"), which serves them for clients that compute tax offline. Since issue 14 that entity is
 * a view of the store's named tax lines (server catalog/tax-rules.ts: one rule per line; a line
 * limited to product kinds or a THC band is not in it, so the estimate may be low until the
 * server's totals, which state every line, arrive).
 */
import { rateLookup, storeTaxContext, type TaxRate, type TaxRule } from '@verdant/domain';
import { callApi } from './envelope.ts';

interface TaxRuleDocument {
  code: string;
  priority: number;
  product_tax_class_ids: number[];
  customer_tax_class_ids: number[];
  rates: (TaxRate & { tax_postcode?: string | null })[];
}

let rules: Promise<TaxRule[]> | null = null;

export function loadTaxRules(): Promise<TaxRule[]> {
  rules ??= callApi<{ items: TaxRuleDocument[] }>('/api/catalog/search', { method: 'POST', body: { entity: 'taxrule', query: { size: 100 } } })
    .then((r) =>
      r.items.map((d) => ({
        code: d.code,
        priority: d.priority,
        product_tax_class_ids: d.product_tax_class_ids,
        customer_tax_class_ids: d.customer_tax_class_ids,
        rates: d.rates.map(({ code, kind, rate, tax_country_id, region_name, tax_region_id }) => ({ code, kind, rate, tax_country_id, region_name, tax_region_id })),
      })),
    )
    .catch(() => {
      rules = null; // try again next time; meanwhile the estimate carries no tax
      return [];
    });
  return rules;
}

/**
 * Rates per product tax class where the store is, in the same tax context as the server's
 * totals (the domain's storeTaxContext), so the instant estimate matches the server's answer.
 */
export function taxRatesLookup(rules: readonly TaxRule[], place: { country_id: string; region_code: string }): (taxClassId: number | null) => TaxRate[] {
  return rateLookup(rules, storeTaxContext(place));
}
