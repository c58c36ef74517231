/**
 * What runs when (issue 28 "a calendar of what runs when"): four weeks of the store's days, each with
 * the deals that run that day and their hours (GET /deals/calendar, in the store's time zone). Deals
 * that run all day on every day shown are listed once above the days, so each day names only what is
 * particular to it (a weekday deal, a happy hour, a date window). On a phone the days are a list;
 * from a tablet up, a week per row.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { addDays } from '@verdant/domain';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, query } from '../lib/api.ts';
import { date, dayIn } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import type { DealCalendar } from '../lib/types.ts';
import { useStore, useTitle } from './layout.tsx';
import { BackToDeals } from './deals.tsx';

const WEEKS = 4;

function shift(day: string, days: number): string {
  const [year, month, d] = day.split('-').map(Number);
  const next = addDays({ year, month, day: d }, days);
  return `${next.year}-${String(next.month).padStart(2, '0')}-${String(next.day).padStart(2, '0')}`;
}

/** The Sunday on or before `day`. */
function weekStart(day: string): string {
  return shift(day, -new Date(`${day}T12:00:00Z`).getUTCDay());
}

export function DealCalendarPage() {
  useTitle('Deal calendar');
  const { store } = useStore();
  const [from, setFrom] = useState(() => weekStart(dayIn(new Date(), store.timezone)));
  const to = shift(from, WEEKS * 7 - 1);
  const calendar = useResource(`${store.id}|${from}`, () => api<DealCalendar>('GET', `/stores/${store.id}/deals/calendar${query({ from, to })}`));
  const today = dayIn(new Date(), store.timezone);
  const days = calendar.data?.days ?? [];
  const everyDay = new Map<number, DealCalendar['days'][number]['deals'][number]>();
  if (days.length)
    for (const d of days[0].deals)
      if (!d.hours && days.every((day) => day.deals.some((x) => x.id === d.id && !x.hours))) everyDay.set(d.id, d);
  return (
    <>
      <BackToDeals storeId={store.id} />
      <PageTitle
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setFrom(shift(from, -WEEKS * 7))}>
              Earlier
            </button>
            <button type="button" className="btn-secondary" onClick={() => setFrom(weekStart(today))}>
              This week
            </button>
            <button type="button" className="btn-secondary" onClick={() => setFrom(shift(from, WEEKS * 7))}>
              Later
            </button>
          </>
        }
      >
        Deal calendar
      </PageTitle>
      <p className="mb-4 text-stone-700">
        {date(from, store.timezone)} to {date(to, store.timezone)}. Paused deals are shown as paused: they run again only when resumed.
      </p>
      <ErrorNote>{calendar.error}</ErrorNote>
      {!calendar.data ? (
        <Loading />
      ) : (
        <>
          <section aria-labelledby="every-day" className="card mb-4">
            <h2 id="every-day" className="font-semibold">
              All day, every day shown
            </h2>
            {everyDay.size === 0 ? (
              <p className="text-sm text-stone-700">None.</p>
            ) : (
              <ul className="grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
                {[...everyDay.values()].map((d) => (
                  <li key={d.id} className="[overflow-wrap:anywhere]">
                    <Link to={`/stores/${store.id}/deals/${d.id}`} className="link">
                      {d.title}
                    </Link>{' '}
                    {d.status === 'paused' && <Badge tone="amber">Paused</Badge>}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <ol className="grid grid-cols-1 gap-2 md:grid-cols-7" aria-label="Days">
            {calendar.data.days.map((day) => (
            <li key={day.date} className={`card min-w-0 p-2 ${day.date === today ? 'border-green-800' : ''}`} aria-current={day.date === today ? 'date' : undefined}>
              <h2 className="text-sm font-semibold">{date(day.date, store.timezone, { weekday: true })}</h2>
              {day.deals.every((d) => everyDay.has(d.id)) ? (
                <p className="text-sm text-stone-700">Nothing else</p>
              ) : (
                <ul className="grid gap-1 text-sm">
                  {day.deals.filter((d) => !everyDay.has(d.id)).map((d) => (
                    <li key={d.id} className="[overflow-wrap:anywhere]">
                      <Link to={`/stores/${store.id}/deals/${d.id}`} className="link">
                        {d.title}
                      </Link>
                      {d.hours && (
                        <span className="block text-stone-700">
                          {d.hours.from}–{d.hours.to}
                        </span>
                      )}
                      {d.status === 'paused' && <Badge tone="amber">Paused</Badge>}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
          </ol>
        </>
      )}
    </>
  );
}
