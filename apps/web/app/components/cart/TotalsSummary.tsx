import { useId } from 'react';
import { formatMoney } from '@verdant/domain';
import { gramsOfLimit, type TotalsView } from '../../lib/cart-view.ts';
import { useRootData } from '../../lib/root-data.ts';
import { useDealDisplay } from '../../lib/deal-view.ts';

/**
 * The itemised totals (spec §3 totals segments; research §3: cannabis excise stated separately):
 * Subtotal, Deals (issue 28: the deals' part of the discount; under Massachusetts adult-use rules the
 * subtotal is at deal prices instead), Discount, Cannabis excise tax, Sales tax, Shipping, Total, then the THC-equivalent
 * grams against the store's limit and, when over it, the exact over-limit message (role=alert).
 */
export function TotalsSummary({
  view,
  title = 'Order summary',
  headingLevel = 3,
  shippingLabel,
}: {
  view: TotalsView;
  title?: string;
  headingLevel?: 2 | 3;
  /** The checkout's Shipping line (lib/shipping-label.ts): never "Free" for a delivery not yet accepted. */
  shippingLabel?: string;
}) {
  const { store } = useRootData();
  const money = (cents: number) => formatMoney(cents, store.money);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const titleId = useId();
  const { rules } = useDealDisplay();
  const dealPart = Math.min(view.dealDiscount ?? 0, view.discount);
  const other = view.discount - dealPart;
  // Issue 28: where the rules allow the resulting price only (Massachusetts adult use), the subtotal is at deal prices and no amount off is stated.
  const resultingOnly = rules.noPercentOff;
  const deals = resultingOnly ? 0 : dealPart;
  const rows: [string, string][] = [
    ['Subtotal', money(resultingOnly ? view.subtotal - dealPart : view.subtotal)],
    // The deals' part on a row of its own; the rest (a coupon, points) as "Discount" (always shown when no deal applied).
    ...(deals > 0 ? [['Deals', `−${money(deals)}`] as [string, string]] : []),
    ...(deals === 0 || other > 0 ? [[view.couponCode ? `Discount (${view.couponCode})` : 'Discount', other > 0 ? `−${money(other)}` : money(0)] as [string, string]] : []),
    // Each of the store's named tax lines separately when the server gave them (issue 14), else the two sums.
    ...(view.taxLines?.length
      ? view.taxLines.map((l): [string, string] => [`${l.title} (${l.rate}%)`, money(l.amount)])
      : ([
          ['Cannabis excise tax', money(view.excise)],
          ['Sales tax', money(view.sales)],
        ] as [string, string][])),
    ['Shipping', shippingLabel ?? (view.shipping > 0 ? `${money(view.shipping)} incl. tax` : 'Free')],
  ];
  return (
    <section aria-labelledby={titleId} className="rounded-2xl bg-stone-50 p-4 ring-1 ring-stone-200">
      <Heading id={titleId} className="text-base font-semibold text-stone-900">
        {title}
      </Heading>
      <dl className="mt-3 space-y-1.5 text-sm" data-testid="cart-totals">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4">
            <dt className="text-stone-700">{label}</dt>
            <dd className="font-medium text-stone-900 tabular-nums">{value}</dd>
          </div>
        ))}
        <div className="flex justify-between gap-4 border-t border-stone-300 pt-2 text-base">
          <dt className="font-semibold">Total{view.source === 'estimate' ? ' (estimate)' : ''}</dt>
          <dd className="font-bold tabular-nums">{money(view.total)}</dd>
        </div>
      </dl>
      {/* Not a live region: every cart change is announced already; this only explains "(estimate)". */}
      <p className="mt-1 min-h-5 text-xs text-stone-600">{view.source === 'estimate' ? 'Totals are an estimate until the store confirms them.' : ''}</p>
      <p className="mt-2 text-sm text-stone-700">
        THC-equivalent: <strong className="font-semibold text-stone-900">{gramsOfLimit(view.grams, view.limit)}</strong>
        {view.limit != null ? <span className="sr-only"> allowed in one order</span> : null}
      </p>
      {view.limit != null ? (
        <div aria-hidden="true" className="mt-1 h-1.5 overflow-hidden rounded-full bg-stone-200">
          <div className={`h-full ${view.over ? 'bg-red-700' : 'bg-brand'}`} style={{ width: `${Math.min(100, (view.grams / view.limit) * 100)}%` }} />
        </div>
      ) : null}
      <div role="alert">
        {view.over && view.overMessage && !view.limitMeters ? (
          <p className="mt-3 rounded-xl border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium text-red-800" data-over-limit="">
            {view.overMessage}
          </p>
        ) : null}
      </div>
    </section>
  );
}
