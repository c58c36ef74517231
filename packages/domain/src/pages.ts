/**
 * The static content pages of spec §2, by identifier (the route path and the CMS page identifier),
 * with the title a page shows when its store has no CMS page of that identifier yet.
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
