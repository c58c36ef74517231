/**
 * Pages whose HTML depends only on the store, the URL and the shopper's cookies (age gate,
 * licence type) let the server keep them for a minute (apps/server/src/ssr/output-cache.ts):
 * a returning shopper's home page then costs a lookup instead of a render. Browsers and shared
 * proxies must still revalidate, since the HTML varies by cookie.
 */
export const OUTPUT_CACHE_SECONDS = 60;

export function outputCacheHeaders(): Record<string, string> {
  return { 'X-Output-Cache': String(OUTPUT_CACHE_SECONDS), 'Cache-Control': 'private, no-cache' };
}
