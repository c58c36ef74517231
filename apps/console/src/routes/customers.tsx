/**
 * Customer records (issue 31; contract: packages/domain/src/console-api/customers.ts; operators:
 * docs/operators/customers.md). One module, two pages:
 *  - Customers: a search box (name, e-mail or a phone typed any way) and the matches as a list of
 *    cards — name, phone (masked to the last four digits for a budtender), e-mail, orders and the
 *    last one — that reads the same on a counter tablet and a 390 px phone;
 *  - the profile: contact, orders, spend, points and tier, verification and documents, consents,
 *    staff notes with the form to add one, reviews; merging with another profile (./customer-merge.tsx). The server leaves out what the role may not see
 *    (null); the page says so instead of showing an empty section.
 */
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ORDER_STATUS_LABELS } from '@verdant/domain';
import { Badge, ErrorNote, Facts, Loading, PageTitle, RecordSection } from '../components/ui.tsx';
import { api, errorText, query } from '../lib/api.ts';
import { date, dateTime, money, titleCase } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import type { CustomerList, CustomerListItem, CustomerNote, CustomerProfile } from '../lib/types.ts';
import { MergedInto, MergePanel } from './customer-merge.tsx';
import { useStore, useTitle } from './layout.tsx';
import { statusTone } from './queue.tsx';

function Section(props: { title: string; children: ReactNode; testId?: string }) {
  return <RecordSection {...props} idPrefix="customer" />;
}

const NOTE_MAX = 2000;

/** The phone as the role may see it: the number, or "ending 0142". */
function PhoneText({ phone, last4 }: { phone: string | null; last4: string }) {
  if (phone) return <span className="whitespace-nowrap">{phone}</span>;
  return <span className="whitespace-nowrap">•••-{last4}<span className="sr-only"> (number hidden: ending {last4})</span></span>;
}

const docTone = (s: string) => (s === 'verified' ? 'green' : s === 'rejected' ? 'red' : s === 'pending' ? 'amber' : 'stone');
const DOC_STATE: Record<string, string> = { none: 'Not sent', pending: 'Waiting for review', verified: 'Verified', rejected: 'Rejected' };

export function CustomersPage() {
  useTitle('Customers');
  const { store } = useStore();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [typed, setTyped] = useState(q);
  const list = useResource(`${store.id}:${q}:${page}`, () => api<CustomerList>('GET', `/stores/${store.id}/customers${query({ q: q || undefined, page })}`));
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.page_size)) : 1;
  const searchId = useId();
  const resultsId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = typed.trim();
    setParams(next ? { q: next } : {});
  };
  const goTo = (n: number) => setParams({ ...(q ? { q } : {}), page: String(n) });

  return (
    <>
      <PageTitle>Customers</PageTitle>
      <form role="search" onSubmit={submit} className="mb-4 flex max-w-2xl flex-wrap items-end gap-2">
        <div className="grid min-w-0 flex-1 gap-1">
          <label htmlFor={searchId} className="font-semibold">
            Name, e-mail or phone
          </label>
          <input
            id={searchId}
            type="search"
            className="field w-full"
            value={typed}
            maxLength={100}
            autoComplete="off"
            aria-describedby={`${searchId}-hint`}
            onChange={(e) => setTyped(e.target.value)}
          />
          <p id={`${searchId}-hint`} className="text-sm text-stone-700">
            The start of a first or last name, or both (“jane do”); an e-mail address; a phone number typed any way.
          </p>
        </div>
        <button type="submit" className="btn">
          Search
        </button>
      </form>
      <ErrorNote>{list.error}</ErrorNote>
      <div role="status" className="mb-2 text-stone-700">
        {list.data && !list.loading ? resultText(list.data) : ''}
      </div>
      {!list.data ? (
        list.loading && <Loading />
      ) : (
        list.data.items.length > 0 && (
          <ul id={resultsId} className="grid max-w-4xl gap-3" aria-label="Customers found">
            {list.data.items.map((c) => (
              <li key={c.id}>
                <CustomerCard customer={c} storeId={store.id} timeZone={store.timezone} />
              </li>
            ))}
          </ul>
        )
      )}
      {pages > 1 && (
        <nav aria-label="Customer pages" className="mt-4 flex flex-wrap items-center gap-3">
          <button type="button" className="btn-secondary" disabled={page <= 1} onClick={() => goTo(page - 1)}>
            Previous
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button type="button" className="btn-secondary" disabled={page >= pages} onClick={() => goTo(page + 1)}>
            Next
          </button>
        </nav>
      )}
    </>
  );
}

