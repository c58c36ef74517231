import type { CurbsideArrival as Arrival } from '@verdant/domain';
import { waitingText } from '../lib/alerts.tsx';
import { time } from '../lib/format.ts';

/**
 * A curbside shopper outside (issue 29): "Here since 14:05 · Bay 2 · Grey Prius", and how long they
 * have waited (the console's 30 s clock). Staff hand over with the order's usual Complete and its ID check.
 */
export function CurbsideArrival({ arrival, now, timeZone }: { arrival: Arrival; now: number; timeZone: string }) {
  const where = [arrival.bay ? `Bay ${arrival.bay}` : null, arrival.car].filter(Boolean).join(' · ');
  return (
    <div className="mt-1 rounded border border-amber-400 bg-amber-50 px-2 py-1 text-sm text-amber-950" data-testid="curbside-arrival">
      <strong>Curbside: here since {time(arrival.arrived_at, timeZone)}</strong>
      {where ? <div>{where}</div> : null}
      <div className="font-medium">{waitingText(arrival.arrived_at, now).replace(/^w/, 'W')}</div>
    </div>
  );
}
