import type { Route } from './+types/not-found';
import { resolveUnmatchedPath } from '../lib/url-mapping.ts';

/**
 * The catch-all (spec §2, page-not-found): the path is first resolved through the URL mapping
 * (a product, category or CMS page → redirect there); otherwise HTTP 404, and the layout's error
 * boundary renders the "Page not found" page inside the store's chrome.
 */
export async function loader({ url, context }: Route.LoaderArgs): Promise<never> {
  return resolveUnmatchedPath(url, context);
}

export default function PageNotFound() {
  return null;
}
