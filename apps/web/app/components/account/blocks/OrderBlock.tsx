import { LICENSE_LABELS, formatDateTime, formatMoney, sizeLabel } from '@verdant/domain';
import { accountApi } from '../../../api/account.ts';
import { LIVE_POLL_MS } from '../../../lib/order-status.ts';
import { useRootData } from '../../../lib/root-data.ts';
import { useAuthApi } from '../../../state/use-auth.ts';
import { LiveOrderStatus } from '../../order/LiveOrderStatus.tsx';
import { StoreLink } from '../../store/StoreLink.tsx';
import { useAccountQuery } from '../use-account-query.ts';
import { BuyAgainButton, BuyAgainResult, useBuyAgain } from '../BuyAgain.tsx';
import { Block, FormError } from '../ui.tsx';

/**
 * /my-account/orders/{orderId}: one of the customer's orders — its live status as a timeline
 * (issue 12), lines and totals (cents).
 */
export function OrderBlock({ orderId }: { orderId: string }) {
  const { store } = useRootData();
  const auth = useAuthApi();
  const order = useAccountQuery(`order:${orderId}`, (t) => accountApi.order(t, orderId));
  const money = (cents: number) => formatMoney(cents, store.money);
  const o = order.data;
  const again = useBuyAgain();
  return (
    <Block
      id="order"
      title={`Order ${orderId}`}
      actions={
        <StoreLink to="/my-account/orders" className="inline-flex min-h-11 items-center font-medium text-brand-ink underline">
          <span aria-hidden="true">←&nbsp;</span>All orders
        </StoreLink>
      }
    >
      <FormError message={order.error} />
      {order.status === 'loading' ? <p className="text-stone-600">Loading the order…</p> : null}
      {o ? (
        <div className="space-y-5">
          <div className="space-y-3">
            <BuyAgainButton orderId={o.increment_id} busy={again.busy} onClick={() => void again.run(o.increment_id)} />
            <BuyAgainResult view={again.view} openCart={again.openCart} />
          </div>
          <section aria-labelledby="order-status-title" className="rounded-xl bg-stone-50 p-4">
            <h3 id="order-status-title" className="mb-3 text-lg font-semibold text-stone-900">
              Order status
            </h3>
            <LiveOrderStatus
              key={o.increment_id}
              initial={o}
              fetchStatus={() => auth.getState().authorized((t) => accountApi.order(t, orderId))}
              intervalMs={LIVE_POLL_MS.account}
              timeZone={store.placeInfo.timezone}
              documentsHref="/my-account#documents-title"
            />
          </section>
          <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-3">
            <Fact label="Placed" value={formatDateTime(o.created_at, store.placeInfo.timezone)} />
            <Fact label="Order type" value={o.order_type === 'delivery' ? 'Delivery' : 'Pickup'} />
            {o.slot ? <Fact label={o.order_type === 'delivery' ? 'Delivery time' : 'Pickup time'} value={o.slot.label} /> : null}
            <Fact label="Licence type" value={LICENSE_LABELS[o.license_type]} />
            <Fact label="Payment" value={o.payment_method === 'cashondelivery' ? (o.order_type === 'pickup' ? 'Pay at pickup' : 'Pay on delivery') : o.payment_method} />
            {o.coupon_code ? <Fact label="Coupon" value={o.coupon_code} /> : null}
          </dl>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Items</caption>
            <thead className="border-b border-stone-200 text-stone-600">
              <tr>
                <th scope="col" className="py-2 pr-3 font-semibold">Product</th>
                <th scope="col" className="py-2 pr-3 font-semibold">Qty</th>
                <th scope="col" className="py-2 text-right font-semibold">Total</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {o.items.map((line) => (
                <tr key={`${line.sku}:${line.size ?? ''}`}>
                  <th scope="row" className="py-2 pr-3 font-medium">
                    {line.name}
                    {line.size != null ? <span className="block text-xs font-normal text-stone-600">Size {sizeLabel(line.size)}</span> : null}
                  </th>
                  <td className="py-2 pr-3">{line.qty}</td>
                  <td className="py-2 text-right">{money(line.row_total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <dl className="ml-auto max-w-xs space-y-1 text-sm" data-testid="order-totals">
            <Total label="Subtotal" value={money(o.subtotal)} />
            {o.discount > 0 ? <Total label="Discount" value={`−${money(o.discount)}`} /> : null}
            {o.credits_used > 0 ? <Total label="Reward points" value={`−${money(o.credits_used)}`} /> : null}
            {/* Each of the store's named tax lines as charged (issue 14); an order from before they were kept has the two sums. */}
            {o.tax_lines?.length ? (
              o.tax_lines.map((l) => <Total key={l.code} label={`${l.title} (${l.rate}%)`} value={money(l.amount)} />)
            ) : (
              <>
                <Total label="Cannabis excise tax" value={money(o.excise_taxes)} />
                <Total label="Sales tax" value={money(o.sales_taxes)} />
              </>
            )}
            <Total label="Shipping" value={o.shipping > 0 ? money(o.shipping) : 'Free'} />
            <Total label="Total" value={money(o.total)} strong />
          </dl>
        </div>
      ) : null}
    </Block>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-sm text-stone-600">{label}</dt>
      <dd className="font-medium text-stone-900">{value}</dd>
    </div>
  );
}

function Total({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 ${strong ? 'border-t border-stone-200 pt-2 text-base font-bold' : ''}`}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
