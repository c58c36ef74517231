import { DEFAULT_SORT, isSortKey, SORT_OPTIONS } from '@verdant/domain';
import { catalogSearch, sortSearch, type CatalogQuery } from '../../lib/catalog-query.ts';
import { useCatalogNavigation } from '../../lib/use-catalog-navigation.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { useOptionalRootData } from '../../lib/root-data.ts';

export const SORT_LABEL = 'Sort by';

/**
 * Sort (spec §9: Latest by default, Price: Low to high, Price: High to low; issue 30: THC high/low,
 * Top rated when the store shows reviews); a GET form without JS.
 */
export function SortSelect({ query }: { query: CatalogQuery }) {
  const hydrated = useHydrated();
  const reviews = useOptionalRootData()?.store.reviews !== false;
  const options = SORT_OPTIONS.filter((o) => reviews || !('reviews' in o && o.reviews));
  const nav = useCatalogNavigation(query);
  const keep = new URLSearchParams(catalogSearch({ filters: query.filters, text: query.text }).slice(1));
  const value = nav.current.sort ?? DEFAULT_SORT;
  return (
    <form method="get" action={nav.pathname} className="flex items-center gap-2">
      {[...keep].map(([name, v]) => (
        <input key={`${name}=${v}`} type="hidden" name={name} value={v} />
      ))}
      <label htmlFor="catalog-sort" className="text-sm font-medium whitespace-nowrap text-stone-700">
        {SORT_LABEL}
      </label>
      <select
        id="catalog-sort"
        name="sort"
        value={value}
        onChange={(e) => {
          if (isSortKey(e.target.value)) nav.go(sortSearch(nav.current, e.target.value));
        }}
        className="min-h-11 rounded-full border border-stone-400 bg-white px-4 text-sm"
      >
        {options.map((o) => (
          <option key={o.key} value={o.key}>
            {o.label}
          </option>
        ))}
      </select>
      {hydrated ? null : (
        <button type="submit" className="inline-flex min-h-11 items-center rounded-full border border-stone-300 px-4 text-sm font-medium hover:bg-stone-100">
          Sort
        </button>
      )}
    </form>
  );
}
