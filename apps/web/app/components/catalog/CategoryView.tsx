import { Form, Link, useLocation } from 'react-router';
import { MESSAGES, type LicenseType, type ProductCard } from '@verdant/domain';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { CategoryProducts } from './CategoryProducts.tsx';
import { FilterPanel } from './FilterPanel.tsx';
import { FILTER_PANEL_ID, FiltersDrawer } from './FiltersDrawer.tsx';
import { SortSelect } from './SortSelect.tsx';
import { StoreLink } from '../store/StoreLink.tsx';
import { SEARCH_ANCHOR } from '../search/search-text.ts';
import { catalogSearch, clearFiltersSearch, filterToggleSearch, hasActiveFilters, type CatalogQuery } from '../../lib/catalog-query.ts';
import type { BreadcrumbItem } from '../../lib/category-tree.ts';
import { activeFilterChips, type FilterGroup } from '../../lib/filter-view.ts';
import { useRootData } from '../../lib/root-data.ts';

export interface CategoryViewData {
  category: { id: number; name: string; isRoot: boolean };
  crumbs: BreadcrumbItem[];
  subcategories: { name: string; path: string }[];
  query: CatalogQuery;
  /** The search text is 1–2 characters: no search ran (spec §5 minimum). */
  tooShort: boolean;
  licenseType: LicenseType;
  items: ProductCard[];
  total: number;
  suggestions: string[];
  groups: FilterGroup[];
}

export function resultCountText(total: number, text: string): string {
  const products = total === 1 ? '1 product' : `${total} products`;
  return text ? `${products} found for “${text}”` : products;
}

const pill =
  'inline-flex min-h-11 items-center rounded-full border border-stone-300 bg-white px-4 text-sm font-medium text-stone-800 hover:bg-stone-100';

/** A category page or the search results page: breadcrumbs, title, subcategories, filters, sort and the products. */
export function CategoryView({ data }: { data: CategoryViewData }) {
  const { store } = useRootData();
  const location = useLocation();
  const { category, query, total, tooShort } = data;
  const title = query.text ? `Search results for “${query.text}”` : category.name;
  const countText = tooShort ? MESSAGES.searchTermTooShort : resultCountText(total, query.text);
  const chips = activeFilterChips(data.groups);
  const suggestion = data.suggestions.find((s) => s.toLowerCase() !== query.text.toLowerCase());

  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8">
      <Breadcrumbs items={data.crumbs} />
      <h1 className="mt-3 font-display text-3xl font-bold tracking-tight text-stone-900 sm:text-4xl">{title}</h1>

      {category.isRoot ? (
        <Form method="get" action={location.pathname} role="search" id={SEARCH_ANCHOR} className="mt-4 flex max-w-xl scroll-mt-4 gap-2">
          <label htmlFor="menu-search-input" className="sr-only">
            Search the menu
          </label>
          <input
            id="menu-search-input"
            type="search"
            name="q"
            defaultValue={query.text}
            key={query.text}
            placeholder="Strain, brand or product"
            className="min-h-11 flex-1 rounded-full border border-stone-400 bg-white px-5"
          />
          <button type="submit" className="inline-flex min-h-11 items-center rounded-full bg-brand px-5 font-semibold text-on-brand hover:opacity-90">
            Search
          </button>
        </Form>
      ) : null}

      {suggestion ? (
        <p className="mt-3 text-stone-700">
          Did you mean{' '}
          <Link to={`${location.pathname}${catalogSearch({ text: suggestion })}`} className="font-semibold text-brand-ink underline underline-offset-4">
            {suggestion}
          </Link>
          ?
        </p>
      ) : null}

      {data.subcategories.length > 0 && !query.text ? (
        <nav aria-label="Subcategories" className="mt-5">
          <ul className="flex flex-wrap gap-2">
            {data.subcategories.map((c) => (
              <li key={c.path}>
                <StoreLink to={c.path} prefetch="intent" className={pill}>
                  {c.name}
                </StoreLink>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}

      <div className="mt-6 flex flex-wrap items-center gap-3 border-b border-stone-200 pb-4">
        <FiltersDrawer groups={data.groups} query={query} resultText={countText} total={total} />
        <p role="status" aria-live="polite" className="mr-auto text-sm font-medium text-stone-700">
          {countText}
        </p>
        <SortSelect query={query} />
      </div>
      {/* Issue 30: shoppers used to other menus learn of the taxes before the cart (from the store's tax lines). */}
      {store.taxNote ? <p className="mt-2 text-sm text-stone-600">{store.taxNote}</p> : null}

      <div className="mt-6 lg:grid lg:grid-cols-[15rem_1fr] lg:gap-8">
        <aside id={FILTER_PANEL_ID} aria-label="Product filters" className="mb-8 hidden scroll-mt-4 target:block lg:mb-0 lg:block">
          {data.groups.length > 0 ? <FilterPanel idPrefix="filters" groups={data.groups} query={query} heading="Filters" /> : null}
        </aside>
        <div className="min-w-0">
          {chips.length > 0 ? (
            <ul aria-label="Active filters" className="mb-4 flex flex-wrap gap-2">
              {chips.map((chip) => (
                <li key={`${chip.key}=${chip.value}`}>
                  <Link
                    to={`${location.pathname}${filterToggleSearch(query, chip.key, chip.value)}`}
                    preventScrollReset
                    className="inline-flex min-h-9 items-center gap-1 rounded-full bg-brand/10 px-3 text-sm font-medium text-brand-ink hover:bg-brand/20"
                  >
                    <span className="sr-only">Remove filter </span>
                    {chip.label}
                    <span aria-hidden="true"> ×</span>
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
          {data.items.length > 0 ? (
            <CategoryProducts
              key={`${location.pathname}${catalogSearch({ ...query, page: 1 })}`}
              items={data.items}
              total={total}
              query={query}
              categoryId={category.id}
              licenseType={data.licenseType}
              money={store.money}
            />
          ) : (
            <EmptyResults data={data} />
          )}
        </div>
      </div>
    </div>
  );
}

function EmptyResults({ data }: { data: CategoryViewData }) {
  const location = useLocation();
  const { query, tooShort } = data;
  let text = 'No products here right now. New products arrive every week, so check back soon.';
  if (tooShort) text = `${MESSAGES.searchTermTooShort} Type a longer search term to see products.`;
  else if (hasActiveFilters(query.filters)) text = 'No products match these filters. Try removing one or two.';
  else if (query.text) text = `We couldn’t find products matching “${query.text}”. Check the spelling or try a shorter term.`;
  return (
    <div className="rounded-2xl border border-dashed border-stone-300 bg-white px-5 py-8 text-stone-700">
      <p>{text}</p>
      {hasActiveFilters(query.filters) ? (
        <p className="mt-4">
          <Link to={`${location.pathname}${clearFiltersSearch(query)}`} className="font-semibold text-brand-ink underline underline-offset-4">
            Clear all filters
          </Link>
        </p>
      ) : (
        <p className="mt-4">
          <StoreLink to="/menu" className="font-semibold text-brand-ink underline underline-offset-4">
            Browse the whole menu
          </StoreLink>
        </p>
      )}
    </div>
  );
}
