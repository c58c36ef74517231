import { formatMoney, normalizeZip, PAYMENT_COPY } from '@verdant/domain';
import { shippingLabel } from '../../lib/shipping-label.ts';
import type { TotalsView } from '../../lib/cart-view.ts';
import { useRootData } from '../../lib/root-data.ts';
import { isVirtualCart, lineKey, lineLabel } from '../../state/cart-items.ts';
import { useCart, useCheckout } from '../../state/use-cart.ts';
import { LineDeal, shownLineTotal } from '../cart/LineDeal.tsx';
import { useDealDisplay } from '../../lib/deal-view.ts';
import { TotalsSummary } from '../cart/TotalsSummary.tsx';
import { sectionClass, sectionTitleClass } from './Field.tsx';

/** Spec §2 checkout review: the lines (with the deal on each, issue 28), how the order is paid (at pickup or on delivery) and the itemised totals. */
export function ReviewBlock({ view, zipError }: { view: TotalsView; zipError?: string | null }) {
  const { store } = useRootData();
  const method = useCheckout((s) => s.shipping.method);
  const zip = normalizeZip(useCheckout((s) => s.shipping.zip)) ?? '';
  const delivery = useCheckout((s) => s.delivery);
  const shipping = shippingLabel({
    method,
    zip,
    delivery,
    zipError,
    orderValue: view.subtotal - view.discount,
    shipping: view.shipping,
    zones: store.delivery.zones,
    money: store.money,
  });
  const items = useCart((s) => s.items);
  const { rules } = useDealDisplay();
  // Paid at the counter for pickup, at the door for delivery.
  const payment = PAYMENT_COPY[useCheckout((s) => s.shipping.method)];
  return (
    <section aria-labelledby="review-title" className={sectionClass}>
      <h2 id="review-title" className={sectionTitleClass}>
        4. Review your order
      </h2>
      <ul aria-label="Products in your order" className="mt-3 divide-y divide-stone-200">
        {items.map((i) => {
          const rowTotal = view.rowTotals.get(lineKey(i)) ?? i.price * i.qty;
          const deal = view.lineDeals?.get(lineKey(i));
          return (
            <li key={lineKey(i)} className="py-2 text-sm" data-testid="review-line" data-sku={i.sku}>
              <div className="flex justify-between gap-4">
                <span className="min-w-0 break-words">
                  <span className="font-medium text-stone-900">{lineLabel(i)}</span> <span className="text-stone-600">× {i.qty}</span>
                  {i.errors?.stock ? <span className="block font-medium text-red-700">{i.errors.stock}</span> : null}
                </span>
                <span className="shrink-0 tabular-nums">{formatMoney(shownLineTotal(rowTotal, deal, rules), store.money)}</span>
              </div>
              {/* Issue 28: the deal on the line, as the cart shows it (the server's figures; offline the estimate's). */}
              {deal ? <LineDeal deal={deal} rowTotal={rowTotal} className="mt-0.5 font-medium break-words text-emerald-900" /> : null}
            </li>
          );
        })}
      </ul>
      {!isVirtualCart(items) ? (
        <div className="mt-4 rounded-xl bg-brand/10 p-4" data-testid="pay-on-delivery">
          <h3 className="font-semibold text-stone-900">{payment.title}</h3>
          <p className="mt-1 text-sm text-stone-800">{payment.text}</p>
        </div>
      ) : null}
      <div className="mt-4">
        <TotalsSummary view={view} title="Totals" shippingLabel={shipping} />
      </div>
    </section>
  );
}