function resultText(list: CustomerList): string {
  const n = list.total === 1 ? '1 customer' : `${list.total} customers`;
  if (list.matched_by === 'all') return `${n} in this store, newest first.`;
  const how = list.matched_by === 'phone' ? 'with this phone number' : list.matched_by === 'email' ? 'by e-mail' : 'by name';
  return list.total === 0 ? `No customer found ${how}.` : `${n} found ${how}.`;
}

function CustomerCard({ customer: c, storeId, timeZone }: { customer: CustomerListItem; storeId: number; timeZone: string }) {
  return (
    <article className="card grid gap-1" data-testid="customer-result">
      <h2 className="text-lg font-semibold break-words">
        <Link className="link" to={`/stores/${storeId}/customers/${c.id}`}>
          {c.name || 'No name given'}
        </Link>
      </h2>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-stone-800">
        <PhoneText phone={c.phone} last4={c.phone_last4} />
        {c.email && <span className="[overflow-wrap:anywhere]">{c.email}</span>}
        <span>{titleCase(c.license_type)}</span>
      </p>
      {c.merged_into != null && (
        <p>
          <Link className="link" to={`/stores/${storeId}/customers/${c.merged_into}`}>
            Merged into another profile
          </Link>
        </p>
      )}
      <p className="text-sm text-stone-700">
        {c.orders_count === 0 ? 'No orders yet' : `${c.orders_count} ${c.orders_count === 1 ? 'order' : 'orders'}, last ${date(c.last_order_at, timeZone)}`}
      </p>
    </article>
  );
}

const NotShown = () => <p className="text-stone-700">Managers and owners see this part of the record.</p>;

