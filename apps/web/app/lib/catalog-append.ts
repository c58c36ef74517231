/**
 * "Load more" appends a page in the browser and then records the new page count in the URL
 * (`?page=3`, history replace) so that Back restores as many products as were loaded (spec §2).
 * That URL change must not re-run the loader (the products are already on screen): the list marks
 * the URL it is about to set, and the route's shouldRevalidate skips exactly that one.
 */
let appendedUrl: string | null = null;

export function markAppendedUrl(url: string): void {
  appendedUrl = url;
}

/** True (once) when `url` is the URL a "Load more" just recorded. */
export function consumeAppendedUrl(url: URL): boolean {
  if (appendedUrl == null || `${url.pathname}${url.search}` !== appendedUrl) return false;
  appendedUrl = null;
  return true;
}
