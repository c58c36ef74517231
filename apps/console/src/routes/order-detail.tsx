import { useEffect, useRef, useState, type ReactNode } from 'react';
import { CurbsideArrival } from '../components/CurbsideArrival.tsx';
import { Link, useParams } from 'react-router';
import { CANCEL_REASON_LABELS, formatAddress, isSizeId, ORDER_STATUS_LABELS, sizeLongLabel, type CancelReason } from '@verdant/domain';
import { slotLabel } from '@verdant/domain';
import { Address } from '../components/Address.tsx';
import { Badge, ErrorNote, Facts, Loading, RecordSection } from '../components/ui.tsx';
import { api } from '../lib/api.ts';
import { dateTime, money, titleCase } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import type { OrderDetail, OrderHistoryEntry } from '../lib/types.ts';
import { useStore, useTitle } from './layout.tsx';
import { OrderActions } from './order-actions.tsx';
import { OrderMessages } from './order-messages.tsx';
import { OrderDeals } from './order-deals.tsx';
import { HOLD_LABELS, statusTone } from './queue.tsx';
import { VerificationPanel } from './verification.tsx';

function Section(props: { title: string; children: ReactNode }) {
  return <RecordSection {...props} idPrefix="section" />;
}

function grams(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${Number(value.toFixed(3))} g`;
}

function historyText(entry: OrderHistoryEntry): string {
  if (entry.to_status && entry.from_status) return `${ORDER_STATUS_LABELS[entry.from_status]} → ${ORDER_STATUS_LABELS[entry.to_status]}`;
  if (entry.to_status) return ORDER_STATUS_LABELS[entry.to_status];
  return titleCase(entry.kind);
}

function historyDetails(entry: OrderHistoryEntry, timeZone: string): string | null {
  const data = entry.data ?? {};
  const parts: string[] = [];
  if (typeof data.readyBy === 'string' || typeof data.ready_by === 'string')
    parts.push(`ready by ${dateTime(String(data.readyBy ?? data.ready_by), timeZone)}`);
  if (typeof data.reason === 'string') parts.push(`reason: ${CANCEL_REASON_LABELS[data.reason as CancelReason] ?? data.reason}`);
  if (typeof data.message === 'string' && data.message) parts.push(`message: “${data.message}”`);
  if (data.idChecked === true || data.id_checked === true) parts.push('ID checked');
  if (data.medcardChecked === true || data.medcard_checked === true) parts.push('medical card checked');
  if (typeof data.document === 'string' && typeof data.decision === 'string')
    parts.push(`${data.document === 'medcard' ? 'medical card' : 'ID'} ${data.decision}`);
  return parts.length ? parts.join('; ') : null;
}

export function OrderPage() {
  const { orderId } = useParams();
  const { store, lastEvent, liveTick, markSeen, now } = useStore();
  const order = useResource(`${store.id}/${orderId}`, () => api<OrderDetail>('GET', `/stores/${store.id}/orders/${orderId}`));
  const [notice, setNotice] = useState<{ text: string; tone: 'ok' | 'warn' } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // After a move the heading takes focus (the button that opened it is gone); in an effect, so it runs after the dialog closed.
  const [focusHeading, setFocusHeading] = useState(0);
  useEffect(() => {
    if (focusHeading) headingRef.current?.focus();
  }, [focusHeading]);
  useTitle(order.data ? `Order #${order.data.increment_id}` : 'Order');

  useEffect(() => {
    markSeen(Number(orderId));
  }, [orderId, markSeen]);

  // Opening an order (issue 26): focus on its heading once it has loaded, so a screen reader starts there.
  const focusedFor = useRef<string | null>(null);
  const loadedId = order.data ? String(order.data.id) : null;
  useEffect(() => {
    if (loadedId && loadedId === orderId && focusedFor.current !== orderId) {
      focusedFor.current = orderId;
      headingRef.current?.focus();
    }
  }, [loadedId, orderId]);

  // Someone else moved this order (another till, auto-confirm): read it again.
  useEffect(() => {
    // A curbside arrival (issue 29) changes no version: read it again too.
    if (lastEvent && String(lastEvent.order_id) === orderId && (!order.data || lastEvent.version > order.data.version || lastEvent.curbside))
      void order.reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [liveTick]);

  if (!order.data) {
    return order.error ? (
      <>
        <ErrorNote>{order.error}</ErrorNote>
        <Link to={`/stores/${store.id}/orders`} className="link">
          Back to the orders
        </Link>
      </>
    ) : (
      <Loading label="Loading the order…" />
    );
  }
  const o = order.data;
  const c = o.customer;
  const address = formatAddress(o.shipping_address) ? o.shipping_address : null;

  return (
    <article aria-labelledby="order-title" className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <p>
        <Link to={`/stores/${store.id}/orders`} className="link">
          ← All orders
        </Link>
      </p>
      <header className="flex flex-wrap items-center gap-3">
        <h1 id="order-title" ref={headingRef} tabIndex={-1} className="text-2xl font-semibold">
          Order #{o.increment_id}
        </h1>
        <Badge tone={statusTone(o.status)}>{ORDER_STATUS_LABELS[o.status]}</Badge>
        <Badge>{o.order_type === 'pickup' ? 'Pickup' : 'Delivery'}</Badge>
        <Badge>{o.license_type === 'medical' ? 'Medical' : 'Recreational'}</Badge>
        {o.hold.map((h) => (
          <Badge key={h} tone="red">
            Held: {HOLD_LABELS[h]}
          </Badge>
        ))}
      </header>
      {o.curbside && o.status === 'ready_for_pickup' ? <CurbsideArrival arrival={o.curbside} now={now} timeZone={store.timezone} /> : null}
      <div role="status" aria-live="polite">
        {notice && (
          <p
            className={`rounded border px-3 py-2 ${notice.tone === 'ok' ? 'border-green-300 bg-green-50' : 'border-amber-400 bg-amber-50'}`}
          >
            {notice.text}
          </p>
        )}
      </div>
      <Facts
        rows={[
          ['Placed', dateTime(o.created_at, store.timezone)],
          ['Ready by', o.ready_by ? dateTime(o.ready_by, store.timezone) : '—'],
          // The time slot the shopper booked (issue 14).
          ['Time slot', o.slot_start && o.slot_end ? slotLabel(o.slot_start, o.slot_end, store.timezone) : 'As soon as possible'],
          ...(o.cancel_reason
            ? ([['Cancel reason', CANCEL_REASON_LABELS[o.cancel_reason] ?? o.cancel_reason]] as [string, ReactNode][])
            : []),
          ...(o.cancel_message ? ([['Told the shopper', o.cancel_message]] as [string, ReactNode][]) : []),
        ]}
      />

      {(address || o.notes) && (
        <Section title="Delivery and notes">
          <Facts
            rows={[
              ...(address ? ([['Delivery address', <Address key="a" value={address} />]] as [string, ReactNode][]) : []),
              ...(o.notes ? ([['Notes', o.notes]] as [string, ReactNode][]) : []),
            ]}
          />
        </Section>
      )}

      <Section title="Actions">
        <OrderActions
          order={o}
          store={store}
          onMoved={(detail, text) => {
            order.setData(detail);
            setNotice({ text, tone: 'ok' });
            setFocusHeading((n) => n + 1);
          }}
          onStale={(text) => {
            setNotice({ text, tone: 'warn' });
            void order.reload();
          }}
        />
        {o.hold.length > 0 && (
          // On a phone the documents are screens below the blocked Confirm: one tap takes staff there.
          <p className="mt-3">
            <a
              href="#section-verification"
              className="link"
              onClick={(event) => {
                event.preventDefault();
                const heading = document.getElementById('section-verification');
                heading?.scrollIntoView({ block: 'start' });
                heading?.focus({ preventScroll: true });
              }}
            >
              Go to the documents to verify
            </a>
          </p>
        )}
      </Section>

      <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-2">
        <Section title="Customer">
          <Facts
            rows={[
              ['Name', c.name],
              [
                'Phone',
                c.phone ? (
                  <a href={`tel:${c.phone}`} className="link">
                    {c.phone}
                  </a>
                ) : (
                  '—'
                ),
              ],
              ['E-mail', c.email || '—'],
              ['Licence', c.license_type === 'medical' ? 'Medical' : 'Recreational'],
              ['Birthday', c.birthday || '—'],
              ['Age on order date', c.age_on_order_date ?? '—'],
              // Age on every order (issue 14): what the server checked when the order was placed.
              ['Age check', ageCheckText(o.age_check)],
              ...(c.license_type === 'medical' || c.medcard_number
                ? ([
                    ['Medical card no.', c.medcard_number || '—'],
                    ['Medical card expiry', c.medcard_expiry || '—'],
                  ] as [string, ReactNode][])
                : []),
            ]}
          />
          {/* Issue 31: the customer's record (a driver never reaches this page). */}
          {c.id != null && (
            <p className="mt-2">
              <Link className="link" to={`/stores/${store.id}/customers/${c.id}`}>
                Customer record
              </Link>
            </p>
          )}
        </Section>
        <Section title="Verification">
          <VerificationPanel
            order={o}
            store={store}
            onChanged={(text) => {
              setNotice({ text, tone: 'ok' });
              void order.reload();
            }}
          />
          {/* Each uploaded ID or card stands with its Verify / Reject buttons in the panel. */}
        </Section>
      </div>

      <Section title="Items">
        <div>
          <table className="data-table stack-table">
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Size / weight</th>
                <th scope="col" className="md:text-right">
                  Qty
                </th>
                <th scope="col" className="md:text-right">
                  Price
                </th>
                <th scope="col" className="md:text-right">
                  Discount
                </th>
                <th scope="col" className="md:text-right">
                  THC equiv.
                </th>
                <th scope="col" className="md:text-right">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {o.items.map((line, i) => (
                <tr key={`${line.sku}-${i}`}>
                  <td data-label="Product">
                    {line.name}
                    <div className="text-sm break-all text-stone-700">SKU {line.sku}</div>
                  </td>
                  <td data-label="Size">{line.size !== null && isSizeId(line.size) ? sizeLongLabel(line.size) : line.uom || '—'}</td>
                  <td data-label="Qty" className="md:text-right">
                    {line.qty}
                  </td>
                  <td data-label="Price" className="md:text-right">
                    {money(line.price_cents)}
                  </td>
                  <td data-label="Discount" className="md:text-right">
                    {line.discount_cents ? `−${money(line.discount_cents)}` : '—'}
                  </td>
                  <td data-label="THC equiv." className="md:text-right">
                    {grams(line.thc_equivalent_grams)}
                  </td>
                  <td data-label="Total" className="md:text-right">
                    {money(line.row_total_cents)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <Facts
            rows={[
              ['Coupon', o.coupon_code || '—'],
              ['Points used', o.points.used],
              ['Points earned', o.points.earned],
              ['THC equivalent', grams(o.thc_equivalent_grams)],
            ]}
          />
          <Facts
            rows={[
              ['Subtotal', money(o.totals.subtotal)],
              ['Discount', o.totals.discount ? `−${money(Math.abs(o.totals.discount))}` : money(0)],
              // Each named tax line separately (issue 14); older orders have only the two sums.
              ...(o.tax_lines?.length
                ? o.tax_lines.map((l): [string, ReactNode] => [`${l.title} (${l.rate}%)`, money(l.amount_cents)])
                : ([
                    ['Excise taxes', money(o.totals.excise_taxes)],
                    ['Sales taxes', money(o.totals.sales_taxes)],
                  ] as [string, ReactNode][])),
              ['Delivery', money(o.totals.shipping)],
              ...(o.totals.credits_used
                ? ([['Points credit', `−${money(Math.abs(o.totals.credits_used))}`]] as [string, ReactNode][])
                : []),
              ['Total', <strong key="t">{money(o.totals.total)}</strong>],
            ]}
          />
        </div>
      </Section>

      <Section title="Deals">
        <OrderDeals storeId={store.id} orderId={o.id} />
      </Section>

      <Section title="Messages to the shopper">
        <OrderMessages store={store} orderId={o.id} version={o.version} />
      </Section>

      <Section title="History">
        {o.history.length === 0 ? (
          <p>No history yet.</p>
        ) : (
          <ol className="grid gap-2" aria-label="Order history">
            {o.history.map((entry, i) => {
              const details = historyDetails(entry, store.timezone);
              return (
                <li key={i} className="border-l-4 border-green-800 pl-3">
                  <p className="font-medium">{historyText(entry)}</p>
                  <p className="text-sm text-stone-700">
                    <time dateTime={entry.at}>{dateTime(entry.at, store.timezone)}</time> ·{' '}
                    {entry.actor_name || (entry.actor_type === 'system' ? 'System' : titleCase(entry.actor_type))}
                    {details ? ` · ${details}` : ''}
                  </p>
                </li>
              );
            })}
          </ol>
        )}
      </Section>
    </article>
  );
}

/** The server's age check in words: "Passed: 34 on 6/15/2026 (minimum 21)". */
function ageCheckText(check: OrderDetail['age_check']): string {
  if (!check) return 'Not recorded (order placed before age checks)';
  const [y, m, d] = check.order_date.split('-').map(Number);
  return `${check.passed ? 'Passed' : 'Failed'}: ${check.age} on ${m}/${d}/${y} (minimum ${check.minimum_age})`;
}
