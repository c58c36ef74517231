import { CANCEL_REASONS, CANCEL_REASON_LABELS, type CancelReason } from '@verdant/domain';
import { holdText, readyByText, showsReadyBy, statusLabel, stepTime, timelineOf, type OrderStatusView } from '../../lib/order-status.ts';
import { StoreLink } from '../store/StoreLink.tsx';

interface Props {
  order: OrderStatusView;
  /** The store's time zone: every time is shown as the store's clock says it, M/D/YYYY HH:mm (spec §1). */
  timeZone: string;
  /** Where the shopper uploads documents (account pages); null where there is no account (order tracking). */
  documentsHref?: string | null;
}

const isCancelReason = (v: string | null | undefined): v is CancelReason => !!v && (CANCEL_REASONS as readonly string[]).includes(v);

/**
 * An order's status as a timeline (issue 12): the steps its type takes, each with the time it was
 * reached, `aria-current="step"` on the one it is at; the ready-by time once confirmed; why it was
 * cancelled; what verification holds it. The same for the account, the thank-you page and order tracking.
 */
export function OrderTimeline({ order, timeZone, documentsHref = null }: Props) {
  const steps = timelineOf(order);
  const hold = holdText(order.hold);
  const cancelled = order.status === 'cancelled' || order.status === 'no_show';
  return (
    <div className="space-y-4">
      <p className="text-lg">
        Status: <strong data-testid="order-status-label">{statusLabel(order)}</strong>
        {showsReadyBy(order) && order.ready_by ? (
          <>
            {' · '}
            <strong data-testid="order-ready-by">
              <time dateTime={order.ready_by}>{readyByText(order.ready_by, timeZone)}</time>
            </strong>
          </>
        ) : null}
      </p>
      {hold ? (
        <p data-testid="order-hold" className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
          <strong>Held for verification:</strong> {hold}{' '}
          {documentsHref ? (
            <StoreLink to={documentsHref} className="font-semibold underline underline-offset-2">
              Check or upload your documents
            </StoreLink>
          ) : null}
        </p>
      ) : null}
      {cancelled && (order.cancel_reason || order.cancel_message) ? (
        <div data-testid="order-cancelled" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-950">
          {isCancelReason(order.cancel_reason) ? (
            <p>
              <strong>Reason:</strong> {CANCEL_REASON_LABELS[order.cancel_reason]}
            </p>
          ) : null}
          {order.cancel_message ? <p>{order.cancel_message}</p> : null}
        </div>
      ) : null}
      <ol aria-label="Order progress" data-testid="order-timeline" className="space-y-0">
        {steps.map((step, i) => (
          <li key={step.status} aria-current={step.state === 'current' ? 'step' : undefined} className="relative flex gap-3 pb-4 last:pb-0">
            <span aria-hidden="true" className="flex flex-col items-center">
              <span
                className={`mt-1 block size-3.5 rounded-full border-2 ${
                  step.state === 'upcoming'
                    ? 'border-stone-400 bg-white'
                    : step.state === 'current'
                      ? 'border-brand bg-brand ring-4 ring-brand/20'
                      : 'border-brand bg-brand'
                }`}
              />
              {i < steps.length - 1 ? <span className="mt-1 block w-0.5 flex-1 bg-stone-300" /> : null}
            </span>
            <span className="min-w-0">
              <span
                className={`block ${step.state === 'current' ? 'font-bold text-stone-900' : step.state === 'done' ? 'font-medium text-stone-900' : 'text-stone-600'}`}
              >
                {step.label}
                {step.state === 'current' ? <span className="sr-only"> (current step)</span> : null}
              </span>
              {step.at ? (
                <time dateTime={step.at} className="block text-sm text-stone-700 tabular-nums">
                  {stepTime(step.at, timeZone)}
                </time>
              ) : (
                <span className="block text-sm text-stone-600">{step.state === 'upcoming' ? 'Not yet' : ''}</span>
              )}
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}
