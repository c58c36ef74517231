import { useEffect, useState, type FormEvent } from 'react';
import { Dialog } from '../components/Dialog.tsx';
import { Badge, ErrorNote } from '../components/ui.tsx';
import { api, errorText } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import type { ConsoleStore, DocumentState, DocumentView, OrderDetail, VerificationRequestBody } from '../lib/types.ts';

const DOC_LABELS = { id: 'ID', medcard: 'Medical card' } as const;
const STATE_LABELS: Record<DocumentState, string> = {
  none: 'Not provided',
  pending: 'Waiting for review',
  verified: 'Verified',
  rejected: 'Rejected',
};
/** What the shopper's account page says after a rejection (apps/web's documentStatusText). */
const SHOPPER_REJECTED = { id: 'ID: rejected: ', medcard: 'Medical card: rejected: ' } as const;
const tone = (s: DocumentState) => (s === 'verified' ? 'green' : s === 'rejected' ? 'red' : s === 'pending' ? 'amber' : 'stone');

type Document = 'id' | 'medcard';

/** The customer's ID and medical card: their review state and Verify / Reject (with a reason). */
export function VerificationPanel({
  order,
  store,
  onChanged,
}: {
  order: OrderDetail;
  store: ConsoleStore;
  onChanged: (text: string) => void;
}) {
  const uploads = order.uploads;
  const customer = order.customer;
  const [rejecting, setRejecting] = useState<Document | null>(null);
  // A card without its number or expiry on file: staff read them from the uploaded card (issue 26).
  const [reading, setReading] = useState(false);
  const [cardNumber, setCardNumber] = useState('');
  const [cardExpiry, setCardExpiry] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Issue 31: every fetch of an image is in the document view log; the panel shows it beside each document.
  const views = useResource(customer.id === null ? null : `${store.id}:${customer.id}`, () =>
    api<DocumentView[]>('GET', `/stores/${store.id}/customers/${customer.id}/document-views?limit=50`),
  );
  const reloadViews = views.reload;
  // A document opened in a new tab is logged there: read the log again when staff come back.
  useEffect(() => {
    const again = () => void reloadViews();
    window.addEventListener('focus', again);
    return () => window.removeEventListener('focus', again);
  }, [reloadViews]);
  if (customer.id === null) return <p className="text-stone-700">A guest order: documents are checked at the counter.</p>;
  const docs: Document[] = order.license_type === 'medical' ? ['id', 'medcard'] : ['id'];

  const cardMissing = !customer.medcard_number || !customer.medcard_expiry;

  async function decide(document: Document, decision: 'verified' | 'rejected', why?: string, card?: { number: string; expiry: string }) {
    setBusy(true);
    setError(null);
    try {
      const result = await api<{ releasedOrderIds?: number[] }>('POST', `/stores/${store.id}/customers/${customer.id}/verification`, {
        document,
        decision,
        ...(why ? { reason: why } : {}),
        ...(card
          ? { medcardNumber: card.number, medcardExpiry: card.expiry }
          : document === 'medcard' && decision === 'verified' && customer.medcard_expiry
            ? { medcardExpiry: customer.medcard_expiry }
            : {}),
      } satisfies VerificationRequestBody);
      setRejecting(null);
      setReading(false);
      setReason('');
      const released = result.releasedOrderIds?.includes(order.id) ? ' The order is no longer held: it can be confirmed.' : '';
      onChanged(`${DOC_LABELS[document]} ${decision === 'verified' ? 'verified' : 'rejected'}.${released}`);
      void reloadViews();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  const submitReject = (event: FormEvent) => {
    event.preventDefault();
    if (rejecting && reason.trim()) void decide(rejecting, 'rejected', reason.trim());
  };

  return (
    <>
      {!rejecting && !reading && <ErrorNote>{error}</ErrorNote>}
      <ul className="grid gap-3">
        {docs.map((doc) => {
          const state = doc === 'id' ? customer.id_status : customer.medcard_status;
          const why = doc === 'id' ? customer.id_review_reason : customer.medcard_review_reason;
          return (
            <li key={doc} className="grid gap-2 rounded border border-stone-300 p-3">
              <div className="flex flex-wrap items-center gap-3">
                <span className="min-w-28 font-semibold">{DOC_LABELS[doc]}</span>
                <Badge tone={tone(state)}>{STATE_LABELS[state]}</Badge>
              </div>
              {why && <p className="text-sm text-stone-700 [overflow-wrap:anywhere]">Reason: {why}</p>}
              {/* The upload beside its buttons: staff look at the document they are about to verify. */}
              <DocumentUploads
                uploads={uploads.filter((u) => u.kind === doc)}
                label={DOC_LABELS[doc]}
                timeZone={store.timezone}
                onShown={() => void reloadViews()}
              />
              <ViewLog views={(views.data ?? []).filter((v) => v.document === doc)} label={DOC_LABELS[doc]} timeZone={store.timezone} />
              <span className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className="btn-secondary"
                  disabled={busy || state === 'verified'}
                  aria-label={`Verify ${DOC_LABELS[doc]}`}
                  onClick={() => {
                    if (doc === 'medcard' && cardMissing) {
                      setCardNumber(customer.medcard_number ?? '');
                      setCardExpiry(customer.medcard_expiry?.slice(0, 10) ?? '');
                      setReading(true);
                    } else void decide(doc, 'verified');
                  }}
                >
                  Verify
                </button>
                <button
                  type="button"
                  className="btn-secondary"
                  disabled={busy}
                  aria-label={`Reject ${DOC_LABELS[doc]}`}
                  onClick={() => setRejecting(doc)}
                >
                  Reject
                </button>
              </span>
            </li>
          );
        })}
      </ul>
      <Dialog title="Verify the medical card" open={reading} onClose={() => setReading(false)}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (cardNumber.trim().length >= 2 && cardExpiry) void decide('medcard', 'verified', undefined, { number: cardNumber.trim(), expiry: cardExpiry });
          }}
          className="grid gap-4"
        >
          <ErrorNote>{error}</ErrorNote>
          <p className="text-stone-700">The account has no card number or expiry date yet: read them from the uploaded card.</p>
          <div>
            <label htmlFor="verify-medcard-number">Card number</label>
            <input id="verify-medcard-number" className="field" required minLength={2} maxLength={64} value={cardNumber} onChange={(e) => setCardNumber(e.target.value)} />
          </div>
          <div>
            <label htmlFor="verify-medcard-expiry">Expiry date</label>
            <input id="verify-medcard-expiry" type="date" className="field" required value={cardExpiry} onChange={(e) => setCardExpiry(e.target.value)} />
          </div>
          <button type="submit" className="btn" disabled={busy || cardNumber.trim().length < 2 || !cardExpiry}>
            Verify
          </button>
        </form>
      </Dialog>
      <Dialog
        title={`Reject the ${rejecting ? DOC_LABELS[rejecting].toLowerCase() : 'document'}`}
        open={rejecting !== null}
        onClose={() => setRejecting(null)}
      >
        <form onSubmit={submitReject} className="grid gap-4">
          <ErrorNote>{error}</ErrorNote>
          <div>
            <label htmlFor="reject-reason">Reason (the customer is told)</label>
            <p id="reject-reason-help" className="text-sm text-stone-700">
              The shopper reads on their account page: “{rejecting ? SHOPPER_REJECTED[rejecting] : ''}” and your reason. Their held
              orders stay held until a new {rejecting === 'medcard' ? 'card' : 'ID'} is uploaded and verified.
            </p>
            <textarea
              id="reject-reason"
              className="field"
              rows={3}
              required
              maxLength={300}
              aria-describedby="reject-reason-help"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          </div>
          <button type="submit" className="btn-danger" disabled={busy || !reason.trim()}>
            Reject the {rejecting ? DOC_LABELS[rejecting].toLowerCase() : 'document'}
          </button>
        </form>
      </Dialog>
    </>
  );
}

