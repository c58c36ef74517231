import type { CmsPage } from '@verdant/web/context';
import type { StoreCatalog } from '../catalog/store-catalog.ts';

/**
 * An active CMS page of the store by identifier (spec §2 static pages and /i/{slug}), or null when
 * the store has no such page or it is switched off. Identifiers match exactly. Read from the
 * store's in-memory catalogue, so a page view costs no query.
 */
export function cmsPage(catalog: Pick<StoreCatalog, 'cmsPage'>, identifier: string): CmsPage | null {
  if (!identifier) return null;
  const page = catalog.cmsPage(identifier);
  if (!page || !page.is_active) return null;
  const { id, title, content, meta_title, meta_description } = page;
  return { id, identifier: page.identifier, title, content, meta_title, meta_description };
}
