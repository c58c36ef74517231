import type { Route } from './+types/static-page';
import { CmsContent, PageShell } from '../components/page/PageShell.tsx';
import { notFound } from '../lib/guards.ts';
import { pageMeta } from '../lib/meta.ts';
import { STATIC_PAGES, staticPageFromPath } from '../lib/static-pages.ts';
import { useRootData } from '../lib/root-data.ts';
import { useDealDisplay } from '../lib/deal-view.ts';
import { outputCacheHeaders } from '../lib/output-cache.ts';
import { HoursExceptions, HoursSummary, OpenStatusLine } from '../components/store/Hours.tsx';
import { hoursOrDefault, weekTable } from '../lib/store-hours.ts';
import { readShopper } from '../lib/shopper.ts';
import { ProductListSection } from '../components/product/ProductList.tsx';

/** Products /sale shows at most (what is on deal now, newest first). */
const SALE_PAGE_SIZE = 48;

/**
 * The static pages of spec §2 (/legal, /privacy, /terms, …): one module; the identifier is the
 * last path segment and the content is the store's CMS page of that identifier, with placeholder
 * text until the store writes one.
 */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const identifier = staticPageFromPath(url.pathname);
  if (!identifier) notFound();
  const page = await context.services.cmsPage(context.store, identifier);
  // Issue 28: /sale lists what is on deal now for the shopper's licence (the deals' words and the products).
  const onDeal = identifier === 'sale' ? await context.services.dealsOnNow(context.store, readShopper(request.headers.get('Cookie'), context.store).licenseType, SALE_PAGE_SIZE) : null;
  return {
    onDeal,
    identifier,
    title: page?.title || STATIC_PAGES[identifier],
    content: page?.content ?? null,
    metaTitle: page?.meta_title ?? null,
    metaDescription: page?.meta_description ?? null,
    // The locator says of every store whether it is open now (its hours, in its time zone).
    hours:
      identifier === 'store-locator'
        ? Object.fromEntries(
            await Promise.all(
              context.stores.map(async (s) => [
                s.storeCode,
                // Issue 14: each store's hours settings (holidays included); the default from its opening hours.
                { hours: hoursOrDefault(s.storeId == null ? null : await context.storeHours?.(s.storeId), s.hours), timezone: s.timezone },
              ]),
            ),
          )
        : null,
  };
}

export const headers: Route.HeadersFunction = () => outputCacheHeaders();

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, { title: loaderData?.metaTitle || loaderData?.title, description: loaderData?.metaDescription });

export default function StaticPage({ loaderData }: Route.ComponentProps) {
  const { store, stores } = useRootData();
  const { identifier, title, content, hours, onDeal } = loaderData;
  // Issue 28: where the store's rules forbid the word "sale" (Massachusetts adult use), /sale's title says "Specials".
  const { rules } = useDealDisplay();
  const shownTitle = identifier === 'sale' && rules.noSaleWord && /\bsales?\b/i.test(title) ? 'Specials' : title;
  return (
    <PageShell title={shownTitle}>
      {content ? (
        <CmsContent content={content} />
      ) : (
        <p className="rounded-xl border border-dashed border-stone-300 bg-white px-5 py-6 text-stone-700">
          {store.name} is preparing this page. In the meantime, our team is happy to help by phone or in store.
        </p>
      )}
      {onDeal ? (
        <section aria-labelledby="sale-deals-title" className="mt-8">
          <h2 id="sale-deals-title" className="font-display text-2xl font-bold text-stone-900">
            On deal now
          </h2>
          {onDeal.live.some((d) => d.words) ? (
            <ul role="list" className="mt-4 flex flex-wrap gap-2">
              {onDeal.live.flatMap((d) =>
                d.words ? [
                  <li key={d.id} className="rounded-full border border-brand/30 bg-brand/5 px-4 py-2 text-sm font-medium text-stone-900">
                    {d.words}
                  </li>,
                ] : [],
              )}
            </ul>
          ) : (
            <p className="mt-3 text-stone-700">No deals are running right now. Check back soon.</p>
          )}
        </section>
      ) : null}
      {onDeal && onDeal.cards.length > 0 ? (
        <ProductListSection id="sale-products" title="Products on deal" products={onDeal.cards} eagerCount={4} money={store.money} />
      ) : null}
      {identifier === 'store-locator' && stores.length > 0 ? (
        <section aria-labelledby="stores-title" className="mt-10">
          <h2 id="stores-title" className="font-display text-2xl font-bold text-stone-900">
            Our stores
          </h2>
          <ul role="list" className="mt-4 grid gap-3 sm:grid-cols-2">
            {stores.map((s) => (
              <li key={s.storeCode} className="rounded-2xl border border-stone-200 bg-white p-4">
                <p className="font-semibold text-stone-900">
                  {s.storeCode === store.storeCode ? (
                    <span>
                      {s.name} <span className="text-sm font-normal text-stone-600">(you are here)</span>
                    </span>
                  ) : (
                    <a href={s.url} className="text-brand-ink underline underline-offset-4">
                      {s.name}
                    </a>
                  )}
                </p>
                <p className="text-sm text-stone-600">{s.city}</p>
                {hours?.[s.storeCode] ? (
                  <>
                    <OpenStatusLine hours={hours[s.storeCode].hours} timeZone={hours[s.storeCode].timezone} className="mt-2 text-sm text-stone-900" />
                    <HoursSummary hours={weekTable(hours[s.storeCode].hours, 'pickup')} className="mt-1 space-y-0.5 text-sm text-stone-700 tabular-nums" />
                    <HoursExceptions hours={hours[s.storeCode].hours} timeZone={hours[s.storeCode].timezone} className="mt-1 text-sm text-stone-700" />
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </PageShell>
  );
}
