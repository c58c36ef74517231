import { isStaticPageIdentifier, type StaticPageIdentifier } from '@verdant/domain';

export { STATIC_PAGES, STATIC_PAGE_IDENTIFIERS, isStaticPageIdentifier, type StaticPageIdentifier } from '@verdant/domain';

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
