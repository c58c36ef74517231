import { data, redirect, type ShouldRevalidateFunctionArgs } from 'react-router';
import { categoryPath, PAGE_SIZE, sortNeedsReviews, type CatalogCategory } from '@verdant/domain';
import type { Route } from './+types/category';
import { offlineFallback } from '../lib/offline-catalog.ts';
import { CategoryView, type CategoryViewData } from '../components/catalog/CategoryView.tsx';
import { MenuComingSoon } from '../components/catalog/MenuComingSoon.tsx';
import { menuIsEmpty } from '../lib/menu-empty.ts';
import { JsonLd } from '../components/seo/JsonLd.tsx';
import { consumeAppendedUrl } from '../lib/catalog-append.ts';
import { canonicalSearch, catalogSearch, isSearchTextTooShort, parseCatalogQuery, shouldNoindex } from '../lib/catalog-query.ts';
import { categoryCrumbs, categoryUrlPath, findCategoryByKey, indexCategories, isRootCategory, subcategories } from '../lib/category-tree.ts';
import { filterGroups } from '../lib/filter-view.ts';
import { breadcrumbListJsonLd } from '../lib/json-ld.ts';
import { absoluteUrl, pageMeta, rootDataFromMatches } from '../lib/meta.ts';
import { outputCacheHeaders } from '../lib/output-cache.ts';
import { withBasePath } from '../lib/paths.ts';
import { readShopper } from '../lib/shopper.ts';
import { toPublicStore } from '../lib/store-view.ts';
import { resolveUnmatchedPath, stripBasePath } from '../lib/url-mapping.ts';
import { cardsWithDeals } from '../lib/deal-view.ts';

/**
 * Category pages (spec §2): `/menu` (the root), `/menu/{slug}`, nested `/menu/{a}/{b}` (splat
 * route) and the link form `/c/{slug}`. The category is the one whose url_path is the route path
 * without its leading slash; a url-key, slug or id (spec §2's other parameters) redirects to that
 * path (`/c/…` renders in place). Filters, sort, search text and page count come from the query.
 * `/menu?q=…` is also the full search results page.
 */
async function load({ request, url, params, context }: Route.LoaderArgs) {
  const { store, services, basePath } = context;
  const storePathname = stripBasePath(url.pathname, basePath);
  const linkForm = /^\/c\//i.test(storePathname);
  const segments = linkForm ? '' : ((params as { '*'?: string })['*'] ?? params.slug ?? '');
  const tree = await services.categoryTree(store);
  const byId = indexCategories(tree);

  let category: CatalogCategory | null | undefined = linkForm ? undefined : await services.categoryByPath(store, categoryUrlPath(segments));
  if (!category) {
    const key = linkForm ? (params.slug ?? '') : (segments.split('/').filter(Boolean).at(-1) ?? '');
    category = findCategoryByKey(byId, key) ?? (linkForm ? await services.categoryByPath(store, categoryUrlPath(key)) : null);
    if (!category) return resolveUnmatchedPath(url, context);
    if (!linkForm) throw redirect(`${withBasePath(basePath, categoryPath(category))}${url.search}`, 301);
  }

  const parsed = parseCatalogQuery(url.searchParams);
  if (parsed.invalid) throw redirect(`${url.pathname}${catalogSearch(parsed)}`, 302);
  // Issue 30: a store that shows no reviews has no Top rated sort or rating filter; a URL with them
  // (shared, bookmarked, from before the switch) goes to the same list without them.
  if ((sortNeedsReviews(parsed.sort) || parsed.filters.rating) && (await context.storeOptions?.(store.storeId))?.reviews === false) {
    const { rating: _rating, ...filters } = parsed.filters;
    throw redirect(`${url.pathname}${catalogSearch({ ...parsed, filters, sort: sortNeedsReviews(parsed.sort) ? undefined : parsed.sort })}`, 302);
  }
  const { invalid: _invalid, ...query } = parsed;
  const { licenseType } = readShopper(request.headers.get('Cookie'), store);
  const tooShort = isSearchTextTooShort(query.text);
  const list = tooShort
    ? { items: [], total: 0, start: 0, perPage: 0, facets: {}, attributeMetadata: [], suggestions: [] }
    : await services.searchProducts(store, {
        licenseType,
        text: query.text || undefined,
        categoryId: category.id,
        filters: query.filters,
        sort: query.sort,
        start: 0,
        size: query.page * PAGE_SIZE,
      });

  const path = categoryPath(category);
  const crumbs = categoryCrumbs(category, byId);
  const money = toPublicStore(store).money;
  const payload: CategoryViewData = {
    category: { id: category.id, name: category.name, isRoot: isRootCategory(category) },
    crumbs,
    subcategories: subcategories(category, byId).map((c) => ({ name: c.name, path: categoryPath(c) })),
    query,
    tooShort,
    licenseType,
    // Issue 28: the deals live now on these cards (judged per request, never kept in the list cache).
    items: await cardsWithDeals(services, store, licenseType, list.items),
    total: list.total,
    suggestions: list.suggestions,
    groups: tooShort ? [] : filterGroups(list.facets, query.filters, list.attributeMetadata, money, { total: list.total, licenseScoped: Boolean(licenseType) }),
  };
  const origin = (p: string) => absoluteUrl(url.href, basePath, p);
  const result = {
    ...payload,
    canonical: origin(`${path}${canonicalSearch(query)}`),
    // A store with no products yet (before its first import) says "Menu coming soon" on every
    // category and search page; those pages are not worth indexing until the menu is there.
    menuEmpty: menuIsEmpty(tree),
    noindex: shouldNoindex(query) || menuIsEmpty(tree),
    breadcrumbLd: breadcrumbListJsonLd(crumbs.map((c) => ({ name: c.name, url: origin(c.path ?? path) }))),
  };
  // Only query-less URLs may be kept by the output cache (the server never keeps the others).
  return data(result, { headers: url.search ? {} : outputCacheHeaders() });
}

export const loader = (args: Route.LoaderArgs) => load(args);

/** Offline (issue 6): the service worker's copy of the data, else this loader run on the catalogue snapshot. */
export const clientLoader = (args: Route.ClientLoaderArgs) => offlineFallback(args, load);

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** "Load more" records its page count in the URL without reloading what is already shown. */
export function shouldRevalidate({ nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (consumeAppendedUrl(nextUrl)) return false;
  return defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return pageMeta(matches);
  const store = rootDataFromMatches(matches)?.store;
  const { category, query, total } = loaderData;
  const title = query.text ? `Search results for “${query.text}”` : category.name;
  const where = store ? ` at ${store.name}` : '';
  const description = query.text
    ? `${total} products matching “${query.text}”${where}.`
    : `Shop ${category.isRoot ? 'the full menu' : category.name.toLowerCase()}${where}: ${total} products with prices, sizes, THC and CBD.`;
  return pageMeta(matches, { title, description, canonical: loaderData.canonical, noindex: loaderData.noindex });
};

export default function Category({ loaderData }: Route.ComponentProps) {
  if (loaderData.menuEmpty) return <MenuComingSoon heading="h1" />;
  return (
    <>
      <CategoryView data={loaderData} />
      <JsonLd data={loaderData.breadcrumbLd} />
    </>
  );
}
