import { useEffect, useId, useRef, useState } from 'react';
import { useOnline } from '../../lib/use-online.ts';
import { useLocation, useNavigate } from 'react-router';
import { SYNC_COPY } from '../../offline/sync-task.ts';
import { formatDateTime } from '@verdant/domain';
import { useRootData, useStorePath } from '../../lib/root-data.ts';
import { announce } from '../../lib/announce.ts';
import { settleConfirmation, useOfflineOrders } from '../../state/use-offline-orders.ts';

/**
 * Orders made offline (issue 6): while offline, they are listed as saved on this device; when the
 * network returns, "Order waiting!" asks the shopper to confirm (automatic transmission is off by
 * default; the checkbox turns it on). An order is shown as placed only with the store's number.
 */
export function OfflineOrdersNotice() {
  const { store } = useRootData();
  const storePath = useStorePath();
  const navigate = useNavigate();
  const location = useLocation();
  const online = useOnline();
  const { orders, waiting, cart, checkout } = useOfflineOrders();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [auto, setAuto] = useState(false);
  const headingId = useId();
  const problemRef = useRef<HTMLParagraphElement>(null);
  const onThankYou = location.pathname.endsWith('/checkout') && location.search.includes('thank-you');

  useEffect(() => {
    if (!orders) return;
    void orders.automaticTransmission().then(setAuto);
  }, [orders]);

  // Back online: the cart syncs itself (useCartBoot); then the waiting orders are asked about, or sent.
  useEffect(() => {
    if (!orders) return;
    const back = async () => {
      const result = await orders.networkReturned({ onThankYouPage: onThankYou });
      if (result.kind === 'needs-confirmation') announce(`${SYNC_COPY.orderWaitingTitle} ${SYNC_COPY.orderWaitingMessage}`);
      if (result.kind === 'transmitted') {
        for (const { result: r } of result.results) {
          if (r.kind === 'placed') {
            await settleConfirmation(r, cart, checkout);
            navigate(`${storePath('/checkout')}?thank-you`);
          } else if (r.kind === 'refused') setProblem(r.message);
        }
      }
    };
    window.addEventListener('online', back);
    if (navigator.onLine) void back();
    return () => window.removeEventListener('online', back);
  }, [orders, cart, checkout, navigate, storePath, onThankYou]);

  useEffect(() => {
    if (problem) problemRef.current?.focus();
  }, [problem]);

  if (!orders || (waiting.length === 0 && !problem)) return null;

  const confirm = async (id: string) => {
    setBusy(true);
    setProblem(null);
    try {
      const result = await orders.confirm(id);
      if (result.kind === 'placed') {
        await settleConfirmation(result, cart, checkout);
        navigate(`${storePath('/checkout')}?thank-you`);
      } else if (result.kind === 'refused') {
        // The store's reason, word for word; the cart stays as it was so the shopper can change it.
        setProblem(result.message);
        await orders.removeSettled();
        void cart.getState().syncStock();
      } else if (result.kind === 'unsent') {
        setProblem('The store could not be reached. Your order is still saved on this device; confirm it again in a moment.');
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={headingId} className="border-b border-sky-300 bg-sky-50 px-4 py-3 text-sky-950">
      <div className="mx-auto flex max-w-7xl flex-col gap-2">
        <h2 id={headingId} className="font-semibold">
          {online ? SYNC_COPY.orderWaitingTitle : 'Order saved on this device'}
        </h2>
        {problem && (
          <p ref={problemRef} tabIndex={-1} role="alert" className="font-medium text-red-800">
            {problem}
          </p>
        )}
        {waiting.map((order) => {
          const payload = order.task.payload.body as { products?: { qty: number }[] } | undefined;
          const units = payload?.products?.reduce((n, p) => n + p.qty, 0) ?? 0;
          return (
            <div key={order.id} className="flex flex-wrap items-center gap-3">
              <p className="text-sm">
                {online
                  ? `You made an order offline (${units} item${units === 1 ? '' : 's'}) at ${formatDateTime(order.created_at, store.placeInfo.timezone)}. It is not placed until you confirm it.`
                  : 'You are offline. Your order is kept here and will be sent only when you confirm it back online.'}
              </p>
              {online && (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => void confirm(order.id)}
                  className="inline-flex min-h-11 items-center rounded-full bg-sky-800 px-5 text-sm font-semibold text-white hover:bg-sky-900 disabled:opacity-60"
                >
                  {SYNC_COPY.orderWaitingMessage}
                </button>
              )}
              <button
                type="button"
                disabled={busy}
                onClick={() => void orders.cancel(order.id)}
                className="inline-flex min-h-11 items-center rounded-full border border-sky-800 px-4 text-sm font-semibold text-sky-900 hover:bg-sky-100 disabled:opacity-60"
              >
                Cancel this order
              </button>
            </div>
          );
        })}
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={auto}
            onChange={(e) => {
              setAuto(e.target.checked);
              void orders.setAutomaticTransmission(e.target.checked);
            }}
            className="size-5"
          />
          Send orders made offline automatically when the connection returns
        </label>
      </div>
    </section>
  );
}
