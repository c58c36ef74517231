/**
 * Merging two profiles of one person, on the customer profile (issue 31; contract:
 * packages/domain/src/console-api/customers.ts; operators: docs/operators/customers.md).
 *  - "Merge with another profile" (customers:merge) opens a dialog: find the other profile, then a
 *    side-by-side confirmation of both with what will move (a dry run on the server), then the
 *    result with "Undo merge". The profile whose page this is stays; the chosen one goes into it.
 *  - Merges into this profile that can still be undone are listed with "Undo merge" until their
 *    24 hours are over.
 *  - A merged profile's page says "Merged into <name>" with a link.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Dialog } from '../components/Dialog.tsx';
import { ErrorNote } from '../components/ui.tsx';
import { api, errorText, query } from '../lib/api.ts';
import { date, dateTime } from '../lib/format.ts';
import type { CustomerList, CustomerListItem, CustomerMerge, CustomerMergePreview, CustomerMergeSide, CustomerProfile } from '../lib/types.ts';

/** What moved, per table, in words staff use. */
const MOVED_LABELS: Record<string, [string, string]> = {
  orders: ['order', 'orders'],
  loyalty_ledger: ['points history entry', 'points history entries'],
  uploads: ['document', 'documents'],
  document_views: ['document view', 'document views'],
  consent_events: ['consent record', 'consent records'],
  reviews: ['review', 'reviews'],
  review_votes: ['helpful vote', 'helpful votes'],
  stock_watches: ['back-in-stock alert', 'back-in-stock alerts'],
  customer_notes: ['staff note', 'staff notes'],
  customer_addresses: ['address', 'addresses'],
  carts: ['cart', 'carts'],
  message_deliveries: ['message', 'messages'],
  newsletter_subscribers: ['newsletter subscription', 'newsletter subscriptions'],
  refresh_tokens: ['signed-in session (ended)', 'signed-in sessions (ended)'],
  order_events: ['order timeline entry', 'order timeline entries'],
  customers: ['profile merged into it before', 'profiles merged into it before'],
};

/** What moved, as a list; `points`: the merged balance (the account row itself is not worth a line). */
export function movedText(moved: Record<string, number>, points?: number): string[] {
  const lines = points ? [`${points.toLocaleString('en-US')} ${points === 1 ? 'point' : 'points'}`] : [];
  return lines.concat(Object.entries(moved)
    .filter(([table, n]) => n > 0 && table !== 'loyalty_accounts')
    .map(([table, n]) => {
      const [one, many] = MOVED_LABELS[table] ?? [table.replace(/_/g, ' '), table.replace(/_/g, ' ')];
      return `${n} ${n === 1 ? one : many}`;
    }));
}

/** The banner of a merged profile: where it went. */
export function MergedInto({ profile: p, storeId }: { profile: CustomerProfile; storeId: number }) {
  if (!p.merged_into) return null;
  return (
    <div className="card mb-4 border-amber-400 bg-amber-50" data-testid="customer-merged-into">
      <p className="font-semibold">
        Merged into{' '}
        <Link className="link" to={`/stores/${storeId}/customers/${p.merged_into.id}`}>
          {p.merged_into.name || `profile #${p.merged_into.id}`}
        </Link>
      </p>
      <p className="text-sm text-stone-800">This profile owns nothing any more: its orders, points and documents are on that one. Logging in with its phone or e-mail lands there.</p>
    </div>
  );
}

