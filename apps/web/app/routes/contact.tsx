import type { Route } from './+types/contact';
import { PageShell } from '../components/page/PageShell.tsx';
import { deliveryZoneNames } from '@verdant/domain';
import { HoursExceptions, HoursTable, OpenStatusLine } from '../components/store/Hours.tsx';
import { ZoneList } from '../components/store/DeliveryZones.tsx';
import { sameHours, weekTable } from '../lib/store-hours.ts';
import { pageMeta, rootDataFromMatches } from '../lib/meta.ts';
import { useRootData } from '../lib/root-data.ts';
import { formatAddress, telHref } from '../lib/store-view.ts';
import { outputCacheHeaders } from '../lib/output-cache.ts';

export const headers: Route.HeadersFunction = () => outputCacheHeaders();

export const meta: Route.MetaFunction = ({ matches }) => {
  const store = rootDataFromMatches(matches)?.store;
  return pageMeta(matches, {
    title: 'Contact',
    description: store ? `Address, phone, opening hours and directions for ${store.name}.` : undefined,
  });
};

function mapHref(lat: number, lng: number): string {
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=17/${lat}/${lng}`;
}

/** Contact (spec §2): where the store is, how to reach it, when it is open, and its licence. */
export default function Contact() {
  const { store } = useRootData();
  const place = store.placeInfo;
  const linkClass = 'font-semibold text-brand-ink underline underline-offset-4';
  return (
    <PageShell title="Contact" lead={<p>Questions about an order or a product? Call, write or drop by.</p>} wide>
      <div className="grid gap-8 lg:grid-cols-3">
        <section aria-labelledby="visit-title" className="rounded-2xl border border-stone-200 bg-white p-6 shadow-sm">
          <h2 id="visit-title" className="text-lg font-semibold text-stone-900">
            Visit {store.name}
          </h2>
          <address className="mt-3 space-y-2 not-italic text-stone-800">
            <p>
              {place.address.street}
              <br />
              {place.address.city}, {place.address.region_code} {place.address.postcode}
            </p>
            <p>
              Phone:{' '}
              <a href={telHref(place.phone)} className={linkClass}>
                {place.phone}
              </a>
            </p>
            {place.email ? (
              <p>
                Email:{' '}
                <a href={`mailto:${place.email}`} className={linkClass}>
                  {place.email}
                </a>
              </p>
            ) : null}
          </address>
          <p className="mt-4">
            <a href={mapHref(place.lat, place.lng)} className={linkClass} rel="noopener noreferrer" target="_blank">
              View on map<span className="sr-only"> (opens OpenStreetMap in a new tab)</span>
            </a>
            <span className="block text-sm text-stone-600 tabular-nums">
              {place.lat}, {place.lng}
            </span>
          </p>
          {/* Issue 14: what the store's delivery zones say (the spec's radius sentence while it has one distance area). */}
          {store.delivery.radius_miles != null ? (
            <p className="mt-4 text-sm text-stone-700">
              Pickup in store, or delivery within {store.delivery.radius_miles} miles of {formatAddress(place)}.
            </p>
          ) : store.delivery.zones.length > 0 ? (
            <div className="mt-4 text-sm text-stone-700">
              <p>Pickup in store, or delivery to {deliveryZoneNames(store.delivery)}:</p>
              <ZoneList className="mt-2" />
            </div>
          ) : null}
          <p className="mt-4 text-sm text-stone-700">
            State license: <strong className="text-stone-900">License {place.license_number}</strong>
          </p>
        </section>

        <section aria-labelledby="hours-title" className="rounded-2xl border border-stone-200 bg-white p-6 shadow-sm">
          <h2 id="hours-title" className="text-lg font-semibold text-stone-900">
            Opening hours
          </h2>
          {/* Issue 14: from the store's hours settings; pickup hours are the store's opening hours. */}
          <OpenStatusLine hours={store.hours} timeZone={place.timezone} className="mt-2 text-stone-900" />
          <HoursTable hours={weekTable(store.hours, 'pickup')} caption="Opening hours" />
          <HoursExceptions hours={store.hours} timeZone={place.timezone} className="mt-3 text-sm text-stone-800" />
          {store.delivery.zones.length > 0 ? (
            sameHours(store.hours) ? (
              <p className="mt-3 text-sm text-stone-700">Delivery orders are taken in the same hours.</p>
            ) : (
              <>
                <h3 className="mt-5 font-semibold text-stone-900">Delivery hours</h3>
                <OpenStatusLine hours={store.hours} type="delivery" timeZone={place.timezone} className="mt-1 text-stone-900" />
                <HoursTable hours={weekTable(store.hours, 'delivery')} caption="Delivery hours" />
                <HoursExceptions hours={store.hours} type="delivery" timeZone={place.timezone} className="mt-3 text-sm text-stone-800" />
              </>
            )
          ) : null}
          <p className="mt-3 text-sm text-stone-600">Times are local to the store ({place.timezone.replace('_', ' ')}).</p>
        </section>

        <section aria-labelledby="message-title" className="rounded-2xl border border-stone-200 bg-white p-6 shadow-sm">
          <h2 id="message-title" className="text-lg font-semibold text-stone-900">
            Send us a message
          </h2>
          <p className="mt-3 text-stone-700">
            An online contact form is coming soon. Until then, call us at{' '}
            <a href={telHref(place.phone)} className={linkClass}>
              {place.phone}
            </a>
            {place.email ? (
              <>
                {' '}
                or write to{' '}
                <a href={`mailto:${place.email}`} className={linkClass}>
                  {place.email}
                </a>
              </>
            ) : null}
            .
          </p>
          <p className="mt-3 text-sm text-stone-600">
            We can’t give medical advice by phone or email. For adults 21 and older only.
          </p>
        </section>
      </div>
    </PageShell>
  );
}
