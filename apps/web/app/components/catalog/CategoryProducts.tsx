import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { hasMorePages, nextPageStart, PAGE_SIZE, type LicenseType, type ProductCard as ProductCardData } from '@verdant/domain';
import { ProductCard } from '../product/ProductCard.tsx';
import { fetchProducts } from '../../api/catalog.ts';
import { announce } from '../../lib/announce.ts';
import { markAppendedUrl } from '../../lib/catalog-append.ts';
import { catalogSearch, MAX_PAGES, type CatalogQuery } from '../../lib/catalog-query.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { useRootData } from '../../lib/root-data.ts';

export const LOAD_MORE_LABEL = 'Load more products';

interface Props {
  items: ProductCardData[];
  total: number;
  query: CatalogQuery;
  categoryId: number;
  licenseType: LicenseType;
  money: { currencyCode: string; locale: string };
}

interface Appended {
  /** The server-rendered list these pages follow (a new list starts over). */
  base: ProductCardData[];
  items: ProductCardData[];
  /** `start` of the last page fetched. */
  lastStart: number;
}

/**
 * The product grid with "Load more" (spec §4 category product loading: hasMorePages is the stop
 * rule). Without JavaScript "Load more" is a `?page=N` link; with it, the next page is fetched
 * from the catalogue API and appended, and after the first click further pages load as the
 * shopper nears the end of the list (IntersectionObserver).
 */
export function CategoryProducts({ items: serverItems, total, query, categoryId, licenseType, money }: Props) {
  const hydrated = useHydrated();
  const { store } = useRootData();
  const location = useLocation();
  const navigate = useNavigate();
  const [appended, setAppended] = useState<Appended | null>(null);
  const [loading, setLoading] = useState(false);
  const [auto, setAuto] = useState(false);
  /** Index of the product to focus once rendered (the first of a page loaded by a click). */
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  const current = appended?.base === serverItems ? appended : null;
  const items = current ? [...serverItems, ...current.items] : serverItems;
  const lastStart = current ? current.lastStart : (query.page - 1) * PAGE_SIZE;
  const more = hasMorePages({ start: lastStart, total, pageSize: PAGE_SIZE, loaded: items.length });
  const nextPage = Math.min(MAX_PAGES, query.page + 1);

  const inFlight = useRef(false);

  async function loadMore(byClick: boolean) {
    if (inFlight.current || !more) return;
    inFlight.current = true;
    setLoading(true);
    const start = nextPageStart({ start: lastStart, pageSize: PAGE_SIZE });
    try {
      const page = await fetchProducts({ categoryId, filters: query.filters, sort: query.sort, text: query.text || undefined, start, size: PAGE_SIZE, licenseType, storeCode: store.storeCode });
      const seen = new Set(items.map((p) => p.sku));
      const fresh = page.items.filter((p) => !seen.has(p.sku));
      setAppended({ base: serverItems, items: [...(current?.items ?? []), ...fresh], lastStart: start });
      const pages = Math.min(MAX_PAGES, Math.floor(start / PAGE_SIZE) + 1);
      const url = `${location.pathname}${catalogSearch({ ...query, page: pages })}`;
      markAppendedUrl(url);
      navigate(url, { replace: true, preventScrollReset: true, state: location.state });
      announce(`${fresh.length} more products loaded. Showing ${items.length + fresh.length} of ${total}.`);
      // Focus the first new product so keyboard users continue where the new products begin.
      if (byClick && fresh.length > 0) setFocusIndex(items.length);
    } catch {
      // The API failed: fall back to the server-rendered page with one more page.
      navigate(`${location.pathname}${catalogSearch({ ...query, page: nextPage })}`, { preventScrollReset: true });
    } finally {
      inFlight.current = false;
      setLoading(false);
    }
  }

  useEffect(() => {
    if (focusIndex == null) return;
    listRef.current?.querySelectorAll<HTMLAnchorElement>('h3 a')[focusIndex]?.focus();
    setFocusIndex(null);
  }, [focusIndex]);

  // Infinite loading, as an enhancement once the shopper asked for more.
  useEffect(() => {
    const target = buttonRef.current;
    if (!auto || !more || !target || typeof IntersectionObserver !== 'function') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadMore(false);
    }, { rootMargin: '0px 0px 600px 0px' });
    observer.observe(target);
    return () => observer.disconnect();
  });

  return (
    <>
      {/* The product cards are h3s; on phones the filter panel (with its h2) is hidden, so the
          list names its own level-2 heading and the outline stays h1 → h2 → h3. */}
      <h2 className="sr-only">Products</h2>
      <ul ref={listRef} role="list" aria-busy={loading} className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-4">
        {items.map((p, i) => (
          <li key={p.sku}>
            <ProductCard product={p} eager={i < 4} money={money} />
          </li>
        ))}
      </ul>
      {more ? (
        <p className="mt-8 flex flex-col items-center gap-2">
          <span className="text-sm text-stone-600">
            Showing {items.length} of {total}
            {loading ? ' · Loading…' : ''}
          </span>
          {hydrated ? (
            <button
              ref={buttonRef}
              type="button"
              onClick={() => {
                void loadMore(true).then(() => setAuto(true));
              }}
              aria-disabled={loading}
              className="inline-flex min-h-12 items-center rounded-full bg-brand px-7 font-semibold text-on-brand hover:opacity-90 aria-disabled:opacity-70"
            >
              {LOAD_MORE_LABEL}
            </button>
          ) : (
            <Link
              to={`${location.pathname}${catalogSearch({ ...query, page: nextPage })}`}
              preventScrollReset
              className="inline-flex min-h-12 items-center rounded-full bg-brand px-7 font-semibold text-on-brand hover:opacity-90"
            >
              {LOAD_MORE_LABEL}
            </Link>
          )}
        </p>
      ) : null}
    </>
  );
}
