import { accountApi } from '../../api/account.ts';
import { ApiError } from '../../api/envelope.ts';
import type { PlacedOrder } from '../../api/order.ts';
import { trackOrder } from '../../api/order-tracking.ts';
import { LIVE_POLL_MS, type OrderStatusView } from '../../lib/order-status.ts';
import { useRootData } from '../../lib/root-data.ts';
import { useAuth, useAuthApi } from '../../state/use-auth.ts';
import { useCheckout } from '../../state/use-cart.ts';
import { LiveOrderStatus } from '../order/LiveOrderStatus.tsx';
import { OrderTimeline } from '../order/OrderTimeline.tsx';

/**
 * The thank-you page's live status (issue 12). A logged-in customer's order is read like the
 * account's order page; a guest's through order tracking with the phone the order was placed with
 * (kept in the checkout state), which is rate-limited, so it asks less often.
 */
export function ThankYouStatus({ order }: { order: PlacedOrder }) {
  const { store } = useRootData();
  const auth = useAuthApi();
  const loggedIn = useAuth((s) => s.user != null);
  const phone = useCheckout((s) => s.personal.phone);
  const initial: OrderStatusView = { status: order.status, order_type: order.order_type, created_at: order.created_at, ...(order.hold?.length ? { hold: order.hold } : {}) };
  const timeZone = store.placeInfo.timezone;
  const number = order.increment_id;

  if (!loggedIn && !phone) return <OrderTimeline order={initial} timeZone={timeZone} />;
  const fetchStatus = async (): Promise<OrderStatusView> => {
    if (loggedIn) {
      try {
        return await auth.getState().authorized((t) => accountApi.order(t, number));
      } catch (e) {
        // Placed before logging in: not in this account's history, but tracking finds it.
        if (!(e instanceof ApiError && e.status === 404) || !phone) throw e;
      }
    }
    return trackOrder({ number, phone });
  };
  return (
    <LiveOrderStatus
      key={`${number}:${loggedIn ? 'account' : 'guest'}`}
      initial={initial}
      fetchStatus={fetchStatus}
      intervalMs={loggedIn ? LIVE_POLL_MS.account : LIVE_POLL_MS.tracking}
      timeZone={timeZone}
      documentsHref={loggedIn ? '/my-account#documents-title' : null}
    />
  );
}
