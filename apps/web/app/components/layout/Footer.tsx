import type { ReactNode } from 'react';
import type { HoursSettings, HoursStatus } from '@verdant/domain';
import { PathLink } from '../store/StoreLink.tsx';
import { HoursExceptionLines, HoursSummary, OpenStatusText, useStoreNow } from '../store/Hours.tsx';
import { layoutFragments } from '../../lib/fragment-cache.ts';
import { withBasePath } from '../../lib/paths.ts';
import { useRootData } from '../../lib/root-data.ts';
import { STATIC_PAGES, type StaticPageIdentifier } from '../../lib/static-pages.ts';
import { formatAddress, telHref, type PublicStore } from '../../lib/store-view.ts';
import { storeStatus, upcomingExceptions, weekTable, type ExceptionLine } from '../../lib/store-hours.ts';

const SHOP_LINKS: StaticPageIdentifier[] = ['sale', 'gift-card', 'order-from-catalog', 'size-guide', 'store-locator'];
const HELP_LINKS: StaticPageIdentifier[] = ['customer-service', 'order-tracking', 'delivery', 'returns', 'about-us'];
const LEGAL_LINKS: StaticPageIdentifier[] = ['terms', 'privacy', 'legal'];

const linkClass = 'rounded-sm text-stone-300 underline-offset-4 hover:text-white hover:underline';

function LinkList({
  title,
  pages,
  link,
  extra,
}: {
  title: string;
  pages: StaticPageIdentifier[];
  link: (to: string, text: ReactNode) => ReactNode;
  extra?: ReactNode;
}) {
  return (
    <div>
      <h2 className="text-sm font-semibold text-white">{title}</h2>
      <ul className="mt-3 space-y-2 text-sm">
        {pages.map((page) => (
          <li key={page}>{link(`/${page}`, STATIC_PAGES[page])}</li>
        ))}
        {extra}
      </ul>
    </div>
  );
}

const FOOTER_CLASS = 'mt-16 bg-stone-900 text-stone-300';

interface FooterProps {
  store: PublicStore;
  demoMode: boolean;
  basePath: string;
  /** The open-now line and the coming exceptions, judged at the page's instant (useStoreNow). */
  status: HoursStatus;
  exceptions: readonly ExceptionLine[];
}

/**
 * The footer. On the server its inner markup comes from the fragment cache (lib/fragment-cache.ts)
 * once rendered: FooterContent reads nothing but its props, and the key is all of them — the base
 * path, the demo flag, the store's name, place and hours settings, and the open-now line and
 * exceptions, which read the clock and are judged here, outside the cached part (so a page rendered
 * after closing time gets the "Closed" footer, not the cached "Open now" one). The browser renders
 * it in full and hydrates the same markup; its open-now line then follows the browser's clock.
 */
export function Footer() {
  const { store, demoMode, basePath } = useRootData();
  const now = useStoreNow();
  const hoursKey = JSON.stringify(store.hours);
  const { status, exceptions } = hoursAt(hoursKey, store.hours, store.placeInfo.timezone, now);
  const props: FooterProps = { store, demoMode, basePath, status, exceptions };
  if (layoutFragments.enabled) {
    const key = `footer\u0000${JSON.stringify([basePath, demoMode, store.name, store.placeInfo, status, exceptions])}\u0000${hoursKey}`;
    const html = layoutFragments.get(key, () => <FooterContent {...props} />);
    if (html !== undefined) return <footer className={FOOTER_CLASS} dangerouslySetInnerHTML={{ __html: html }} />;
  }
  return (
    <footer className={FOOTER_CLASS}>
      <FooterContent {...props} />
    </footer>
  );
}

/**
 * The open-now line and exceptions at `now`. Both change only on whole minutes (opening hours and
 * time zones are whole minutes, dates change at midnight), so the last minute's answers are kept,
 * by the hours settings' content: one judgement a minute per store instead of one a page.
 */
let hoursMinute = -1;
const hoursByMinute = new Map<string, { status: HoursStatus; exceptions: ExceptionLine[] }>();
function hoursAt(hoursKey: string, hours: HoursSettings, timeZone: string, now: Date) {
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== hoursMinute) {
    hoursMinute = minute;
    hoursByMinute.clear();
  }
  const key = `${timeZone}\u0000${hoursKey}`;
  let found = hoursByMinute.get(key);
  if (!found) {
    found = { status: storeStatus(hours, 'pickup', timeZone, now), exceptions: upcomingExceptions(hours, 'pickup', timeZone, now) };
    if (hoursByMinute.size >= 1_000) hoursByMinute.clear();
    hoursByMinute.set(key, found);
  }
  return found;
}

function FooterContent({ store, demoMode, basePath, status, exceptions }: FooterProps) {
  const place = store.placeInfo;
  const link = (to: string, text: ReactNode) => (
    <PathLink to={withBasePath(basePath, to)} className={linkClass}>
      {text}
    </PathLink>
  );
  return (
    <>
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
          <OpenStatusText status={status} className="mt-2 text-sm text-white" />
          <HoursSummary hours={weekTable(store.hours, 'pickup')} className="mt-2 space-y-1 text-sm tabular-nums" />
          <HoursExceptionLines lines={exceptions} className="mt-2 text-sm" />
        </section>
        <LinkList title="Shop" pages={SHOP_LINKS} link={link} />
        <LinkList title="Help" pages={HELP_LINKS} link={link} extra={<li>{link('/contact', 'Contact us')}</li>} />
        <LinkList title="Legal" pages={LEGAL_LINKS} link={link} />
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
    </>
  );
}
