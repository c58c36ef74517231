/**
 * CMS pages and blocks as the search index and the CMS API serve them (spec §3 "CMS page / block",
 * §7 CMS): every column, flags as booleans. Inactive ones are indexed too (readers filter on
 * is_active), so switching one on is a reindex, not a schema change. Two queries for any stores.
 */
import type { Kysely } from 'kysely';
import type { CmsBlockDocument, CmsPageDocument } from '@verdant/search';
import type { Database } from '../db/schema.ts';

export type { CmsBlockDocument, CmsPageDocument } from '@verdant/search';

export interface StoreCmsDocuments {
  pages: CmsPageDocument[];
  blocks: CmsBlockDocument[];
}

/** Documents by store id (every asked store present, maybe empty). */
export async function loadCmsDocuments(
  db: Kysely<Database>,
  storeIds: readonly number[],
): Promise<Map<number, StoreCmsDocuments>> {
  const [pages, blocks] = await Promise.all([
    db
      .selectFrom('cms_pages')
      .selectAll()
      .where('store_id', 'in', [...storeIds])
      .orderBy('id')
      .execute(),
    db
      .selectFrom('cms_blocks')
      .selectAll()
      .where('store_id', 'in', [...storeIds])
      .orderBy('id')
      .execute(),
  ]);
  const out = new Map<number, StoreCmsDocuments>(storeIds.map((id) => [id, { pages: [], blocks: [] }]));
  for (const { store_id, is_active, ...page } of pages)
    out.get(store_id)?.pages.push({ ...page, is_active: is_active === 1 });
  for (const { store_id, is_active, ...block } of blocks)
    out.get(store_id)?.blocks.push({ ...block, is_active: is_active === 1 });
  return out;
}
