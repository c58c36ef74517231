import type { Kysely } from 'kysely';
import type { Store } from '@verdant/domain';
import type { CmsPage } from '@verdant/web/context';
import type { Database } from '../db/schema.ts';

/**
 * An active CMS page of the store by identifier (spec §2 static pages and /i/{slug}), or null when
 * the store has no such page or it is switched off. Identifiers match exactly.
 */
export async function cmsPage(db: Kysely<Database>, store: Store, identifier: string): Promise<CmsPage | null> {
  if (!identifier) return null;
  const row = await db
    .selectFrom('cms_pages')
    .select(['id', 'identifier', 'title', 'content', 'meta_title', 'meta_description'])
    .where('store_id', '=', store.storeId)
    .where('identifier', '=', identifier)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  return row ?? null;
}
