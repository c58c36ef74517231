/**
 * Tax rules with their rates (spec §3 "Tax rule"), as the `taxrule` entity of the catalogue search
 * and the offline snapshot serve them to clients that compute tax themselves (the browser's
 * instant cart estimate, online and offline). Since issue 14 they are a view of the store's named
 * tax lines (tax/section.ts), not of the old `tax_rules` / `tax_rates` tables: a line is a rule with
 * one rate, in the store's order.
 *
 * Decisions where the issue is silent:
 *  - The old tables are no longer read by anything but stay (dropping them needs a migration, and
 *    the seed still writes them); the store's lines are the one source of every tax figure.
 *  - A spec tax rule only knows product tax classes, excise (on the price) and sales (on the price
 *    plus the excise). A line conditioned on a product kind or a THC band cannot be said that way
 *    and is left out of this view, and so is a medical-only line (the view is a guest's, customer
 *    tax class 3): the estimate may then be low until the server's totals arrive, which state every
 *    line. A line without tax classes applies to every tax class the store's products use.
 *  - With California's lines (the demo default) the view is exactly the old rules' rates.
 */
import type { Kysely } from 'kysely';
import { GUEST_CUSTOMER_TAX_CLASS, type Store, type TaxLine } from '@verdant/domain';
import type { TaxRuleDocument } from '@verdant/search';
import type { Database } from '../db/schema.ts';
import { taxLinesOf } from '../tax/section.ts';

/** Rules by store id (every given store present, maybe empty), in the store's line order. */
export async function loadTaxRules(db: Kysely<Database>, stores: readonly Store[]): Promise<Map<number, TaxRuleDocument[]>> {
  const out = new Map<number, TaxRuleDocument[]>(stores.map((s) => [s.storeId, []]));
  if (stores.length === 0) return out;
  const [lines, classes] = await Promise.all([
    Promise.all(stores.map((s) => taxLinesOf(db, s))),
    db
      .selectFrom('products')
      .select(['store_id', 'tax_class_id'])
      .distinct()
      .where(
        'store_id',
        'in',
        stores.map((s) => s.storeId),
      )
      .where('tax_class_id', '>', 0)
      .execute(),
  ]);
  stores.forEach((store, i) => {
    const used = [...new Set(classes.filter((c) => c.store_id === store.storeId).map((c) => c.tax_class_id))].sort((a, b) => a - b);
    out.set(store.storeId, taxRuleDocuments(store, lines[i], used));
  });
  return out;
}

/** The lines a guest's class-based rule can state (see the header), as rules with one rate each. */
export function taxRuleDocuments(store: Store, lines: readonly TaxLine[], usedTaxClassIds: readonly number[]): TaxRuleDocument[] {
  const address = store.dispensarySettings.place_info.address;
  const country = store.tax.defaultCountry || address.country_id;
  return lines.flatMap((line, position) => {
    const a = line.applies_to;
    if (a.kinds || a.thc_percent_above != null || a.thc_percent_at_most != null || line.exempt.includes('recreational')) return [];
    const id = position + 1;
    return [
      {
        id,
        code: line.title,
        priority: position,
        position,
        product_tax_class_ids: a.tax_class_ids ? [...a.tax_class_ids] : [...usedTaxClassIds],
        customer_tax_class_ids: [GUEST_CUSTOMER_TAX_CLASS],
        rates: [
          {
            id,
            code: line.code,
            kind: line.kind,
            rate: line.rate,
            tax_country_id: country,
            region_name: null,
            tax_region_id: 0,
            tax_postcode: null,
          },
        ],
      },
    ];
  });
}
