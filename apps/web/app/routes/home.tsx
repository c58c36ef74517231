import { HOME_COLLECTION_SIZE, HOME_COLLECTION_TITLES, HOME_COLLECTIONS, LICENSE_LABELS, type HomeCollections } from '@verdant/domain';
import type { Route } from './+types/home';
import { offlineFallback } from '../lib/offline-catalog.ts';
import { ProductListSection } from '../components/product/ProductList.tsx';
import { MenuComingSoon } from '../components/catalog/MenuComingSoon.tsx';
import { menuIsEmpty } from '../lib/menu-empty.ts';
import { StoreLink } from '../components/store/StoreLink.tsx';
import { pageMeta } from '../lib/meta.ts';
import { useRootData } from '../lib/root-data.ts';
import { readShopper } from '../lib/shopper.ts';
import { formatAddress } from '../lib/store-view.ts';
import { outputCacheHeaders } from '../lib/output-cache.ts';
import { withDeals } from '../lib/deal-view.ts';

/** Home (spec §2; also /pwa.html): the store, its deals and the four home lists for the shopper's licence. */
async function load({ request, context }: Route.LoaderArgs) {
  const { licenseType } = readShopper(request.headers.get('Cookie'), context.store);
  const [lists, tree, onDeal] = await Promise.all([
    context.services.homeCollections(context.store, licenseType),
    context.services.categoryTree(context.store),
    // Issue 28: what is on deal now leads the specials list; every card shows the deal live on it.
    context.services.dealsOnNow(context.store, licenseType, HOME_COLLECTION_SIZE),
  ]);
  const specials = [...onDeal.cards, ...lists.specials.filter((c) => !onDeal.cards.some((d) => d.sku === c.sku))].slice(0, HOME_COLLECTION_SIZE);
  const skus = HOME_COLLECTIONS.flatMap((name) => (name === 'specials' ? [] : lists[name].map((c) => c.sku)));
  const deals = skus.length ? (await context.services.productDeals(context.store, licenseType, skus)).bySku : {};
  const collections = Object.fromEntries(
    HOME_COLLECTIONS.map((name) => [name, name === 'specials' ? withDeals(specials, deals) : withDeals(lists[name], deals)]),
  ) as HomeCollections;
  // Each live deal's words ("Any 3 eighths for $90"); a deal whose words the store's rules forbid is left out.
  const liveDeals = onDeal.live.filter((d): d is { id: string; words: string } => d.words != null);
  return { licenseType, collections, liveDeals, menuEmpty: menuIsEmpty(tree) };
}

export const loader = (args: Route.LoaderArgs) => load(args);

/** Offline (issue 6): the service worker's copy of the data, else this loader run on the catalogue snapshot. */
export const clientLoader = (args: Route.ClientLoaderArgs) => offlineFallback(args, load);

export const headers: Route.HeadersFunction = () => outputCacheHeaders();

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches);

const EMPTY_TEXT: Record<(typeof HOME_COLLECTIONS)[number], string> = {
  new_collection: 'No new arrivals right now. Fresh drops land every week, so check back soon.',
  bestsellers: 'Our best sellers list is warming up. Browse the full menu in the meantime.',
  specials: 'No products on sale right now. Keep an eye on our deals above.',
  staff_picks: 'Our budtenders are choosing their picks. Check back soon.',
};

export default function Home({ loaderData }: Route.ComponentProps) {
  const { store } = useRootData();
  const { collections, licenseType, menuEmpty, liveDeals } = loaderData;
  const place = store.placeInfo;
  return (
    <>
      <div className="border-b border-stone-200 bg-linear-to-b from-brand/10 to-white">
        <div className="mx-auto grid max-w-7xl gap-6 px-4 py-10 sm:px-6 md:grid-cols-[1fr_auto] md:items-end md:py-14">
          <div>
            <img src={store.logo} alt="" width={240} height={60} className="h-12 w-auto sm:h-14" />
            <h1 className="mt-5 font-display text-4xl font-bold tracking-tight text-stone-900 sm:text-5xl">
              {store.name}
            </h1>
            <p className="mt-3 max-w-2xl text-lg text-stone-700">{store.seo.description}</p>
            <p className="mt-2 text-sm text-stone-600">
              {formatAddress(place)} · Showing products for {LICENSE_LABELS[licenseType].toLowerCase()} customers
            </p>
          </div>
          <div className="flex flex-wrap gap-3">
            <StoreLink
              to="/menu"
              prefetch="intent"
              className="inline-flex min-h-12 items-center rounded-full bg-brand px-7 font-semibold text-on-brand shadow-sm hover:opacity-90"
            >
              Shop the menu
            </StoreLink>
            <StoreLink
              to="/contact"
              className="inline-flex min-h-12 items-center rounded-full border border-stone-300 bg-white px-6 font-medium text-stone-800 hover:bg-stone-100"
            >
              Hours &amp; directions
            </StoreLink>
          </div>
        </div>
      </div>

      {liveDeals.length > 0 ? (
        <section id="deals-now" aria-labelledby="deals-now-title" className="mx-auto max-w-7xl px-4 pt-10 sm:px-6">
          <h2 id="deals-now-title" className="font-display text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">
            On deal now
          </h2>
          <ul role="list" className="mt-4 flex flex-wrap gap-2">
            {liveDeals.map((d) => (
              <li key={d.id} className="rounded-full border border-brand/30 bg-brand/5 px-4 py-2 text-sm font-medium text-stone-900">
                {d.words}
              </li>
            ))}
          </ul>
          <p className="mt-3">
            <StoreLink to="/sale" className="font-semibold text-brand-ink underline underline-offset-4">
              See every product on deal
            </StoreLink>
          </p>
        </section>
      ) : null}

      {store.specials.length > 0 ? (
        <section id="deals" aria-labelledby="deals-title" className="mx-auto max-w-7xl scroll-mt-4 px-4 pt-10 sm:px-6">
          <h2 id="deals-title" className="font-display text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">
            Deals
          </h2>
          <ul role="list" className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {store.specials.map((special) => (
              <li key={special.id} className="flex flex-col rounded-2xl border border-brand/30 bg-brand/5 p-5">
                <h3 className="text-lg font-semibold text-stone-900">{special.title}</h3>
                <p className="mt-1 flex-1 text-stone-700">{special.description}</p>
                {special.discount_group_id ? (
                  <p className="mt-4">
                    <StoreLink
                      to={`/menu?discount_group_id=${special.discount_group_id}`}
                      className="font-semibold text-brand-ink underline underline-offset-4"
                    >
                      Shop this deal<span className="sr-only">: {special.title}</span>
                    </StoreLink>
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {menuEmpty ? (
        <MenuComingSoon />
      ) : (
        HOME_COLLECTIONS.map((name, index) => (
          <ProductListSection
            key={name}
            id={`home-${name}`}
            title={HOME_COLLECTION_TITLES[name]}
            products={collections[name] ?? []}
            eagerCount={index === 0 ? 4 : 0}
            emptyText={EMPTY_TEXT[name]}
            money={store.money}
          />
        ))
      )}
    </>
  );
}
