/**
 * A store's tax rules from the database, in the domain's shape (cart/tax.ts decides which rates
 * apply and rounds), and the tax context of a shopper in that store.
 */
import type { Kysely } from 'kysely';
import type { Store } from '@verdant/domain';
import type { Database } from '../db/schema.ts';
import { loadTaxRules as loadStoresTaxRules } from '../catalog/tax-rules.ts';
import { GUEST_CUSTOMER_TAX_CLASS, storeTaxContext as domainStoreTaxContext, type TaxContext, type TaxRule } from '@verdant/domain';

export { GUEST_CUSTOMER_TAX_CLASS, rateLookup } from '@verdant/domain';

/** A shopper's tax context in a store (the domain rule, from the store's settings). */
export function storeTaxContext(store: Store, customerTaxClassId = GUEST_CUSTOMER_TAX_CLASS): TaxContext {
  return domainStoreTaxContext(store.dispensarySettings.place_info.address, store.tax, customerTaxClassId);
}

/** A store's rules with their rates, in priority order (the catalogue's loader, for one store). */
export async function loadTaxRules(db: Kysely<Database>, storeId: number): Promise<TaxRule[]> {
  return (await loadStoresTaxRules(db, [storeId])).get(storeId) ?? [];
}