/** The merge button, the standing merges with "Undo merge", and the dialog. */
export function MergePanel({ profile: p, storeId, timeZone, onChanged }: { profile: CustomerProfile; storeId: number; timeZone: string; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  if (!p.can_merge || p.merged_into) return null;

  const undo = async (m: CustomerMerge) => {
    setBusy(m.id);
    setError(null);
    try {
      await api<CustomerMerge>('POST', `/stores/${storeId}/customers/merges/${m.id}/undo`, {});
      setNotice(`Merge undone: ${m.merged.name || 'the other profile'} has its own orders, points and documents again.`);
      onChanged();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="customer-merge-heading" className="card mb-4 grid gap-3" data-testid="customer-merge">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="customer-merge-heading" className="text-lg font-semibold">
          Duplicate profiles
        </h2>
        <button type="button" className="btn-secondary" onClick={() => setOpen(true)}>
          Merge with another profile
        </button>
      </div>
      <div role="status" className="font-medium text-green-900">
        {notice}
      </div>
      <ErrorNote>{error}</ErrorNote>
      {p.merges.length > 0 && (
        <ul className="grid gap-2" aria-label="Recent merges into this profile">
          {p.merges.map((m) => (
            <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 border-t border-stone-200 pt-2">
              <span className="min-w-0 break-words">
                <Link className="link" to={`/stores/${storeId}/customers/${m.merged.id}`}>
                  {m.merged.name || `Profile #${m.merged.id}`}
                </Link>{' '}
                merged in by {m.merged_by}, {dateTime(m.merged_at, timeZone)}. Can be undone until {dateTime(m.undo_until, timeZone)}.
              </span>
              <button type="button" className="btn-secondary" disabled={busy === m.id} onClick={() => void undo(m)}>
                Undo merge<span className="sr-only"> of {m.merged.name || `profile #${m.merged.id}`}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <MergeDialog
        open={open}
        survivor={p}
        storeId={storeId}
        timeZone={timeZone}
        onClose={() => setOpen(false)}
        onMerged={(m) => {
          setNotice(`${m.merged.name || 'The other profile'} was merged into this profile.`);
          onChanged();
        }}
        onUndone={() => {
          setNotice('Merge undone.');
          onChanged();
        }}
      />
    </section>
  );
}

type Step = { kind: 'search' } | { kind: 'confirm'; preview: CustomerMergePreview } | { kind: 'done'; merge: CustomerMerge };

function MergeDialog(props: {
  open: boolean;
  survivor: CustomerProfile;
  storeId: number;
  timeZone: string;
  onClose: () => void;
  onMerged: (m: CustomerMerge) => void;
  onUndone: () => void;
}) {
  const { survivor, storeId, timeZone } = props;
  const [step, setStep] = useState<Step>({ kind: 'search' });
  const [typed, setTyped] = useState('');
  const [found, setFound] = useState<CustomerListItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const searchId = useId();
  const stepHeading = useRef<HTMLHeadingElement>(null);
  // Each new step puts focus on its heading (the button that led there is gone).
  useEffect(() => {
    if (step.kind !== 'search') stepHeading.current?.focus();
  }, [step]);

  const close = () => {
    setStep({ kind: 'search' });
    setFound(null);
    setTyped('');
    setError(null);
    props.onClose();
  };

  const search = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const list = await api<CustomerList>('GET', `/stores/${storeId}/customers${query({ q: typed.trim() || undefined })}`);
      setFound(list.items.filter((c) => c.id !== survivor.id));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const choose = async (c: CustomerListItem) => {
    setError(null);
    setBusy(true);
    try {
      const preview = await api<CustomerMergePreview>('GET', `/stores/${storeId}/customers/${survivor.id}/merge-preview${query({ merged: c.id })}`);
      setStep({ kind: 'confirm', preview });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const merge = async (preview: CustomerMergePreview) => {
    setError(null);
    setBusy(true);
    try {
      const m = await api<CustomerMerge>('POST', `/stores/${storeId}/customers/${survivor.id}/merge`, { merged: preview.merged.id });
      setStep({ kind: 'done', merge: m });
      props.onMerged(m);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const undo = async (m: CustomerMerge) => {
    setError(null);
    setBusy(true);
    try {
      const undone = await api<CustomerMerge>('POST', `/stores/${storeId}/customers/merges/${m.id}/undo`, {});
      setStep({ kind: 'done', merge: undone });
      props.onUndone();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title="Merge with another profile" open={props.open} onClose={close}>
      {step.kind === 'search' && (
        <div className="grid gap-3">
          <p>
            Find the other profile of this person. It goes into <strong>{survivor.name || 'this profile'}</strong>, which stays.
          </p>
          <form role="search" onSubmit={search} className="flex flex-wrap items-end gap-2">
            <div className="grid min-w-0 flex-1 gap-1">
              <label htmlFor={searchId} className="font-semibold">
                Name, e-mail or phone
              </label>
              <input id={searchId} type="search" className="field w-full" value={typed} maxLength={100} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
            </div>
            <button type="submit" className="btn" disabled={busy}>
              Search
            </button>
          </form>
          <ErrorNote>{error}</ErrorNote>
          <div role="status" className="text-stone-700">
            {found && (found.length === 0 ? 'No other profile found.' : `${found.length} ${found.length === 1 ? 'profile' : 'profiles'} found.`)}
          </div>
          {found && found.length > 0 && (
            <ul className="grid max-h-72 gap-2 overflow-y-auto" aria-label="Profiles found">
              {found.map((c) => (
                <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 border-t border-stone-200 pt-2">
                  <span className="min-w-0 break-words">
                    <span className="font-medium">{c.name || 'No name given'}</span>
                    <span className="block text-sm text-stone-700">
                      ending {c.phone_last4}
                      {c.email ? ` · ${c.email}` : ''} · {c.orders_count} {c.orders_count === 1 ? 'order' : 'orders'}
                    </span>
                  </span>
                  {c.merged_into != null ? (
                    <span className="text-sm text-stone-700">Merged already</span>
                  ) : (
                    <button type="button" className="btn-secondary" disabled={busy} onClick={() => void choose(c)}>
                      Choose<span className="sr-only"> {c.name || `profile ending ${c.phone_last4}`}</span>
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {step.kind === 'confirm' && (
        <div className="grid gap-3">
          <h3 ref={stepHeading} tabIndex={-1} className="font-semibold">
            Check both profiles
          </h3>
          <div className="grid gap-3 sm:grid-cols-2">
            <SideCard title="Stays" side={step.preview.survivor} timeZone={timeZone} />
            <SideCard title="Goes into it" side={step.preview.merged} timeZone={timeZone} />
          </div>
          {step.preview.refusal ? (
            <ErrorNote>{step.preview.refusal}</ErrorNote>
          ) : (
            <div>
              <p className="font-semibold">What moves to {step.preview.survivor.name || 'the profile that stays'}</p>
              {movedText(step.preview.moves, step.preview.merged.points).length === 0 ? (
                <p>Nothing but the profile itself.</p>
              ) : (
                <ul className="list-disc pl-5" aria-label="What moves">
                  {movedText(step.preview.moves, step.preview.merged.points).map((t) => (
                    <li key={t}>{t}</li>
                  ))}
                </ul>
              )}
              <p className="mt-2 text-sm text-stone-700">
                The other profile is kept, marked as merged; logging in with its phone lands on this one. You can undo the merge for 24 hours.
              </p>
            </div>
          )}
          <ErrorNote>{error}</ErrorNote>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn" disabled={busy || step.preview.refusal != null} onClick={() => void merge(step.preview)}>
              Merge profiles
            </button>
            <button
              type="button"
              className="btn-secondary"
              onClick={() => {
                setStep({ kind: 'search' });
                setError(null);
              }}
            >
              Back
            </button>
          </div>
        </div>
      )}
      {step.kind === 'done' && (
        <div className="grid gap-3">
          <h3 ref={stepHeading} tabIndex={-1} className="font-semibold">
            {step.merge.undone_at ? 'Merge undone' : 'Profiles merged'}
          </h3>
          <div role="status">
            {step.merge.undone_at ? (
              <p>{step.merge.merged.name || 'The other profile'} has its own orders, points and documents again.</p>
            ) : (
              <>
                <p>
                  {step.merge.merged.name || 'The other profile'} is now part of {step.merge.survivor.name || 'this profile'}
                  {movedText(step.merge.moved).length ? `: ${movedText(step.merge.moved).join(', ')} moved.` : '.'}
                </p>
                <p className="text-sm text-stone-700">Can be undone until {dateTime(step.merge.undo_until, timeZone)}.</p>
              </>
            )}
          </div>
          <ErrorNote>{error}</ErrorNote>
          <div className="flex flex-wrap gap-2">
            {step.merge.can_undo && (
              <button type="button" className="btn-secondary" disabled={busy} onClick={() => void undo(step.merge)}>
                Undo merge
              </button>
            )}
            <button type="button" className="btn" onClick={close}>
              Done
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

function SideCard({ title, side, timeZone }: { title: string; side: CustomerMergeSide; timeZone: string }) {
  return (
    <section className="rounded border border-stone-300 p-3" aria-label={`${title}: ${side.name || 'no name given'}`}>
      <p className="text-sm font-semibold uppercase tracking-wide text-stone-700">{title}</p>
      <p className="font-semibold break-words">{side.name || 'No name given'}</p>
      <dl className="mt-1 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 text-sm">
        <dt className="text-stone-700">Phone</dt>
        <dd>ending {side.phone_last4}</dd>
        <dt className="text-stone-700">E-mail</dt>
        <dd className="[overflow-wrap:anywhere]">{side.email ?? '—'}</dd>
        <dt className="text-stone-700">Since</dt>
        <dd>{date(side.created_at, timeZone)}</dd>
        <dt className="text-stone-700">Orders</dt>
        <dd>{side.orders}</dd>
        <dt className="text-stone-700">Points</dt>
        <dd>{side.points.toLocaleString('en-US')}</dd>
      </dl>
    </section>
  );
}
