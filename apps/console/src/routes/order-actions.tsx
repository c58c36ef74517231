import { useState, type FormEvent } from 'react';
import {
  ageOn,
  CANCEL_REASON_LABELS,
  CANCEL_REASON_MESSAGES,
  CANCEL_REASONS,
  cancelStockText,
  ORDER_ACTION_LABELS,
  ORDER_STATUS_LABELS,
  type CancelReason,
  type OrderStatus,
  slotLabel,
  zonedInstant,
} from '@verdant/domain';
import { Dialog } from '../components/Dialog.tsx';
import { ErrorNote } from '../components/ui.tsx';
import { api, ApiFailure, errorText } from '../lib/api.ts';
import { dayIn, timeIn } from '../lib/format.ts';
import type { ConsoleStore, OrderDetail, TransitionRequest } from '../lib/types.ts';

/** A lifecycle move as the server takes it (POST …/transitions). */
export type TransitionInput = TransitionRequest;

/** What a refused move tells staff: another member moved the order first (409), or the form's fault (400). */
export function transitionError(err: unknown): { text: string; stale: boolean } {
  if (err instanceof ApiFailure && err.status === 409 && err.errorCode === 'transition_not_allowed') {
    const status = err.meta?.status as OrderStatus | undefined;
    const label = status && status in ORDER_STATUS_LABELS ? ORDER_STATUS_LABELS[status] : 'different';
    return { text: `Someone else already moved this order: it is now ${label}.`, stale: true };
  }
  return { text: errorText(err), stale: false };
}

type Open = null | 'confirm' | 'complete' | 'cancel' | 'mark_no_show';

/**
 * The moves the server offers for this order (`actions`), as buttons. A blocked move stays visible,
 * disabled, with the reason next to it. Moves that need input open a dialog.
 */
