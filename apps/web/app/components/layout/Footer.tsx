import type { ReactNode } from 'react';
import { StoreLink } from '../store/StoreLink.tsx';
import { HoursExceptions, HoursSummary, OpenStatusLine } from '../store/Hours.tsx';
import { useRootData } from '../../lib/root-data.ts';
import { STATIC_PAGES, type StaticPageIdentifier } from '../../lib/static-pages.ts';
import { formatAddress, telHref } from '../../lib/store-view.ts';
import { weekTable } from '../../lib/store-hours.ts';

const SHOP_LINKS: StaticPageIdentifier[] = ['sale', 'gift-card', 'order-from-catalog', 'size-guide', 'store-locator'];
const HELP_LINKS: StaticPageIdentifier[] = ['customer-service', 'order-tracking', 'delivery', 'returns', 'about-us'];
const LEGAL_LINKS: StaticPageIdentifier[] = ['terms', 'privacy', 'legal'];

const linkClass = 'rounded-sm text-stone-300 underline-offset-4 hover:text-white hover:underline';

function LinkList({ title, pages, extra }: { title: string; pages: StaticPageIdentifier[]; extra?: ReactNode }) {
  return (
    <div>
      <h2 className="text-sm font-semibold text-white">{title}</h2>
      <ul className="mt-3 space-y-2 text-sm">
        {pages.map((page) => (
          <li key={page}>
            <StoreLink to={`/${page}`} className={linkClass}>
              {STATIC_PAGES[page]}
            </StoreLink>
          </li>
        ))}
        {extra}
      </ul>
    </div>
  );
}

export function Footer() {
  const { store, demoMode } = useRootData();
  const place = store.placeInfo;
  return (
    <footer className="mt-16 bg-stone-900 text-stone-300">
      <div className="mx-auto grid max-w-7xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-12 sm:px-6 md:grid-cols-3 lg:grid-cols-5">
        <section aria-labelledby="footer-store" className="col-span-2 md:col-span-3 lg:col-span-2">
          <h2 id="footer-store" className="font-display text-xl font-bold text-white">
            {store.name}
          </h2>
          <address className="mt-3 space-y-1 text-sm not-italic">
            <p>{formatAddress(place)}</p>
            <p>
              <a href={telHref(place.phone)} className={linkClass}>
                {place.phone}
              </a>
            </p>
            {place.email ? (
              <p>
                <a href={`mailto:${place.email}`} className={linkClass}>
                  {place.email}
                </a>
              </p>
            ) : null}
          </address>
          <h3 className="mt-5 text-sm font-semibold text-white">Opening hours</h3>
          {/* Issue 14: the store's hours settings (pickup = opening hours), holidays included. */}
          <OpenStatusLine hours={store.hours} timeZone={place.timezone} className="mt-2 text-sm text-white" />
          <HoursSummary hours={weekTable(store.hours, 'pickup')} className="mt-2 space-y-1 text-sm tabular-nums" />
          <HoursExceptions hours={store.hours} timeZone={place.timezone} className="mt-2 text-sm" />
        </section>
        <LinkList title="Shop" pages={SHOP_LINKS} />
        <LinkList
          title="Help"
          pages={HELP_LINKS}
          extra={
            <li>
              <StoreLink to="/contact" className={linkClass}>
                Contact us
              </StoreLink>
            </li>
          }
        />
        <LinkList title="Legal" pages={LEGAL_LINKS} />
      </div>
      <div className="border-t border-stone-700">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-6 text-sm sm:px-6 md:flex-row md:items-center md:justify-between">
          <p>
            <strong className="font-semibold text-white">For adults 21 and older only.</strong> Keep cannabis out of
            reach of children and pets. Do not drive under the influence.
          </p>
          <p className="shrink-0">
            {place.address.region} cannabis retailer ·{' '}
            <span className="font-semibold text-white">License {place.license_number}</span>
          </p>
        </div>
        {demoMode ? (
          <p className="mx-auto max-w-7xl px-4 pb-6 text-xs text-stone-400 sm:px-6">
            Demo store: products, prices and store details are sample data.
          </p>
        ) : null}
      </div>
    </footer>
  );
}