/** A document's uploads (the latest is kept): a preview of a picture and a link that opens the file; a deleted image says so. */
function DocumentUploads({
  uploads,
  label,
  timeZone,
  onShown,
}: {
  uploads: OrderDetail['uploads'];
  label: string;
  timeZone: string;
  onShown: () => void;
}) {
  if (uploads.length === 0) return <p className="text-sm text-stone-700">Nothing uploaded: check it at the counter.</p>;
  return (
    <ul className="grid gap-2">
      {uploads.map((u) => {
        const name = `${label} uploaded ${dateTime(u.created_at, timeZone)}`;
        if (u.deleted_at)
          return (
            <li key={u.id} className="min-w-0 text-sm text-stone-700">
              The {name} was deleted {dateTime(u.deleted_at, timeZone)} after the check, as the store’s data retention says. The decision is kept.
            </li>
          );
        return (
          <li key={u.id} className="min-w-0">
            {u.mime.startsWith('image/') && <img src={u.url} alt={name} onLoad={onShown} className="mb-1 max-h-48 max-w-full rounded border border-stone-300" />}
            <a href={u.url} target="_blank" rel="noopener noreferrer" className="link [overflow-wrap:anywhere]">
              Open the {name} ({u.mime === 'application/pdf' ? 'PDF, ' : ''}new tab)
            </a>
          </li>
        );
      })}
    </ul>
  );
}

const ROLE_LABELS: Record<string, string> = { owner: 'owner', manager: 'manager', budtender: 'budtender', driver: 'driver' };

/** Who looked at the document's images (newest first; the last five, with the count of all read). */
function ViewLog({ views, label, timeZone }: { views: DocumentView[]; label: string; timeZone: string }) {
  const named = label === 'ID' ? label : label.toLowerCase();
  if (views.length === 0) return <p className="text-sm text-stone-700">No one has viewed the {named} image yet.</p>;
  const shown = views.slice(0, 5);
  return (
    <div className="text-sm text-stone-700">
      <p className="font-semibold">
        {label} views ({views.length === 50 ? '50 or more' : views.length}):
      </p>
      <ul aria-label={`Who viewed the ${named}`} className="grid gap-0.5">
        {shown.map((v) => (
          <li key={v.id} className="[overflow-wrap:anywhere]">
            Viewed by {v.staff.name} ({ROLE_LABELS[v.staff.role] ?? v.staff.role}) at {dateTime(v.viewed_at, timeZone)}
            {v.order ? ` — order #${v.order.increment_id}` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}
