import { useEffect, useState } from 'react';
import { formatHoursRange, groupHours, type HoursEntry, type HoursOrderType, type HoursSettings, type HoursStatus } from '@verdant/domain';
import { useOptionalRootData } from '../../lib/root-data.ts';
import { storeStatus, upcomingExceptions, type ExceptionLine } from '../../lib/store-hours.ts';

/** Compact opening hours (`Mon – Sat 9:00 AM – 9:00 PM`), for the footer and cards. */
export function HoursSummary({ hours, className }: { hours: readonly HoursEntry[]; className?: string }) {
  return (
    <dl className={className}>
      {groupHours(hours).map((g) => (
        <div key={g.days} className="flex flex-wrap gap-x-2">
          <dt>
            <abbr title={g.days} className="no-underline">
              {g.shortDays}
            </abbr>
          </dt>
          <dd>{g.hours}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Full opening-hours table, one row per day (contact page). */
export function HoursTable({ hours, caption }: { hours: readonly HoursEntry[]; caption: string }) {
  return (
    <table className="mt-2 w-full max-w-md text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="sr-only">
        <tr>
          <th scope="col">Day</th>
          <th scope="col">Hours</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-stone-200">
        {hours.map((h) => (
          <tr key={h.day}>
            <th scope="row" className="py-2 pr-4 font-medium text-stone-900">
              {h.day}
            </th>
            <td className="py-2 text-stone-700 tabular-nums">{formatHoursRange(h.open, h.close)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The instant "open now" is judged at. The first render uses the instant the server rendered the
 * page at (root data `renderedAt`, kept with the page by the output cache), so the browser's
 * hydration renders what the server did; then the browser's clock, every minute, since a cached
 * page may be up to a minute old and a tab stays open for hours.
 */
export function useStoreNow(): Date {
  const renderedAt = useOptionalRootData()?.renderedAt;
  const [now, setNow] = useState(() => (renderedAt ? new Date(renderedAt) : new Date()));
  useEffect(() => {
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * "Open now · closes 9 PM" / "Closed · opens tomorrow 9 AM" in the store's time zone, from the
 * store's hours settings of an order type (pickup: the store's opening hours), holidays included.
 */
export function OpenStatusLine({
  hours,
  timeZone,
  type = 'pickup',
  className = '',
}: {
  hours: HoursSettings;
  timeZone: string;
  type?: HoursOrderType;
  className?: string;
}) {
  const now = useStoreNow();
  return <OpenStatusText status={storeStatus(hours, type, timeZone, now)} type={type} className={className} />;
}

/** OpenStatusLine's markup for a status judged elsewhere (no hooks: the footer's cached part). */
export function OpenStatusText({
  status,
  type = 'pickup',
  className = '',
}: {
  status: HoursStatus;
  type?: HoursOrderType;
  className?: string;
}) {
  return (
    <p
      className={`${className} font-semibold`}
      data-open={status.open ? 'true' : 'false'}
      data-testid={`hours-status-${type}`}
      suppressHydrationWarning
    >
      {status.label}
    </p>
  );
}

/** The exceptions (holidays) of the next two weeks: `Thanksgiving · 11/26/2026: Closed`. Nothing when there are none. */
export function HoursExceptions({
  hours,
  timeZone,
  type = 'pickup',
  className = '',
}: {
  hours: HoursSettings;
  timeZone: string;
  type?: HoursOrderType;
  className?: string;
}) {
  const now = useStoreNow();
  return <HoursExceptionLines lines={upcomingExceptions(hours, type, timeZone, now)} type={type} className={className} />;
}

/** HoursExceptions' markup for lines found elsewhere (no hooks: the footer's cached part). */
export function HoursExceptionLines({
  lines,
  type = 'pickup',
  className = '',
}: {
  lines: readonly ExceptionLine[];
  type?: HoursOrderType;
  className?: string;
}) {
  if (!lines.length) return null;
  return (
    <div className={className}>
      <p className="font-semibold text-inherit">Special hours</p>
      <ul className="mt-1 space-y-0.5 tabular-nums" data-testid={`hours-exceptions-${type}`}>
        {lines.map((l) => (
          <li key={l.date}>
            {l.label ? `${l.label} · ` : ''}
            {l.shown}: {l.hours}
          </li>
        ))}
      </ul>
    </div>
  );
}
