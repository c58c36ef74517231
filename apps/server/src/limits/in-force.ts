/**
 * Which purchase-limit model is in force at a store and why (issue 26), and which of its products
 * count by a derivation from their kind because the menu gives no explicit facts: for the console's
 * Purchase limits page (GET /api/console/stores/:storeId/limits/in-force).
 */
import {
  deriveLimitFacts,
  isSpecPerOrderModel,
  LIMIT_PRESETS,
  limitFactsFromMenu,
  limitKindOf,
  normaliseLimitModel,
  type LimitPresetId,
  type Store,
} from '@verdant/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { DerivedProduct, LimitsInForce } from '@verdant/domain/console-api';
import { sectionOf } from '../store-settings/read.ts';
import { LIMITS, statePresetOf } from './section.ts';

export const MENU_FACT_ATTRIBUTES = ['concentrate_grams', 'thc_mg', 'thc_mg_per_piece', 'pieces', 'net_weight'] as const;

export type { DerivedProduct, LimitsInForce } from '@verdant/domain/console-api';

const presetName = (id: LimitPresetId) => `the ${LIMIT_PRESETS[id].name} preset`;

export async function limitsInForce(db: Kysely<Database>, store: Store): Promise<LimitsInForce> {
  const { value, source, updatedAt } = await sectionOf(db, store, LIMITS);
  const model = normaliseLimitModel(value.model);
  const spec = isSpecPerOrderModel(model);
  const state = store.dispensarySettings.place_info.address.region_code.toUpperCase();
  const statePreset = statePresetOf(store);
  const kind: LimitsInForce['model'] = spec ? 'per_order' : value.preset ? 'preset' : 'own';
  const what = spec ? 'The spec’s per-order limit' : value.preset ? capital(presetName(value.preset)) : 'The store’s own model';
  let reason: string;
  if (source === 'saved') reason = `${what}, saved in the console${updatedAt ? ` (${updatedAt.slice(0, 10)})` : ''}.`;
  else if (source === 'stores-file') reason = `${what}, set for this store in the stores file.`;
  else if (statePreset)
    reason = `${what}: the store is in ${LIMIT_PRESETS[statePreset].name} (${state}) and the stores file gives it no limits of its own.`;
  else reason = `${what}: no preset for the store’s state (${state}), and the stores file gives it no limits of its own.`;
  return {
    model: kind,
    preset: value.preset,
    state,
    state_preset: statePreset,
    source,
    reason,
    counting: spec ? 'spec' : 'menu',
    derived_products: spec ? [] : await derivedProducts(db, store.storeId),
  };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The store's sellable products (not configurable parents, bundles or kits) whose limit facts rely on a derivation. */
export async function derivedProducts(db: Kysely<Database>, storeId: number): Promise<DerivedProduct[]> {
  const products = await db
    .selectFrom('products')
    .select(['id', 'sku', 'name', 'size', 'unit_weight_grams_equivelent', 'canna_type'])
    .where('store_id', '=', storeId)
    .where('type_id', '=', 'simple')
    .orderBy('sku')
    .execute();
  if (products.length === 0) return [];
  const attrs = new Map<number, Record<string, string>>();
  const rows = await db
    .selectFrom('product_attribute_values')
    .innerJoin('products', 'products.id', 'product_attribute_values.product_id')
    .select(['product_attribute_values.product_id', 'product_attribute_values.attribute_code', 'product_attribute_values.value'])
    .where('products.store_id', '=', storeId)
    .where('product_attribute_values.attribute_code', 'in', [...MENU_FACT_ATTRIBUTES])
    .execute();
  for (const r of rows) {
    const a = attrs.get(r.product_id) ?? {};
    a[r.attribute_code] = r.value;
    attrs.set(r.product_id, a);
  }
  const out: DerivedProduct[] = [];
  for (const p of products) {
    const { derived } = deriveLimitFacts(limitFactsFromMenu(p, attrs.get(p.id) ?? {}));
    if (derived.length) out.push({ id: p.id, sku: p.sku, name: p.name, kind: limitKindOf(p.canna_type), derived });
  }
  return out;
}
