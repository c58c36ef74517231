/**
 * Run `onNewPage` when the shopper goes to another page (a link, a form, back or forward), not when a
 * page only rewrites its own address (REPLACE: the product page's chosen size, a category's sort or
 * "load more", the compare list). Panels and the microcart close on a new page; a REPLACE that lands
 * late — the size's address on a slow connection, after the shopper already added to the cart and
 * opened it — used to close the cart under their finger (a CI journey caught it).
 */
import { useEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

export function usePageChange(onNewPage: () => void): void {
  const location = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    if (type !== 'REPLACE') onNewPage();
    // The location's key stands for the navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key]);
}
