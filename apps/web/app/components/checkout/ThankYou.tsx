import { useEffect, useRef } from 'react';
import { formatMoney } from '@verdant/domain';
import type { PlacedOrder } from '../../api/order.ts';
import { useRootData } from '../../lib/root-data.ts';
import { formatAddress } from '../../lib/store-view.ts';
import { StoreLink } from '../store/StoreLink.tsx';

/**
 * The thank-you page (spec §2 checkout thank-you flag, §8 "order placed confirmation with the
 * order number"). It is only ever shown with an order the server confirmed: the number is the
 * server's increment_id, never one made up before the answer.
 */
export function ThankYou({ order }: { order: PlacedOrder }) {
  const { store } = useRootData();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const money = (c: number) => formatMoney(c, store.money);
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <p className="text-sm font-semibold tracking-wide text-brand-ink uppercase">Order placed</p>
      <h1 ref={headingRef} tabIndex={-1} className="mt-1 font-display text-4xl font-bold tracking-tight text-stone-900 focus:outline-none">
        Thank you for your order
      </h1>
      <div className="mt-6 rounded-2xl border border-stone-200 bg-white p-6 shadow-sm">
        <p className="text-lg">
          Your order number is <strong data-testid="order-number" className="font-mono text-xl">{order.increment_id}</strong>.
        </p>
        <p className="mt-2 text-stone-700">
          {order.order_type === 'delivery'
            ? 'We will call you before we bring it. Pay on delivery, and have your photo ID ready.'
            : `Pick it up at ${formatAddress(store.placeInfo)}. Pay at pickup, and bring your photo ID.`}
        </p>
        <dl className="mt-4 grid grid-cols-2 gap-y-1 text-sm sm:max-w-xs">
          <dt className="text-stone-700">Subtotal</dt>
          <dd className="text-right tabular-nums">{money(order.subtotal)}</dd>
          <dt className="text-stone-700">Discount</dt>
          <dd className="text-right tabular-nums">{order.discount > 0 ? `−${money(order.discount)}` : money(0)}</dd>
          <dt className="text-stone-700">Cannabis excise tax</dt>
          <dd className="text-right tabular-nums">{money(order.excise_taxes)}</dd>
          <dt className="text-stone-700">Sales tax</dt>
          <dd className="text-right tabular-nums">{money(order.sales_taxes)}</dd>
          <dt className="text-stone-700">Shipping</dt>
          <dd className="text-right tabular-nums">{order.shipping > 0 ? money(order.shipping) : 'Free'}</dd>
          <dt className="font-semibold">Total to pay</dt>
          <dd className="text-right font-bold tabular-nums">{money(order.total)}</dd>
        </dl>
      </div>
      <p className="mt-8">
        <StoreLink to="/menu" className="inline-flex min-h-11 items-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90">
          Back to the menu
        </StoreLink>
      </p>
    </div>
  );
}
