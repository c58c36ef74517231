/**
 * Tax rules with their rates (spec §3 "Tax rule"), as the `taxrule` entity of the catalogue search
 * serves them to clients that compute tax offline. Two queries for any stores.
 */
import type { Kysely } from 'kysely';
import type { TaxRuleDocument } from '@verdant/search';
import type { Database } from '../db/schema.ts';

/** Rules by store id (every asked store present, maybe empty), in priority order. */
export async function loadTaxRules(
  db: Kysely<Database>,
  storeIds: readonly number[],
): Promise<Map<number, TaxRuleDocument[]>> {
  const [rules, rates] = await Promise.all([
    db
      .selectFrom('tax_rules')
      .selectAll()
      .where('store_id', 'in', [...storeIds])
      .orderBy('priority')
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('tax_rates')
      .selectAll()
      .where('store_id', 'in', [...storeIds])
      .orderBy('id')
      .execute(),
  ]);
  const out = new Map<number, TaxRuleDocument[]>(storeIds.map((id) => [id, []]));
  for (const r of rules) {
    out.get(r.store_id)?.push({
      id: r.id,
      code: r.code,
      priority: r.priority,
      position: r.position,
      product_tax_class_ids: JSON.parse(r.product_tax_class_ids) as number[],
      customer_tax_class_ids: JSON.parse(r.customer_tax_class_ids) as number[],
      rates: rates
        .filter((t) => t.tax_rule_id === r.id)
        .map(({ id, code, kind, rate, tax_country_id, region_name, tax_region_id, tax_postcode }) => ({
          id,
          code,
          kind,
          rate,
          tax_country_id,
          region_name,
          tax_region_id,
          tax_postcode,
        })),
    });
  }
  return out;
}
