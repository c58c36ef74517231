import type { Route } from './+types/account';
import { AccountPage } from '../components/account/AccountPage.tsx';
import { accountBlockOf } from '../lib/account-view.ts';
import { pageMeta } from '../lib/meta.ts';

/**
 * /my-account and its blocks (spec §2): shipping details, newsletter, orders, one order, points, my
 * reviews, recently viewed. Login is required; the session is in the browser (IndexedDB), so the loader only names
 * the block and the page renders it once the session is read. Never indexed.
 */
export function loader({ params, url }: Route.LoaderArgs) {
  const info = accountBlockOf(url.pathname, params.orderId);
  return { block: info.block, title: info.title, orderId: info.orderId };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, { title: loaderData?.title, noindex: true });

export default function Account({ loaderData }: Route.ComponentProps) {
  return <AccountPage block={loaderData.block} title={loaderData.title} orderId={loaderData.orderId} />;
}
