import { OrderTimeline } from './OrderTimeline.tsx';
import { useLiveOrder } from './use-live-order.ts';
import { tripProgressOf, type OrderStatusView } from '../../lib/order-status.ts';

interface Props<T extends OrderStatusView> {
  initial: T;
  fetchStatus(): Promise<T>;
  intervalMs: number;
  timeZone: string;
  documentsHref?: string | null;
}

/**
 * The timeline of an order that is open on screen, kept fresh (use-live-order.ts); a change is
 * said in a polite live region that is on the page from its first render (a region added later
 * is not read).
 */
export function LiveOrderStatus<T extends OrderStatusView>({ initial, fetchStatus, intervalMs, timeZone, documentsHref }: Props<T>) {
  const live = useLiveOrder(initial, fetchStatus, intervalMs, timeZone);
  // Issue 29: where the delivery is on its trip. It is rendered by the server too (the page works
  // without JavaScript) and kept fresh by the same polling as the status: the shopper's pages have
  // no push channel (the console's event stream is staff-only), and the order answer already
  // carries the progress, so no second request or timer is added.
  const trip = tripProgressOf(live.order);
  return (
    <div className="space-y-3">
      {trip ? (
        <p data-testid="trip-progress" className="rounded-lg border border-brand/40 bg-brand/5 px-3 py-2 font-semibold text-stone-900">
          {trip.text}
        </p>
      ) : null}
      <OrderTimeline order={live.order} timeZone={timeZone} documentsHref={documentsHref} />
      <p role="status" aria-live="polite" aria-atomic="true" data-testid="order-status-live" className="text-sm font-medium text-brand-ink">
        {live.announcement}
      </p>
      {live.staleNote ? (
        <p data-testid="order-status-stale" className="text-sm text-amber-900">
          {live.staleNote}
        </p>
      ) : null}
    </div>
  );
}
