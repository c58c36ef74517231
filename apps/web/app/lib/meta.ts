import type { MetaDescriptor } from 'react-router';
import type { RootData } from './root-data.ts';

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
  if (options.noindex) tags.push({ name: 'robots', content: 'noindex' });
  return tags;
}
