/**
 * What the store's tax lines look at for each product (issue 14): its tax kind (from canna_type and
 * its top category) and its THC percent (products.thc_percent, from the menu import). Two queries
 * for any number of products; a configurable child takes its parent's category and, when it has
 * none of its own, its parent's THC.
 *
 * A cart read (totals, shipping information) passes its store catalogue's memo (TaxFactsMemo): the
 * facts are catalogue data, so what was read stays good until the catalogue's next change other
 * than a stock patch (store-catalog.ts drops it), as the cart's prices do. Placing an order passes
 * none and reads them in its transaction.
 */
import { isCannabisType, taxKindOf, type TaxProductKind } from '@verdant/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface ProductTaxFacts {
  kind: TaxProductKind | null;
  thcPercent: number | null;
}

/**
 * Facts read for one store catalogue, by product id. A read that started before a change (clear)
 * is not kept: it may have seen the rows before the change.
 */
export class TaxFactsMemo {
  private readonly facts = new Map<number, ProductTaxFacts>();
  private generation = 0;

  /** The catalogue changed (anything but stock). */
  clear(): void {
    this.facts.clear();
    this.generation += 1;
  }

  get size(): number {
    return this.facts.size;
  }

  async read(
    productIds: readonly number[],
    load: (ids: readonly number[]) => Promise<Map<number, ProductTaxFacts>>,
  ): Promise<Map<number, ProductTaxFacts>> {
    const out = new Map<number, ProductTaxFacts>();
    const missing: number[] = [];
    for (const id of productIds) {
      const known = this.facts.get(id);
      if (known) out.set(id, known);
      else missing.push(id);
    }
    if (missing.length === 0) return out;
    const generation = this.generation;
    const loaded = await load(missing);
    for (const [id, facts] of loaded) {
      out.set(id, facts);
      if (this.generation === generation) this.facts.set(id, facts);
    }
    return out;
  }
}

export async function taxFactsOf(
  db: Kysely<Database>,
  storeId: number,
  productIds: readonly number[],
  memo?: TaxFactsMemo,
): Promise<Map<number, ProductTaxFacts>> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return new Map();
  return memo ? memo.read(ids, (missing) => readTaxFacts(db, storeId, missing)) : readTaxFacts(db, storeId, ids);
}

async function readTaxFacts(db: Kysely<Database>, storeId: number, ids: readonly number[]): Promise<Map<number, ProductTaxFacts>> {
  const out = new Map<number, ProductTaxFacts>();
  const products = await db
    .selectFrom('products')
    .select(['id', 'parent_id', 'canna_type', 'thc_percent'])
    .where('id', 'in', ids)
    .execute();
  const parentIds = products.flatMap((p) => (p.parent_id != null && !ids.includes(p.parent_id) ? [p.parent_id] : []));
  const parents = parentIds.length
    ? await db.selectFrom('products').select(['id', 'parent_id', 'canna_type', 'thc_percent']).where('id', 'in', parentIds).execute()
    : [];
  const byId = new Map([...products, ...parents].map((p) => [p.id, p]));
  const owners = [...byId.keys()];
  // Top category: the second id of the category path ("2/3/11": root 2, top 3), lowest position first.
  const links = await db
    .selectFrom('product_categories as pc')
    .innerJoin('categories as c', (j) => j.onRef('c.id', '=', 'pc.category_id').onRef('c.store_id', '=', 'pc.store_id'))
    .select(['pc.product_id', 'c.path'])
    .where('pc.store_id', '=', storeId)
    .where('pc.product_id', 'in', owners)
    .orderBy('pc.product_id')
    .orderBy('pc.position')
    .orderBy('c.id')
    .execute();
  const topIds = new Map<number, number>();
  for (const l of links) {
    const top = Number(l.path.split('/')[1]);
    if (!topIds.has(l.product_id) && Number.isInteger(top)) topIds.set(l.product_id, top);
  }
  const tops = topIds.size
    ? await db
        .selectFrom('categories')
        .select(['id', 'url_key'])
        .where('store_id', '=', storeId)
        .where('id', 'in', [...new Set(topIds.values())])
        .execute()
    : [];
  const urlKey = new Map(tops.map((c) => [c.id, c.url_key]));
  for (const p of products) {
    const parent = p.parent_id != null ? byId.get(p.parent_id) : undefined;
    const top = topIds.get(p.id) ?? (parent ? topIds.get(parent.id) : undefined);
    out.set(p.id, {
      kind: taxKindOf(top != null ? urlKey.get(top) : null, isCannabisType(p.canna_type ?? parent?.canna_type)),
      thcPercent: p.thc_percent ?? parent?.thc_percent ?? null,
    });
  }
  return out;
}
