import type { Route } from './+types/checkout';
import { CheckoutPage } from '../components/checkout/CheckoutPage.tsx';
import { pageMeta } from '../lib/meta.ts';

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: 'Checkout', noindex: true });

/**
 * /checkout (spec §2): the cart lives in the browser (IndexedDB), so the server renders the
 * "loading your cart" state that the browser also renders first, and the form appears once the
 * cart is read. `?thank-you` shows the order the server confirmed (the spec's thank-you flag).
 */
export default function Checkout() {
  return <CheckoutPage />;
}
