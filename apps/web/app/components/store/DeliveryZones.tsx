import { zoneSummary } from '@verdant/domain';
import { useRootData } from '../../lib/root-data.ts';

/** The store's delivery zones, one line each (fee, minimum, free-delivery threshold, time): checkout and contact page (issue 14). */
export function ZoneList({ className = '' }: { className?: string }) {
  const { store } = useRootData();
  if (store.delivery.zones.length === 0) return null;
  return (
    <ul className={`list-disc space-y-1 pl-5 ${className}`} aria-label="Delivery zones">
      {store.delivery.zones.map((z) => (
        <li key={z.name}>{zoneSummary(z, store.money)}</li>
      ))}
    </ul>
  );
}
