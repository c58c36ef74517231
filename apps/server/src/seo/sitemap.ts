/**
 * The sitemap of one store (sitemaps.org protocol): home, the menu categories, every product a
 * shopper can open (enabled, visible individually, not in a compliance-hidden category), the
 * static pages of spec §2, the contact page and the store's other active CMS pages — all as
 * absolute URLs on the origin the request came in on, so each store's host lists its own pages.
 */
import { STATIC_PAGE_IDENTIFIERS, categoryPath, productPath, type Store } from '@verdant/domain';
import type { StoreCatalog } from '../catalog/store-catalog.ts';
import {
  hiddenCategoryIds,
  inHiddenCategory,
  isCatalogVisible,
  isEnabled,
  visibleCategoryIds,
} from '../catalog/visibility.ts';

export interface SitemapEntry {
  /** Path inside the store (`/menu/flower`), without the store prefix. */
  path: string;
  lastmod?: string;
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** Pages served by their own route rather than /i/{identifier}. */
const ROUTED_PAGES = new Set<string>([...STATIC_PAGE_IDENTIFIERS, 'contact']);

export function sitemapEntries(catalog: StoreCatalog, store: Store): SitemapEntry[] {
  const categories = [...catalog.allCategories()];
  const visible = visibleCategoryIds(store, categories);
  const hidden = hiddenCategoryIds(store, categories);
  const entries: SitemapEntry[] = [{ path: '/' }];
  for (const c of categories.sort((a, b) => a.level - b.level || a.position - b.position || a.id - b.id)) {
    if (visible.has(c.id)) entries.push({ path: categoryPath(c) });
  }
  const products = [...catalog.allProducts()]
    .filter((p) => isEnabled(p) && isCatalogVisible(p) && !inHiddenCategory(p, hidden))
    .sort((a, b) => a.id - b.id);
  for (const p of products) entries.push({ path: productPath(p), lastmod: p.updated_at });
  for (const identifier of ROUTED_PAGES) {
    entries.push({ path: `/${identifier}`, lastmod: catalog.cmsPage(identifier)?.updated_at });
  }
  const pages = [...catalog.allCmsPages()].filter((p) => p.is_active && !ROUTED_PAGES.has(p.identifier));
  for (const page of pages.sort((a, b) => a.identifier.localeCompare(b.identifier))) {
    entries.push({ path: `/i/${encodeURIComponent(page.identifier)}`, lastmod: page.updated_at });
  }
  return entries;
}

/** `origin` like `https://downtown.example.com`, `basePath` '' or '/{storeCode}'. */
export function sitemapXml(entries: readonly SitemapEntry[], origin: string, basePath: string): string {
  const lines = entries.map((e) => {
    const loc = `${origin}${basePath}${e.path === '/' && basePath ? '' : e.path}`;
    const lastmod = e.lastmod ? `<lastmod>${escapeXml(e.lastmod.slice(0, 10))}</lastmod>` : '';
    return `  <url><loc>${escapeXml(loc)}</loc>${lastmod}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${lines.join('\n')}\n</urlset>\n`;
}

/** robots.txt: crawl everything but checkout, account pages and the API; point to the sitemap. */
export function robotsTxt(origin: string, basePath: string): string {
  const prefixes = basePath ? ['', basePath] : [''];
  const disallow = prefixes.flatMap((p) => [`${p}/checkout`, `${p}/my-account`]);
  return [
    'User-agent: *',
    'Allow: /',
    ...disallow.map((path) => `Disallow: ${path}`),
    'Disallow: /api/',
    '',
    `Sitemap: ${origin}${basePath}/sitemap.xml`,
    '',
  ].join('\n');
}
