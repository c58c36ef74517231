import { replace, type AppLoadContext } from 'react-router';
import { notFound } from './guards.ts';
import { withBasePath } from './paths.ts';

/** `/eastside/shop/x` with basePath `/eastside` → `/shop/x`; other paths unchanged. */
export function stripBasePath(pathname: string, basePath: string): string {
  const base = basePath.replace(/\/+$/, '');
  if (!base) return pathname;
  const lower = pathname.toLowerCase();
  if (lower === base.toLowerCase()) return '/';
  if (lower.startsWith(`${base.toLowerCase()}/`)) return pathname.slice(base.length);
  return pathname;
}

/**
 * A path that no route could serve (spec §2 route behaviour): resolve it through the URL mapping
 * to a product, category or CMS page, and send the shopper there; otherwise answer 404.
 *
 * - A mapping marked as a redirect (a legacy rewrite) answers 301; any other resolution (a
 *   url_path served under its route path) answers 302: the alias is not the page's address, and a
 *   temporary redirect keeps search engines on the canonical route path without making the alias
 *   permanent. Client-side both replace the history entry (`replace`: X-Remix-Replace), so Back
 *   never returns to the unresolved path.
 * - The query string travels along (a mapped category keeps its filters).
 * - A failing mapping is logged and the answer is the 404 page (spec §8: failure to resolve is
 *   logged and navigation continues).
 */
export async function resolveUnmatchedPath(url: URL, context: AppLoadContext): Promise<never> {
  const path = stripBasePath(url.pathname, context.basePath);
  let result: Awaited<ReturnType<AppLoadContext['services']['mapUrl']>> = { type: 'page-not-found' };
  try {
    result = await context.services.mapUrl(context.store, path);
  } catch (error) {
    console.warn(`URL mapping failed for ${path}:`, error instanceof Error ? error.message : error);
  }
  if (result.type !== 'page-not-found') {
    const target = withBasePath(context.basePath, result.path);
    if (target.toLowerCase() !== url.pathname.toLowerCase()) {
      throw replace(`${target}${url.search}`, { status: result.redirect ? 301 : 302 });
    }
  }
  notFound();
}
