import { useLocation } from 'react-router';
import { formatDateTime, formatMoney } from '@verdant/domain';
import { accountApi } from '../../../api/account.ts';
import { ORDERS_PAGE_SIZE, orderItemCount, orderStatusLabel, pageCount, pageOf, pageRangeLabel } from '../../../lib/account-view.ts';
import { useRootData } from '../../../lib/root-data.ts';
import { StoreLink } from '../../store/StoreLink.tsx';
import { useAccountQuery } from '../use-account-query.ts';
import { BuyAgainButton, BuyAgainResult, useBuyAgain } from '../BuyAgain.tsx';
import { Block, FormError } from '../ui.tsx';

const pageLink = 'inline-flex min-h-11 min-w-11 items-center justify-center rounded-full border border-stone-300 px-3 font-medium text-stone-800 hover:bg-stone-100';

/** /my-account/orders (spec §7 order-history, §9 5 per page): the customer's orders, newest first, paged by `?page=`. */
export function OrdersBlock() {
  const { store } = useRootData();
  const location = useLocation();
  const page = pageOf(location.search);
  const history = useAccountQuery(`orders:${page}`, (t) => accountApi.orderHistory(t, page, ORDERS_PAGE_SIZE));
  const data = history.data;
  const pages = data ? pageCount(data.total_count, ORDERS_PAGE_SIZE) : 1;
  const again = useBuyAgain();
  return (
    <Block id="orders" title="Your orders">
      <FormError message={history.error} />
      {history.status === 'loading' ? <p className="text-stone-600">Loading your orders…</p> : null}
      {data && data.total_count === 0 ? (
        <p className="text-stone-700">
          No orders yet. <StoreLink to="/menu" className="font-medium text-brand-ink underline">Browse the menu</StoreLink>
        </p>
      ) : null}
      {data && data.items.length > 0 ? (
        <>
          <p className="mb-3 text-sm text-stone-600">{pageRangeLabel(page, data.total_count, ORDERS_PAGE_SIZE)}</p>
          <div className="mb-3">
            <BuyAgainResult view={again.view} openCart={again.openCart} />
          </div>
          <div className="overflow-x-auto">
            <table className="w-full min-w-[44rem] text-left text-sm">
              <caption className="sr-only">Your orders, newest first</caption>
              <thead className="border-b border-stone-200 text-stone-600">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-semibold">Order</th>
                  <th scope="col" className="py-2 pr-3 font-semibold">Date</th>
                  <th scope="col" className="py-2 pr-3 font-semibold">Status</th>
                  <th scope="col" className="py-2 pr-3 font-semibold">Items</th>
                  <th scope="col" className="py-2 pr-3 text-right font-semibold">Total</th>
                  <th scope="col" className="py-2 font-semibold">
                    <span className="sr-only">Buy again</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100">
                {data.items.map((o) => (
                  <tr key={o.increment_id}>
                    <th scope="row" className="py-2 pr-3 font-medium">
                      <StoreLink to={`/my-account/orders/${encodeURIComponent(o.increment_id)}`} className="inline-flex min-h-11 items-center text-brand-ink underline">
                        <span className="sr-only">Order </span>
                        {o.increment_id}
                      </StoreLink>
                    </th>
                    <td className="py-2 pr-3">{formatDateTime(o.created_at, store.placeInfo.timezone)}</td>
                    <td className="py-2 pr-3">{o.status_label ?? orderStatusLabel(o.status)}</td>
                    <td className="py-2 pr-3">{orderItemCount(o)}</td>
                    <td className="py-2 pr-3 text-right font-medium">{formatMoney(o.total, store.money)}</td>
                    <td className="py-2 text-right">
                      <BuyAgainButton orderId={o.increment_id} busy={again.busy} onClick={() => void again.run(o.increment_id)} labelled />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 ? (
            <nav aria-label="Order pages" className="mt-4">
              <ul className="flex flex-wrap items-center gap-2">
                {page > 1 ? (
                  <li>
                    <StoreLink to={`/my-account/orders?page=${page - 1}`} className={pageLink}>
                      Previous<span className="sr-only"> page</span>
                    </StoreLink>
                  </li>
                ) : null}
                {Array.from({ length: pages }, (_, i) => i + 1).map((n) => (
                  <li key={n}>
                    <StoreLink
                      to={`/my-account/orders?page=${n}`}
                      aria-current={n === page ? 'page' : undefined}
                      className={`${pageLink} aria-[current=page]:border-brand aria-[current=page]:bg-brand aria-[current=page]:text-on-brand`}
                    >
                      <span className="sr-only">Page </span>
                      {n}
                    </StoreLink>
                  </li>
                ))}
                {page < pages ? (
                  <li>
                    <StoreLink to={`/my-account/orders?page=${page + 1}`} className={pageLink}>
                      Next<span className="sr-only"> page</span>
                    </StoreLink>
                  </li>
                ) : null}
              </ul>
            </nav>
          ) : null}
        </>
      ) : null}
    </Block>
  );
}
