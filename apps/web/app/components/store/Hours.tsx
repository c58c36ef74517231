import { useEffect, useState } from 'react';
import { formatHoursRange, groupHours, openStatus, type HoursEntry } from '@verdant/domain';

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
 * "Open now · closes 9 PM" / "Closed · opens 9 AM" in the store's time zone. The server's answer
 * may be up to a minute old (the output cache) and the shopper's clock decides in the browser, so
 * the line is worked out again after hydration and every minute (the first render may differ from
 * the server's text by design: suppressHydrationWarning).
 */
export function OpenStatusLine({ hours, timeZone, className = '' }: { hours: readonly HoursEntry[]; timeZone: string; className?: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const status = openStatus(hours, timeZone, now);
  return (
    <p className={`${className} font-semibold`} data-open={status.open ? 'true' : 'false'} suppressHydrationWarning>
      {status.label}
    </p>
  );
}
