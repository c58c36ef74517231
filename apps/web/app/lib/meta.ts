import type { MetaDescriptor } from 'react-router';
import type { RootData } from './root-data.ts';
import { withBasePath } from './paths.ts';

interface MatchLike {
  id: string;
  loaderData?: unknown;
}

/** The root loader data as seen from a `meta` function. */
export function rootDataFromMatches(matches: ReadonlyArray<MatchLike | undefined>): RootData | undefined {
  return matches.find((m) => m?.id === 'root')?.loaderData as RootData | undefined;
}

/** `Terms — Verdant Downtown`; no title → the store's default SEO title. */
export function pageTitle(title: string | null | undefined, storeName: string | undefined): string {
  if (!title) return storeName ?? 'Verdant';
  return storeName ? `${title} — ${storeName}` : title;
}

export interface PageMetaOptions {
  /** The page's own title; omitted: the store's seo.defaultTitle (home). */
  title?: string | null;
  description?: string | null;
  noindex?: boolean;
  /** Absolute canonical URL of the page (`<link rel="canonical">` and og:url). */
  canonical?: string | null;
  /** Absolute image URL for link previews (og:image). */
  image?: string | null;
  /** Open Graph type: `website` by default, `product` on product pages. */
  type?: string;
}

/** Title, description and Open Graph tags for a page, each carrying the store's name. */
export function pageMeta(matches: ReadonlyArray<MatchLike | undefined>, options: PageMetaOptions = {}): MetaDescriptor[] {
  const root = rootDataFromMatches(matches);
  const store = root?.store;
  const title = options.title ? pageTitle(options.title, store?.name) : (store?.seo.defaultTitle ?? pageTitle(null, store?.name));
  const description = options.description || store?.seo.description || '';
  const tags: MetaDescriptor[] = [{ title }, { property: 'og:title', content: title }];
  if (description) {
    tags.push({ name: 'description', content: description }, { property: 'og:description', content: description });
  }
  if (store) tags.push({ property: 'og:site_name', content: store.name });
  tags.push({ property: 'og:type', content: options.type ?? 'website' });
  if (options.canonical) {
    tags.push({ tagName: 'link', rel: 'canonical', href: options.canonical }, { property: 'og:url', content: options.canonical });
  }
  if (options.image) tags.push({ property: 'og:image', content: options.image });
  // `follow`: a filtered or searched list is not worth indexing, but its product links are.
  if (options.noindex) tags.push({ name: 'robots', content: 'noindex, follow' });
  return tags;
}

/**
 * An absolute URL on the request's origin: `absoluteUrl('https://x.test/menu?a=1', '/eastside', '/p/a/b')`
 * → `https://x.test/eastside/p/a/b`. Canonical links and JSON-LD need absolute URLs; the origin
 * is the host the shopper used (the store is resolved from it), so each store canonicalises to itself.
 */
export function absoluteUrl(requestUrl: string, basePath: string, path: string): string {
  const origin = new URL(requestUrl).origin;
  return origin + withBasePath(basePath, path);
}
