import { MESSAGES } from '@verdant/domain';
import type { Route } from './+types/account';
import { ComingSoon } from '../components/page/ComingSoon.tsx';
import { StoreNavLink } from '../components/store/StoreLink.tsx';
import { pageMeta } from '../lib/meta.ts';

const BLOCKS = [
  { path: '/my-account', title: 'My account' },
  { path: '/my-account/shipping-details', title: 'Shipping details' },
  { path: '/my-account/newsletter', title: 'Newsletter' },
  { path: '/my-account/orders', title: 'Orders' },
  { path: '/my-account/recently-viewed', title: 'Recently viewed' },
] as const;

/** /my-account and its blocks (spec §2): login is required; placeholder until accounts land. */
export function loader({ params, request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  if (params.orderId) return { title: `Order ${params.orderId}` };
  const block = BLOCKS.find((b) => pathname.endsWith(b.path) || pathname.endsWith(`${b.path}/`));
  return { title: block?.title ?? 'My account' };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, { title: loaderData?.title, noindex: true });

export default function Account({ loaderData }: Route.ComponentProps) {
  return (
    <ComingSoon
      title={loaderData.title}
      what="Your account is coming:"
      features={[
        'Sign in with your phone number and a one-time code',
        'Shipping details, newsletter preferences and reward points',
        'Your orders, each with its items and status',
        'Products you viewed recently',
      ]}
    >
      <p role="status" className="mb-6 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 font-medium text-amber-900">
        {MESSAGES.loginRequired}
      </p>
      <nav aria-label="Account" className="mb-6">
        <ul className="flex flex-wrap gap-2">
          {BLOCKS.map((b) => (
            <li key={b.path}>
              <StoreNavLink
                to={b.path}
                end
                className={({ isActive }) =>
                  `inline-flex min-h-11 items-center rounded-full border px-4 text-sm font-medium ${
                    isActive ? 'border-brand bg-brand/10 text-brand-ink' : 'border-stone-300 text-stone-800 hover:bg-stone-100'
                  }`
                }
              >
                {b.title}
              </StoreNavLink>
            </li>
          ))}
        </ul>
      </nav>
    </ComingSoon>
  );
}
