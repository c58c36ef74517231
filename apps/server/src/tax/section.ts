/**
 * The `tax` settings section (issue 14, tax rules per store): the store's named tax lines
 * (packages/domain/src/tax). Carts, orders and the price list's per-unit taxes are taxed by these
 * lines; the catalogue search's `taxrule` entity and the offline snapshot carry a view of them
 * (catalog/tax-rules.ts). The old tax_rules / tax_rates tables are read by nothing any more; they
 * stay (dropping them needs a migration, and the seed's default below is still worked out from the
 * same figures, seed/tax.ts).
 *
 * Decisions where the issue is silent:
 *  - The default (`initial`) is exactly what the seed writes to tax_rules for the store today
 *    (seed/tax.ts: 15 % excise on cannabis goods, the city's sales tax on the price plus the excise,
 *    on cannabis and general goods), so every existing total stays the same to the cent.
 *  - The default has no medical-card exemption: the account's medical card field does not tell a
 *    CDPH-issued MMIC from a physician's recommendation, and exempting both would under-collect.
 *    A California store whose cards are MMICs ticks "Medical ID card" on its sales-tax line.
 */
import {
  californiaTaxLines,
  medicalCardProblem,
  taxSettingsSchema,
  type LicenseType,
  type MedicalCardHolder,
  type Store,
  type TaxCustomer,
  type TaxSettings,
} from '@verdant/domain';
import { taxFactsOf, type ProductTaxFacts, type TaxFactsMemo } from './facts.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { salesTaxPercent } from '../seed/tax.ts';
import { defineSection } from '../store-settings/registry.ts';
import { readSection, sectionOf } from '../store-settings/read.ts';

export function initialTaxSettings(store: Store): TaxSettings {
  return californiaTaxLines({
    city: store.dispensarySettings.place_info.address.city,
    salesPercent: salesTaxPercent(store),
    medicalCardExempt: false,
  });
}

export const TAX_SECTION = defineSection({
  name: 'tax',
  title: 'Tax lines',
  schema: taxSettingsSchema,
  initial: initialTaxSettings,
});

/**
 * The store's tax lines as saved now, read with the given connection and no cache (a catalogue
 * rebuild after a save, on any node, must see the saved lines).
 */
export async function taxLinesOf(db: Kysely<Database>, store: Store): Promise<TaxSettings['lines']> {
  return (await readSection(db, store, TAX_SECTION)).value.lines;
}

/**
 * Everything priceCart needs to tax by the store's lines: the lines, the shopper's exemptions
 * (medical by the cart's licence type; the medical ID card when the logged-in customer's card is
 * valid today, domain medicalCardProblem) and the products' tax facts. On the app's database (a
 * cart read) the lines come through the settings service's 1 s cache and the facts through the
 * store catalogue's memo (`factsMemo`); in an order's transaction both are read on it.
 */
export async function cartTaxLines(
  db: Kysely<Database>,
  store: Store,
  licenseType: LicenseType,
  customer: MedicalCardHolder | null,
  productIds: readonly number[],
  now: Date,
  factsMemo?: TaxFactsMemo,
): Promise<{ lines: TaxSettings['lines']; customer: TaxCustomer; facts: Map<number, ProductTaxFacts> }> {
  const medical = licenseType === 'medical';
  const medicalCard = medical && customer != null && medicalCardProblem(customer, 'medical', now) === null;
  const [settings, facts] = await Promise.all([sectionOf(db, store, TAX_SECTION), taxFactsOf(db, store.storeId, productIds, factsMemo)]);
  return { lines: settings.value.lines, customer: { medical, medicalCard }, facts };
}