export function CustomerProfilePage() {
  const { store } = useStore();
  const { customerId } = useParams();
  const profile = useResource(`${store.id}:${customerId}`, () => api<CustomerProfile>('GET', `/stores/${store.id}/customers/${customerId}`));
  const p = profile.data;
  useTitle(p ? `${p.name || 'Customer'} · Customers` : 'Customer');
  const tz = store.timezone;

  if (!p) return profile.error ? <ErrorNote>{profile.error}</ErrorNote> : <Loading />;
  const v = p.verification;
  return (
    <>
      <p className="mb-2">
        <Link className="link" to={`/stores/${store.id}/customers`}>
          ← Customers
        </Link>
      </p>
      <PageTitle>{p.name || 'No name given'}</PageTitle>
      <MergedInto profile={p} storeId={store.id} />
      <MergePanel profile={p} storeId={store.id} timeZone={tz} onChanged={() => void profile.reload()} />
      <div className="grid gap-4 lg:grid-cols-2">
        <Section title="Contact" testId="customer-contact">
          <Facts
            rows={[
              ['Phone', <PhoneText key="p" phone={p.phone} last4={p.phone_last4} />],
              ['E-mail', p.email],
              ['Licence', titleCase(p.license_type)],
              ['Date of birth', p.birthday ? date(p.birthday, tz) : null],
              ['Customer since', date(p.created_at, tz)],
            ]}
          />
        </Section>
        <Section title="Points" testId="customer-points">
          {!p.loyalty.enabled ? (
            <p>The store runs no loyalty programme.</p>
          ) : (
            <Facts
              rows={[
                ['Balance', `${p.loyalty.balance.toLocaleString('en-US')} ${p.loyalty.balance === 1 ? 'point' : 'points'}`],
                ['Tier', `${p.loyalty.tier.name} (${p.loyalty.tier.earn_rate} per dollar)`],
                ['Next tier', p.loyalty.next_tier ? `${p.loyalty.next_tier.name} after ${money(p.loyalty.next_tier.needed_cents)} more` : 'Top tier'],
                [`Spend, last ${p.loyalty.tier_window_days} days`, money(p.loyalty.tier_spend_cents)],
                ['Expires', p.loyalty.expiry ? dateTime(p.loyalty.expiry.expires_at, tz) : 'No expiry'],
                ...(p.loyalty.earns ? [] : ([['Earning', 'Not earning: the programme is for medical customers']] as [string, ReactNode][])),
              ]}
            />
          )}
        </Section>
        <Section title="Orders" testId="customer-orders">
          <p className="mb-2">
            {p.orders.count === 0 ? 'No orders yet.' : `${p.orders.count} ${p.orders.count === 1 ? 'order' : 'orders'}, last ${dateTime(p.orders.last_order_at, tz)}.`}
            {p.spend && ` Completed: ${p.spend.completed_count}, spent ${money(p.spend.total_cents)}.`}
          </p>
          {p.orders.recent.length > 0 && (
            <ul className="grid gap-2" aria-label="Recent orders">
              {p.orders.recent.map((o) => (
                <li key={o.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 border-t border-stone-200 pt-2">
                  <Link className="link font-medium" to={`/stores/${store.id}/orders/${o.id}`}>
                    {o.increment_id}
                  </Link>
                  <Badge tone={statusTone(o.status)}>{ORDER_STATUS_LABELS[o.status]}</Badge>
                  <span className="text-sm text-stone-700">
                    {dateTime(o.created_at, tz)} · {titleCase(o.order_type)} · {o.item_count} {o.item_count === 1 ? 'item' : 'items'}
                  </span>
                  <span className="font-medium">{money(o.total_cents)}</span>
                </li>
              ))}
            </ul>
          )}
        </Section>
        <Section title="Verification" testId="customer-verification">
          <Facts
            rows={[
              ['Phone', v.phone_verified_at ? `Confirmed by code, ${date(v.phone_verified_at, tz)}` : 'Not confirmed by code'],
              [
                'ID',
                <span key="id">
                  <Badge tone={docTone(v.id_status)}>{DOC_STATE[v.id_status] ?? v.id_status}</Badge>
                  {v.id_reviewed_by && ` by ${v.id_reviewed_by}, ${dateTime(v.id_reviewed_at, tz)}`}
                  {v.id_review_reason && ` — ${v.id_review_reason}`}
                </span>,
              ],
              [
                'Medical card',
                <span key="mc">
                  <Badge tone={docTone(v.medcard_status)}>{DOC_STATE[v.medcard_status] ?? v.medcard_status}</Badge>
                  {v.medcard_number && ` ${v.medcard_number}`}
                  {v.medcard_expiry && `, expires ${date(v.medcard_expiry, tz)}`}
                  {v.medcard_reviewed_by && ` · by ${v.medcard_reviewed_by}, ${dateTime(v.medcard_reviewed_at, tz)}`}
                  {v.medcard_review_reason && ` — ${v.medcard_review_reason}`}
                </span>,
              ],
            ]}
          />
          <h3 className="mt-3 font-semibold">Documents</h3>
          {v.documents.length === 0 ? (
            <p className="text-stone-700">No documents uploaded.</p>
          ) : (
            <ul className="mt-1 grid gap-1">
              {v.documents.map((d) => (
                <li key={d.id} className="break-words">
                  {d.deleted_at ? (
                    <span>
                      {d.kind === 'id' ? 'ID' : 'Medical card'} ({d.mime}), {dateTime(d.created_at, tz)} · image deleted{' '}
                      {dateTime(d.deleted_at, tz)} (data retention)
                    </span>
                  ) : (
                    <a className="link" href={d.url} target="_blank" rel="noreferrer">
                      {d.kind === 'id' ? 'ID' : 'Medical card'} ({d.mime}), {dateTime(d.created_at, tz)}
                    </a>
                  )}
                  {d.views && d.views.length > 0 && (
                    <span className="text-sm text-stone-700">
                      {' '}
                      · opened by {d.views.map((view) => `${view.staff_name} (${dateTime(view.at, tz)})`).join(', ')}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Section>
        <Section title="Consents" testId="customer-consents">
          {!p.consents ? (
            <NotShown />
          ) : (
            <>
              <table className="w-full text-left">
                <caption className="sr-only">Standing consent by channel and purpose</caption>
                <thead>
                  <tr>
                    <th scope="col">Channel</th>
                    <th scope="col">Purpose</th>
                    <th scope="col">Standing</th>
                  </tr>
                </thead>
                <tbody>
                  {p.consents.current.map((c) => (
                    <tr key={`${c.channel}-${c.purpose}`} className="border-t border-stone-200">
                      <td>{c.channel === 'sms' ? 'Text' : 'E-mail'}</td>
                      <td>{titleCase(c.purpose)}</td>
                      <td>
                        {c.state === 'none' ? (
                          <span>{c.purpose === 'marketing' ? 'Not given' : 'Order messages only'}</span>
                        ) : (
                          <span>
                            <Badge tone={c.state === 'granted' ? 'green' : 'red'}>{c.state === 'granted' ? 'Granted' : 'Withdrawn'}</Badge>{' '}
                            <span className="text-sm text-stone-700">{date(c.at, tz)}</span>
                          </span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <h3 className="mt-3 font-semibold">History</h3>
              {p.consents.history.length === 0 ? (
                <p className="text-stone-700">Nothing on record.</p>
              ) : (
                <ul className="mt-1 grid gap-1 text-sm">
                  {p.consents.history.map((e) => (
                    <li key={e.id} className="break-words">
                      {dateTime(e.at, tz)}: {e.action === 'granted' ? 'granted' : 'withdrew'} {e.purpose} {e.channel === 'sms' ? 'texts' : 'e-mail'} ({e.source.replace(/_/g, ' ')})
                      {e.words && <> — “{e.words}”</>}
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </Section>
        <Section title="Staff notes" testId="customer-notes">
          {!p.notes ? <NotShown /> : <Notes initial={p.notes} canNote={p.can_note} storeId={store.id} customerId={p.id} timeZone={tz} />}
        </Section>
        <Section title="Reviews" testId="customer-reviews">
          {p.reviews.length === 0 ? (
            <p className="text-stone-700">No reviews written.</p>
          ) : (
            <ul className="grid gap-1">
              {p.reviews.map((r) => (
                <li key={r.id} className="break-words">
                  <span role="img" aria-label={`${r.stars} out of 5 stars`} className="text-amber-900">
                    {'★'.repeat(r.stars)}
                    {'☆'.repeat(5 - r.stars)}
                  </span>{' '}
                  “{r.title}” on {r.product_name} · {titleCase(r.status)} · {date(r.created_at, tz)}
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>
    </>
  );
}

function Notes({ initial, canNote, storeId, customerId, timeZone }: { initial: CustomerNote[]; canNote: boolean; storeId: number; customerId: number; timeZone: string }) {
  const [notes, setNotes] = useState(initial);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  const fieldId = useId();
  const field = useRef<HTMLTextAreaElement>(null);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setError('Write the note first.');
      field.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const note = await api<CustomerNote>('POST', `/stores/${storeId}/customers/${customerId}/notes`, { text: text.trim() });
      setNotes((list) => [note, ...list]);
      setText('');
      setNotice('Note added.');
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {canNote && (
        <form onSubmit={add} className="mb-3 grid gap-2" aria-label="Add a note">
          <label htmlFor={fieldId} className="font-semibold">
            New note
          </label>
          <textarea
            id={fieldId}
            ref={field}
            className="field min-h-20 w-full"
            maxLength={NOTE_MAX}
            value={text}
            aria-describedby={`${fieldId}-hint`}
            onChange={(e) => setText(e.target.value)}
          />
          <p id={`${fieldId}-hint`} className="text-sm text-stone-700">
            Staff only; kept with your name and the time, never edited. {NOTE_MAX - text.length} characters left.
          </p>
          <ErrorNote>{error}</ErrorNote>
          <div>
            <button type="submit" className="btn" disabled={busy}>
              Add note
            </button>
          </div>
        </form>
      )}
      <div role="status" className="mb-2 font-medium text-green-900">
        {notice}
      </div>
      {notes.length === 0 ? (
        <p className="text-stone-700">No notes yet.</p>
      ) : (
        <ul className="grid gap-2" aria-label="Notes, newest first">
          {notes.map((n) => (
            <li key={n.id} className="border-t border-stone-200 pt-2">
              <p className="whitespace-pre-line break-words">{n.text}</p>
              <p className="text-sm text-stone-700">
                {n.author_name}, {dateTime(n.created_at, timeZone)}
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
