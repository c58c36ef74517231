/**
 * A store's tax rules from the database, in the domain's shape (cart/tax.ts decides which rates
 * apply and rounds), and the tax context of a shopper in that store.
 */
import type { Kysely } from 'kysely';
import type { Store } from '@verdant/domain';
import type { Database } from '../db/schema.ts';
import { applicableRates, type TaxContext, type TaxRate, type TaxRule } from '@verdant/domain';

/**
 * The customer tax class of a guest (and, until accounts land, of everyone): the demo rules list
 * class 3. Rules are matched with grouped tax on, so a future tax-exempt class (a CA medical
 * patient with an MMIC pays no sales tax) only needs rules that leave it out.
 */
export const GUEST_CUSTOMER_TAX_CLASS = 3;

/** Rules with their rates, one query. */
export async function loadTaxRules(db: Kysely<Database>, storeId: number): Promise<TaxRule[]> {
  const rows = await db
    .selectFrom('tax_rules as r')
    .leftJoin('tax_rates as t', 't.tax_rule_id', 'r.id')
    .select([
      'r.id', 'r.code as rule_code', 'r.priority', 'r.position', 'r.product_tax_class_ids', 'r.customer_tax_class_ids',
      't.id as rate_id', 't.code', 't.kind', 't.rate', 't.tax_country_id', 't.region_name', 't.tax_region_id',
    ])
    .where('r.store_id', '=', storeId)
    .orderBy('r.priority')
    .orderBy('r.position')
    .orderBy('r.id')
    .orderBy('t.id')
    .execute();
  const rules = new Map<number, TaxRule>();
  for (const r of rows) {
    let rule = rules.get(r.id);
    if (!rule) {
      rule = {
        code: r.rule_code,
        priority: r.priority,
        product_tax_class_ids: parseIds(r.product_tax_class_ids),
        customer_tax_class_ids: parseIds(r.customer_tax_class_ids),
        rates: [],
      };
      rules.set(r.id, rule);
    }
    if (r.rate_id != null && r.kind != null && r.rate != null && r.tax_country_id != null && r.code != null) {
      rule.rates.push({
        code: r.code,
        kind: r.kind,
        rate: r.rate,
        tax_country_id: r.tax_country_id,
        region_name: r.region_name,
        tax_region_id: r.tax_region_id ?? 0,
      });
    }
  }
  return [...rules.values()];
}

function parseIds(json: string): number[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : [];
  } catch {
    return [];
  }
}

/** Taxes are charged where the store is (pickup, and delivery from it): its country and region. */
export function storeTaxContext(store: Store, customerTaxClassId = GUEST_CUSTOMER_TAX_CLASS): TaxContext {
  const address = store.dispensarySettings.place_info.address;
  return {
    countryId: store.tax.defaultCountry || address.country_id,
    regionName: store.tax.defaultRegion || address.region_code,
    groupedTax: true,
    customerTaxClassId,
  };
}

/** Rates per product tax class, computed once per class. */
export function rateLookup(rules: readonly TaxRule[], ctx: TaxContext): (taxClassId: number) => TaxRate[] {
  const cache = new Map<number, TaxRate[]>();
  return (taxClassId) => {
    let rates = cache.get(taxClassId);
    if (!rates) {
      rates = applicableRates(taxClassId, rules, ctx);
      cache.set(taxClassId, rates);
    }
    return rates;
  };
}
