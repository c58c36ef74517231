import { Fragment, useEffect, useRef } from 'react';
import { formatMoney, isSizeId, sizeLongLabel } from '@verdant/domain';
import type { PickupPlace, PlacedOrder } from '../../api/order.ts';
import { useRootData } from '../../lib/root-data.ts';
import { StoreLink } from '../store/StoreLink.tsx';
import { ThankYouStatus } from './ThankYouStatus.tsx';

/**
 * The thank-you page (spec §2 checkout thank-you flag, §8 "order placed confirmation with the
 * order number"). It shows only the order the server confirmed — its number, lines, totals
 * (reward points included) and where it goes (the pickup place and hours, or the delivery
 * address), all from the server's answer, never from the browser's cart or a guess — and what
 * happens next, with its live status (issue 12).
 */
export function ThankYou({ order }: { order: PlacedOrder }) {
  const { store } = useRootData();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const money = (c: number) => formatMoney(c, store.money);
  const delivery = order.order_type === 'delivery';
  const credits = order.credits_used ?? 0;
  // Said in plain words above the status (which repeats the reason with a link to the documents).
  const held = order.status === 'submitted' && order.hold?.length ? order.hold.map((h) => (h === 'id' ? 'ID' : 'medical card')).join(' and ') : null;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <p className="text-sm font-semibold tracking-wide text-brand-ink uppercase">Order placed</p>
      <h1 ref={headingRef} tabIndex={-1} className="mt-1 font-display text-4xl font-bold tracking-tight text-stone-900 focus:outline-none">
        Thank you for your order
      </h1>
      <div className="mt-6 space-y-6 rounded-2xl border border-stone-200 bg-white p-6 shadow-sm">
        <p className="text-lg">
          Your order number is <strong data-testid="order-number" className="font-mono text-xl">{order.increment_id}</strong>.
        </p>
        {held ? (
          <p data-testid="thank-you-held" className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
            <strong>Your order is on hold</strong> until the store has verified your {held}. It goes ahead as soon as they are.
          </p>
        ) : null}

        <section aria-labelledby="status-title" data-testid="thank-you-status">
          <h2 id="status-title" className="text-lg font-semibold text-stone-900">
            Order status
          </h2>
          <div className="mt-2">
            <ThankYouStatus order={order} />
          </div>
        </section>

        <section aria-labelledby="next-title">
          <h2 id="next-title" className="text-lg font-semibold text-stone-900">
            What happens next
          </h2>
          <ol className="mt-2 list-decimal space-y-1 pl-5 text-stone-800">
            {delivery ? (
              <>
                <li>The store confirms your order and calls you before the driver sets out.</li>
                <li>The driver brings it to the address below and checks your photo ID (and medical card for a patient order) at the door.</li>
                <li>You pay on delivery: {money(order.total)}, cash or debit.</li>
              </>
            ) : (
              <>
                <li>The store prepares your order and lets you know when it is ready.</li>
                <li>Pick it up at the address below during opening hours, with your photo ID (and medical card for a patient order).</li>
                <li>You pay at pickup: {money(order.total)}, cash or debit at the counter.</li>
              </>
            )}
          </ol>
        </section>

        {delivery && order.shipping_address ? (
          <section aria-labelledby="where-title" data-testid="delivery-address">
            <h2 id="where-title" className="text-lg font-semibold text-stone-900">
              Delivery address
            </h2>
            <p className="mt-1 text-stone-800">
              {order.shipping_address.address}
              {order.shipping_address.apt_ste ? `, ${order.shipping_address.apt_ste}` : ''}
              <br />
              {order.shipping_address.city} {order.shipping_address.zip}
            </p>
          </section>
        ) : null}
        {!delivery && order.pickup ? <PickupBlock place={order.pickup} /> : null}
        {order.slot ? (
          <section aria-labelledby="slot-title" data-testid="order-slot">
            <h2 id="slot-title" className="text-lg font-semibold text-stone-900">
              {delivery ? 'Delivery time' : 'Pickup time'}
            </h2>
            <p className="mt-1 text-stone-800">{order.slot.label}</p>
          </section>
        ) : null}

        <section aria-labelledby="items-title">
          <h2 id="items-title" className="text-lg font-semibold text-stone-900">
            Your items
          </h2>
          <ul className="mt-2 divide-y divide-stone-200" data-testid="order-items">
            {order.items.map((i, n) => (
              <li key={`${i.sku}-${i.size ?? ''}-${n}`} className="flex justify-between gap-4 py-2 text-sm">
                <span>
                  <span className="font-medium text-stone-900">{i.name}</span>
                  {i.size != null && isSizeId(i.size) ? <span className="text-stone-600"> · {sizeLongLabel(i.size)}</span> : null}
                  <span className="text-stone-600"> × {i.qty}</span>
                </span>
                <span className="tabular-nums">{money(i.row_total ?? i.row_total_incl_tax)}</span>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="totals-title">
          <h2 id="totals-title" className="text-lg font-semibold text-stone-900">
            Totals
          </h2>
          <dl className="mt-2 grid grid-cols-2 gap-y-1 text-sm sm:max-w-xs" data-testid="order-totals">
            <dt className="text-stone-700">Subtotal</dt>
            <dd className="text-right tabular-nums">{money(order.subtotal)}</dd>
            <dt className="text-stone-700">Discount{credits > 0 ? ` (incl. ${credits} reward points)` : ''}</dt>
            <dd className="text-right tabular-nums">{order.discount > 0 ? `−${money(order.discount)}` : money(0)}</dd>
            {/* Each of the store's named tax lines as charged (issue 14), the same words as the cart; an older answer has the two sums. */}
            {order.tax_lines?.length ? (
              order.tax_lines.map((l) => (
                <Fragment key={l.code}>
                  <dt className="text-stone-700">{`${l.title} (${l.rate}%)`}</dt>
                  <dd className="text-right tabular-nums">{money(l.amount)}</dd>
                </Fragment>
              ))
            ) : (
              <>
                <dt className="text-stone-700">Cannabis excise tax</dt>
                <dd className="text-right tabular-nums">{money(order.excise_taxes)}</dd>
                <dt className="text-stone-700">Sales tax</dt>
                <dd className="text-right tabular-nums">{money(order.sales_taxes)}</dd>
              </>
            )}
            <dt className="text-stone-700">{delivery ? 'Delivery' : 'Pickup'}</dt>
            <dd className="text-right tabular-nums">{order.shipping > 0 ? money(order.shipping) : 'Free'}</dd>
            <dt className="font-semibold">Total to pay</dt>
            <dd className="text-right font-bold tabular-nums" data-testid="order-total">
              {money(order.total)}
            </dd>
          </dl>
        </section>
      </div>
      <p className="mt-8">
        <StoreLink to="/menu" className="inline-flex min-h-11 items-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90">
          Back to the menu
        </StoreLink>
      </p>
    </div>
  );
}

function PickupBlock({ place }: { place: PickupPlace }) {
  return (
    <section aria-labelledby="where-title" data-testid="pickup-place">
      <h2 id="where-title" className="text-lg font-semibold text-stone-900">
        Pickup at {place.name}
      </h2>
      <p className="mt-1 text-stone-800">
        {place.street}
        <br />
        {place.city}, {place.region_code} {place.postcode}
        <br />
        <a href={`tel:${place.phone.replace(/[^\d+]/g, '')}`} className="inline-flex min-h-6 items-center underline">
          {place.phone}
        </a>
      </p>
      <h3 className="mt-3 text-sm font-semibold text-stone-900">Opening hours</h3>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5 text-sm text-stone-800">
        {place.hours.map((h) => (
          <div key={h.days} className="contents">
            <dt>{h.days}</dt>
            <dd className="tabular-nums">{h.hours}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
