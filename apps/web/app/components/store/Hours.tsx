import { formatHoursRange, groupHours, type HoursEntry } from '../../lib/hours.ts';

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
