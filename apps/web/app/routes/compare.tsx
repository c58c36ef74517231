import { useEffect, useRef } from 'react';
import { useLocation, useNavigate, useNavigation } from 'react-router';
import { productPath } from '@verdant/domain';
import type { Route } from './+types/compare';
import { CompareTable } from '../components/compare/CompareTable.tsx';
import { PageShell } from '../components/page/PageShell.tsx';
import { StoreLink } from '../components/store/StoreLink.tsx';
import { announce } from '../lib/announce.ts';
import { pageMeta } from '../lib/meta.ts';
import { compareRow, parseSkuList } from '../lib/product-page.ts';
import { useRootData } from '../lib/root-data.ts';
import { useSavedList } from '../state/use-saved-list.ts';

/**
 * /compare (spec §2 Compare Products). The compare list lives in the browser (IndexedDB); the page
 * asks the server for the products through its own URL, `?skus=a,b`, which the page keeps equal to
 * the list (history replace). So the loader stays a plain GET (no extra API), and a compare URL can
 * be shared: opened on a device whose list is empty, its products become that device's list.
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const skus = parseSkuList(url.searchParams.get('skus'));
  const products = skus.length ? await context.services.productsBySku(context.store, skus) : [];
  const now = new Date();
  const bySku = new Map(products.map((p) => [p.sku, p]));
  const rows = skus.flatMap((sku) => {
    const p = bySku.get(sku);
    return p ? [compareRow(p, now, productPath(p))] : [];
  });
  return { skus, rows };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: 'Compare products', noindex: true });

export default function Compare({ loaderData }: Route.ComponentProps) {
  const { store } = useRootData();
  const navigate = useNavigate();
  const location = useLocation();
  const navigation = useNavigation();
  const loaded = useSavedList('compare', (s) => s.loaded);
  const items = useSavedList('compare', (s) => s.items);
  const add = useSavedList('compare', (s) => s.add);
  const remove = useSavedList('compare', (s) => s.remove);
  const clear = useSavedList('compare', (s) => s.clear);
  const imported = useRef(false);

  const listSkus = items.map((i) => i.sku).join(',');
  useEffect(() => {
    if (!loaded) return;
    // A shared compare URL on a device with an empty list: adopt its products once.
    if (!imported.current && items.length === 0 && loaderData.rows.length > 0) {
      imported.current = true;
      for (const r of loaderData.rows) add({ sku: r.sku, name: r.name, path: r.path, image: r.image, brand: r.brand });
      return;
    }
    imported.current = true;
    if (listSkus !== loaderData.skus.join(',')) {
      const search = listSkus ? `?skus=${encodeURIComponent(listSkus).replace(/%2C/g, ',')}` : '';
      navigate(`${location.pathname}${search}`, { replace: true, preventScrollReset: true });
    }
  }, [loaded, listSkus, loaderData, items.length, add, navigate, location.pathname]);

  // Removed products disappear at once; added ones appear when the loader has them.
  const inList = new Set(items.map((i) => i.sku));
  const rows = loaded ? loaderData.rows.filter((r) => inList.has(r.sku)) : loaderData.rows;
  const syncing = !loaded || listSkus !== loaderData.skus.join(',');
  const busy = syncing || navigation.state === 'loading';

  return (
    <PageShell title="Compare products" wide>
      <div aria-busy={busy}>
        {rows.length > 0 ? (
          <>
            <CompareTable
              rows={rows}
              money={store.money}
              onRemove={(r) => {
                remove(r.sku);
                announce(`${r.name} removed from your compare list.`);
                queueMicrotask(() =>
                  (document.querySelector<HTMLElement>('[aria-labelledby="compare-caption"]') ?? document.getElementById('main-content'))?.focus(),
                );
              }}
            />
            <p className="mt-4">
              <button
                type="button"
                onClick={() => {
                  clear();
                  announce('Your compare list is now empty.');
                }}
                className="inline-flex min-h-11 items-center font-medium text-stone-700 underline underline-offset-4 hover:text-stone-900"
              >
                Clear compare list
              </button>
            </p>
          </>
        ) : syncing ? (
          <p className="text-stone-700">Loading your compare list…</p>
        ) : items.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-stone-300 bg-white px-5 py-8 text-stone-700">
            <p>You have no products to compare yet. Use “Add to compare” on any product to put it here.</p>
            <p className="mt-4">
              <StoreLink to="/menu" className="font-semibold text-brand-ink underline underline-offset-4">
                Browse the menu
              </StoreLink>
            </p>
          </div>
        ) : (
          <div className="rounded-2xl border border-dashed border-stone-300 bg-white px-5 py-8 text-stone-700">
            <p>The products in your compare list are no longer on the menu.</p>
            <p className="mt-4">
              <button type="button" onClick={() => clear()} className="font-semibold text-brand-ink underline underline-offset-4">
                Clear compare list
              </button>
            </p>
          </div>
        )}
      </div>
    </PageShell>
  );
}
