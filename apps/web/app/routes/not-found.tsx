import { notFound } from '../lib/guards.ts';

/**
 * The catch-all (spec §2, page-not-found): answers HTTP 404; the layout's error boundary renders
 * the "Page not found" page inside the store's chrome.
 */
export function loader(): never {
  notFound();
}

export default function PageNotFound() {
  return null;
}
