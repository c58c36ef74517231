/**
 * What a deployment with its own stores file starts with on an empty database (issue 13): no
 * products at all (the demo catalogue is only for the demo stores file), but the frame a menu import
 * needs and the storefront shows around it — per store the menu category tree (a menu file names
 * its rows' categories: "Flower > Indica"), the store's tax lines, the static pages of spec §2 and
 * the category and page redirects; and the global attributes (filters). Product counts start at 0,
 * so navigation hides every category (product_count > 0) until the first import fills it; the
 * storefront says "Menu coming soon" meanwhile.
 *
 * Written once per store, only for a store that has no categories yet: restarts, and stores whose
 * taxonomy was written by an import or an earlier start, are left alone. Demo coupons and images
 * are not written (they belong to the demo catalogue).
 */
import type { Kysely } from 'kysely';
import type { StoresFile } from '@verdant/domain';
import { insertInChunks } from '../db/index.ts';
import type { Database, NewRow } from '../db/schema.ts';
import { attributeRows } from './attributes.ts';
import { categoryRows } from './categories.ts';
import { cmsRows, urlRewriteRows } from './content.ts';
import { taxRows } from './tax.ts';

/** Returns the ids of the stores it wrote a frame for (empty on every later start). */
export async function ensureStoreScaffold(db: Kysely<Database>, storesFile: StoresFile, now: Date = new Date()): Promise<number[]> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const ids = storesFile.stores.map((s) => s.storeId);
    const withCategories = new Set(
      (await trx.selectFrom('categories').select('store_id').distinct().where('store_id', 'in', ids).execute()).map((r) => r.store_id),
    );
    const bare = storesFile.stores.filter((s) => !withCategories.has(s.storeId));
    if (bare.length === 0) return [];
    // An attribute already there (an earlier deployment's) is kept as it is.
    for (const row of attributeRows())
      await trx
        .insertInto('attributes')
        .values(row)
        .onConflict((oc) => oc.column('attribute_id').doNothing())
        .execute();
    for (const store of bare) {
      const tax = taxRows(store);
      const cms = cmsRows(store, at);
      // The redirects of categories and pages only: no product exists yet.
      const rewrites = urlRewriteRows(store.storeId, cms.pages, []).filter((r) => r.target_type !== 'product');
      const tables: [keyof Database, NewRow<keyof Database>[]][] = [
        ['categories', categoryRows(store.storeId, at, new Map())],
        ['tax_rules', tax.rules],
        ['tax_rates', tax.rates],
        ['cms_pages', cms.pages],
        ['cms_blocks', cms.blocks],
        ['url_rewrites', rewrites],
      ];
      for (const [table, rows] of tables) await insertInChunks(trx, table, rows as never);
    }
    return bare.map((s) => s.storeId);
  });
}
