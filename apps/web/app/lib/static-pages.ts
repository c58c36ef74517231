/**
 * The static content pages of spec §2. Each is served by one route module (routes/static-page.tsx)
 * whose content comes from the store's CMS page with the same identifier; the title below is the
 * fallback when the store has no such CMS page yet.
 */
export const STATIC_PAGES = {
  legal: 'Legal notice',
  privacy: 'Privacy policy',
  terms: 'Terms and conditions',
  sale: 'Sale',
  'order-tracking': 'Order tracking',
  'about-us': 'About us',
  'customer-service': 'Customer service',
  'store-locator': 'Store locator',
  'size-guide': 'Size guide',
  'gift-card': 'Gift cards',
  delivery: 'Delivery',
  returns: 'Returns',
  'order-from-catalog': 'Order from catalog',
} as const;

export type StaticPageIdentifier = keyof typeof STATIC_PAGES;

export const STATIC_PAGE_IDENTIFIERS = Object.keys(STATIC_PAGES) as StaticPageIdentifier[];

export function isStaticPageIdentifier(value: string): value is StaticPageIdentifier {
  return Object.hasOwn(STATIC_PAGES, value);
}

/** The static page a request is for: the last segment of its path (`/eastside/terms` → `terms`). */
export function staticPageFromPath(pathname: string): StaticPageIdentifier | null {
  const last = pathname.split('/').filter(Boolean).at(-1) ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(last).toLowerCase();
  } catch {
    return null;
  }
  return isStaticPageIdentifier(decoded) ? decoded : null;
}
