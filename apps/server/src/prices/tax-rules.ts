/**
 * A store's tax rules from the database, in the domain's shape (cart/tax.ts decides which rates
 * apply and rounds), and the tax context of a shopper in that store.
 */
import type { Kysely } from 'kysely';
import type { Store } from '@verdant/domain';
import type { Database } from '../db/schema.ts';
import { loadTaxRules as loadStoresTaxRules } from '../catalog/tax-rules.ts';
import { applicableRates, type TaxContext, type TaxRate, type TaxRule } from '@verdant/domain';

/**
 * The customer tax class of a guest (and, until accounts land, of everyone): the demo rules list
 * class 3. Rules are matched with grouped tax on, so a future tax-exempt class (a CA medical
 * patient with an MMIC pays no sales tax) only needs rules that leave it out.
 */
export const GUEST_CUSTOMER_TAX_CLASS = 3;

/** A store's rules with their rates, in priority order (the catalogue's loader, for one store). */
export async function loadTaxRules(db: Kysely<Database>, storeId: number): Promise<TaxRule[]> {
  return (await loadStoresTaxRules(db, [storeId])).get(storeId) ?? [];
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
