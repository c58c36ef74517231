import { categoryPath as domainCategoryPath, productPath as domainProductPath } from '@verdant/domain';

/**
 * Paths inside a store. The server resolves the store from the host or from a `/{storeCode}`
 * prefix and hands the app a `basePath` ('' or '/code', spec §2); every in-store link goes
 * through `withBasePath` so a shopper who came in through a prefix stays in that store.
 */

/** `withBasePath('/eastside', '/menu')` → `/eastside/menu`; the home page is the bare base. */
export function withBasePath(basePath: string, path: string): string {
  const base = basePath.replace(/\/+$/, '');
  const p = path.startsWith('/') ? path : `/${path}`;
  if (!base) return p;
  // Home, with or without a query or hash: `/eastside`, `/eastside?x=1`, `/eastside#deals`.
  if (p === '/' || p.startsWith('/?') || p.startsWith('/#')) return base + p.slice(1);
  return base + p;
}

/** The product page path of spec §2 (`/p/{parentSku}/{slug}` + optional `/{childSku}`), by the domain rule. */
export function productPath(parentSku: string, slug: string, childSku?: string | null): string {
  return domainProductPath({ sku: parentSku, slug }, childSku);
}

/** The category page path: `/menu` or `/menu/{slug}`. */
export function categoryPath(slug?: string | null): string {
  return domainCategoryPath({ url_path: slug ? `menu/${slug}` : 'menu' });
}

/**
 * True when a `/:storeCode/...` route may serve this request: the prefix must be the store the
 * server resolved (it sets basePath to '/{code}' when the path carried one). Unprefixed routes
 * (`storeCode` undefined) always match.
 */
export function isStorePrefixValid(storeCode: string | undefined, basePath: string): boolean {
  if (storeCode === undefined) return true;
  if (!basePath) return false;
  return `/${storeCode}`.toLowerCase() === basePath.toLowerCase();
}

const ORIGIN = 'http://verdant.invalid';

/**
 * A redirect target taken from a form or query: only same-origin relative paths survive
 * (`/menu?x=1#y`); anything else (absolute URLs, `//host`, `/\host`, control characters, empty)
 * becomes `fallback`.
 */
export function safeRedirectPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string') return fallback;
  const to = value.trim();
  if (!to.startsWith('/') || to.startsWith('//') || to.includes('\\')) return fallback;
  if (/[\u0000-\u001f\u007f]/.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== ORIGIN) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `blue-dream_3` → `Blue Dream 3`: a readable title from a URL slug. */
export function humanizeSlug(slug: string): string {
  let s = slug;
  try {
    s = decodeURIComponent(slug);
  } catch {
    /* keep the raw slug */
  }
  return s
    .replace(/[-_]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}