export function OrderActions({
  order,
  store,
  onMoved,
  onStale,
}: {
  order: OrderDetail;
  store: ConsoleStore;
  onMoved: (detail: OrderDetail, text: string) => void;
  onStale: (text: string) => void;
}) {
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [errorCode, setErrorCode] = useState<string | null>(null);

  async function move(input: TransitionInput): Promise<boolean> {
    setBusy(true);
    setError(null);
    setErrorCode(null);
    try {
      const detail = await api<OrderDetail>('POST', `/stores/${store.id}/orders/${order.id}/transitions`, input);
      setOpen(null);
      onMoved(detail, `Order #${order.increment_id}: ${ORDER_STATUS_LABELS[detail.status]}.`);
      return true;
    } catch (err) {
      const { text, stale } = transitionError(err);
      if (stale) {
        setOpen(null);
        onStale(text);
      } else {
        setError(text);
        setErrorCode(err instanceof ApiFailure ? (err.errorCode ?? null) : null);
      }
      return false;
    } finally {
      setBusy(false);
    }
  }

  if (order.actions.length === 0)
    return <p className="text-stone-700">This order is {ORDER_STATUS_LABELS[order.status].toLowerCase()}: nothing more to do.</p>;

  return (
    <>
      {!open && <ErrorNote>{error}</ErrorNote>}
      <ul className="flex flex-wrap items-start gap-3" aria-label="Order actions">
        {order.actions.map(({ action, blockedBy }) => {
          const reasonId = `blocked-${action}`;
          const direct = action === 'mark_ready' || action === 'send_out';
          return (
            <li key={action} className="max-w-xs">
              <button
                type="button"
                className={action === 'cancel' ? 'btn-danger' : action === 'mark_no_show' ? 'btn-secondary' : 'btn'}
                disabled={!!blockedBy || busy}
                aria-describedby={blockedBy ? reasonId : undefined}
                onClick={() => {
                  setError(null);
                  if (direct) void move({ action });
                  else setOpen(action as Open);
                }}
              >
                {ORDER_ACTION_LABELS[action]}
              </button>
              {blockedBy && (
                <p id={reasonId} className="mt-1 text-sm text-stone-700">
                  {blockedBy}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={open === 'confirm'}
        order={order}
        store={store}
        busy={busy}
        error={error}
        errorCode={errorCode}
        onClose={() => setOpen(null)}
        onSubmit={(readyBy, confirmClosed) => move({ action: 'confirm', readyBy, ...(confirmClosed ? { confirmClosed } : {}) })}
      />
      <CompleteDialog
        open={open === 'complete'}
        order={order}
        busy={busy}
        error={error}
        onClose={() => setOpen(null)}
        onSubmit={(checks) => move({ action: 'complete', ...checks })}
      />
      <CancelDialog
        open={open === 'cancel'}
        busy={busy}
        error={error}
        onClose={() => setOpen(null)}
        onSubmit={(reason, message) => move({ action: 'cancel', reason, ...(message ? { message } : {}) })}
      />
      <Dialog title="Mark as no-show" open={open === 'mark_no_show'} onClose={() => setOpen(null)}>
        <ErrorNote>{error}</ErrorNote>
        <p className="mb-4">The customer did not pick up the order in the pickup window. Its items go back to stock.</p>
        <button type="button" className="btn" disabled={busy} onClick={() => void move({ action: 'mark_no_show' })}>
          Mark as no-show
        </button>
      </Dialog>
    </>
  );
}

interface DialogProps {
  open: boolean;
  busy: boolean;
  error: string | null;
  onClose: () => void;
}

/** The instant of a store-local date (YYYY-MM-DD) and time (HH:MM). */
function localInstant(date: string, time: string, timeZone: string): Date | null {
  const m = /^(\d{2}):(\d{2})$/.exec(time);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !m) return null;
  const at = zonedInstant(date, Number(m[1]) * 60 + Number(m[2]), timeZone);
  return Number.isNaN(at.getTime()) ? null : at;
}

const BASIS_TEXT = {
  slot: 'the start of the time slot the shopper booked',
  soon: 'twenty minutes from now',
  next_open: 'when the store next opens',
} as const;

/**
 * Confirm with a ready-by (issue 26): the form starts at the booked slot's start (or twenty minutes
 * from now while open, or the next opening), shows the slot, and a time while the store is closed
 * needs "Store closed — confirm anyway" ticked (the server refuses it otherwise).
 */
function ConfirmDialog({
  open,
  order,
  store,
  busy,
  error,
  errorCode,
  onClose,
  onSubmit,
}: DialogProps & {
  order: OrderDetail;
  store: ConsoleStore;
  errorCode: string | null;
  onSubmit: (readyBy: string, confirmClosed: boolean) => Promise<boolean>;
}) {
  const tz = store.timezone;
  const plan = order.ready_by_plan ?? null;
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const [insist, setInsist] = useState(false);
  const [openedFor, setOpenedFor] = useState(false);
  // Set while rendering (not in an effect) so the dialog opens with the time already in the fields.
  if (open && !openedFor) {
    setOpenedFor(true);
    const start = plan ? new Date(plan.default) : new Date(Date.now() + 20 * 60_000);
    setDate(dayIn(start, tz));
    setTime(timeIn(start, tz));
    setInsist(false);
  } else if (!open && openedFor) setOpenedFor(false);

  const when = localInstant(date, time, tz);
  const closed =
    !!when && !!plan && !plan.open.some((i) => Date.parse(i.start) <= when.getTime() && when.getTime() <= Date.parse(i.end));
  const mustInsist = closed || errorCode === 'store_closed';
  const past = !!when && when.getTime() <= Date.now();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (when && !past && (!mustInsist || insist)) void onSubmit(when.toISOString(), mustInsist && insist);
  };
  const slot = order.slot_start && order.slot_end ? slotLabel(order.slot_start, order.slot_end, tz) : null;
  return (
    <Dialog title="Confirm the order" open={open} onClose={onClose}>
      <form onSubmit={submit} className="grid gap-4">
        <ErrorNote>{error}</ErrorNote>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1" aria-label="Booking">
          <dt className="font-medium">Time slot</dt>
          <dd data-testid="confirm-slot">{slot ?? 'None booked (as soon as possible)'}</dd>
          {plan && (
            <>
              <dt className="font-medium">Store now</dt>
              <dd>{plan.status_label}</dd>
            </>
          )}
        </dl>
        <fieldset className="grid gap-2">
          <legend className="font-medium">When it will be ready</legend>
          <p id="ready-by-help" className="text-sm text-stone-700">
            The shopper sees this time. Store time ({tz}).
            {plan ? ` Suggested: ${BASIS_TEXT[plan.basis]}.` : ''}
          </p>
          <div className="flex flex-wrap gap-3">
            <div>
              <label htmlFor="ready-by-date">Date</label>
              <input
                id="ready-by-date"
                className="field"
                type="date"
                required
                aria-describedby="ready-by-help"
                value={date}
                onChange={(e) => setDate(e.target.value)}
              />
            </div>
            <div>
              <label htmlFor="ready-by">Ready by</label>
              <input
                id="ready-by"
                className="field"
                type="time"
                required
                data-autofocus
                aria-describedby={`ready-by-help${mustInsist ? ' ready-by-closed' : ''}`}
                value={time}
                onChange={(e) => setTime(e.target.value)}
              />
            </div>
          </div>
          {past && <p className="text-sm text-red-800">That time has passed: choose a later one.</p>}
        </fieldset>
        {mustInsist && (
          <div className="rounded border border-amber-400 bg-amber-50 p-3">
            <p id="ready-by-closed" className="mb-2">
              The store is closed for {order.order_type} orders at that time.
            </p>
            <label className="flex items-start gap-2">
              <input type="checkbox" className="mt-1 size-5" checked={insist} onChange={(e) => setInsist(e.target.checked)} />
              <span>Store closed — confirm anyway</span>
            </label>
          </div>
        )}
        <button type="submit" className="btn" disabled={busy || !when || past || (mustInsist && !insist)}>
          Confirm the order
        </button>
      </form>
    </Dialog>
  );
}

function CompleteDialog({
  open,
  order,
  busy,
  error,
  onClose,
  onSubmit,
}: DialogProps & { order: OrderDetail; onSubmit: (checks: { idChecked: boolean; medcardChecked?: boolean }) => Promise<boolean> }) {
  const [idChecked, setIdChecked] = useState(false);
  const [medcardChecked, setMedcardChecked] = useState(false);
  const medical = order.license_type === 'medical';
  const birthday = order.customer.birthday;
  const age = birthday && /^\d{4}-\d{2}-\d{2}$/.test(birthday) ? ageOn(birthday, new Date()) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit(medical ? { idChecked, medcardChecked } : { idChecked }).then((ok) => {
      if (ok) {
        setIdChecked(false);
        setMedcardChecked(false);
      }
    });
  };
  return (
    <Dialog title="Complete the order" open={open} onClose={onClose}>
      <form onSubmit={submit} className="grid gap-4">
        <ErrorNote>{error}</ErrorNote>
        <fieldset className="grid gap-3">
          <legend className="mb-2 font-semibold">Before handing over</legend>
          <label className="flex items-start gap-2 font-normal">
            <input type="checkbox" className="mt-1 size-5" required checked={idChecked} onChange={(e) => setIdChecked(e.target.checked)} />
            <span>I checked the customer’s ID{age !== null ? ` (age ${age} today)` : ''}</span>
          </label>
          {medical && (
            <label className="flex items-start gap-2 font-normal">
              <input
                type="checkbox"
                className="mt-1 size-5"
                required
                checked={medcardChecked}
                onChange={(e) => setMedcardChecked(e.target.checked)}
              />
              <span>I checked the medical card</span>
            </label>
          )}
        </fieldset>
        <button type="submit" className="btn" disabled={busy || !idChecked || (medical && !medcardChecked)}>
          Complete the order
        </button>
      </form>
    </Dialog>
  );
}

function CancelDialog({
  open,
  busy,
  error,
  onClose,
  onSubmit,
}: DialogProps & { onSubmit: (reason: CancelReason, message: string) => Promise<boolean> }) {
  const [reason, setReason] = useState<CancelReason | ''>('');
  const [message, setMessage] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason) void onSubmit(reason, message.trim());
  };
  return (
    <Dialog title="Cancel the order" open={open} onClose={onClose}>
      <form onSubmit={submit} className="grid gap-4">
        <ErrorNote>{error}</ErrorNote>
        <div>
          <label htmlFor="cancel-reason">Reason</label>
          <select
            id="cancel-reason"
            className="field"
            required
            value={reason}
            onChange={(e) => setReason(e.target.value as CancelReason | '')}
          >
            <option value="">Choose a reason</option>
            {CANCEL_REASONS.map((r) => (
              <option key={r} value={r}>
                {CANCEL_REASON_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="cancel-message">Message to the shopper</label>
          <p id="cancel-message-help" className="text-sm text-stone-700">
            {reason ? `Left empty, the shopper reads: “${CANCEL_REASON_MESSAGES[reason]}”` : 'Sent with the cancellation.'}
          </p>
          <textarea
            id="cancel-message"
            className="field"
            rows={3}
            maxLength={500}
            aria-describedby="cancel-message-help"
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
        </div>
        <p id="cancel-stock" data-testid="cancel-stock" className="rounded border border-stone-300 bg-stone-50 px-3 py-2" aria-live="polite">
          {cancelStockText(reason)}
        </p>
        <button type="submit" className="btn-danger" disabled={busy || !reason} aria-describedby="cancel-stock">
          Cancel the order
        </button>
      </form>
    </Dialog>
  );
}
