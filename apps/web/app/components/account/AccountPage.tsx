import { AUTH_COPY } from '../../state/auth-types.ts';
import { ACCOUNT_NAV, displayName, phoneForDisplay, type AccountBlock } from '../../lib/account-view.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { useAuth, useAuthApi } from '../../state/use-auth.ts';
import { PageShell } from '../page/PageShell.tsx';
import { StoreNavLink } from '../store/StoreLink.tsx';
import { NewsletterBlock } from './blocks/NewsletterBlock.tsx';
import { OrderBlock } from './blocks/OrderBlock.tsx';
import { OrdersBlock } from './blocks/OrdersBlock.tsx';
import { OverviewBlock } from './blocks/OverviewBlock.tsx';
import { PointsBlock } from './blocks/PointsBlock.tsx';
import { RecentlyViewedBlock } from './blocks/RecentlyViewedBlock.tsx';
import { ReviewsBlock } from './blocks/ReviewsBlock.tsx';
import { ShippingBlock } from './blocks/ShippingBlock.tsx';
import { primaryButton, secondaryButton } from './ui.tsx';

interface Props {
  block: AccountBlock;
  title: string;
  orderId: string | null;
}

/**
 * The account page (spec §2 /my-account and its blocks). The session lives in IndexedDB, so the
 * page renders once it was read in the browser: the server and the first render show a neutral
 * "loading" line; a guest is told that login is needed (spec §6) and offered the login modal.
 */
export function AccountPage({ block, title, orderId }: Props) {
  const hydrated = useHydrated();
  const loaded = useAuth((s) => s.loaded);
  const user = useAuth((s) => s.user);
  const auth = useAuthApi();

  if (!hydrated || !loaded) {
    return (
      <PageShell title={title}>
        <p role="status" className="text-stone-600">
          Loading your account…
        </p>
      </PageShell>
    );
  }
  if (!user) {
    return (
      <PageShell title={title}>
        <div className="rounded-2xl border border-amber-300 bg-amber-50 p-6">
          <p role="status" className="font-medium text-amber-900">
            {AUTH_COPY.loginRequired}
          </p>
          <div className="mt-4 flex flex-wrap gap-3">
            <button type="button" aria-haspopup="dialog" className={primaryButton} onClick={() => auth.getState().openDialog('login')}>
              Log in
            </button>
            <button type="button" aria-haspopup="dialog" className={secondaryButton} onClick={() => auth.getState().openDialog('register')}>
              Create an account
            </button>
          </div>
        </div>
      </PageShell>
    );
  }

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 sm:py-10">
      <p className="text-sm font-semibold tracking-wide text-brand-ink uppercase">My account</p>
      <h1 className="mt-1 font-display text-4xl font-bold tracking-tight text-stone-900">{title}</h1>
      <p className="mt-1 text-stone-700">{displayName(user) ? `Logged in as ${displayName(user)}` : `Logged in with ${phoneForDisplay(user.phone)}`}</p>
      <div className="mt-6 grid gap-6 lg:grid-cols-[14rem_1fr]">
        <AccountNav onLogout={() => void auth.getState().logout()} />
        <div className="min-w-0">
          {block === 'overview' ? <OverviewBlock /> : null}
          {block === 'shipping-details' ? <ShippingBlock /> : null}
          {block === 'newsletter' ? <NewsletterBlock /> : null}
          {block === 'orders' ? <OrdersBlock /> : null}
          {block === 'order' && orderId ? <OrderBlock orderId={orderId} /> : null}
          {block === 'points' ? <PointsBlock /> : null}
          {block === 'reviews' ? <ReviewsBlock /> : null}
          {block === 'recently-viewed' ? <RecentlyViewedBlock /> : null}
        </div>
      </div>
    </div>
  );
}

function AccountNav({ onLogout }: { onLogout(): void }) {
  return (
    <nav aria-label="Account">
      <ul className="flex flex-wrap gap-2 lg:flex-col">
        {ACCOUNT_NAV.map((b) => (
          <li key={b.block}>
            <StoreNavLink
              to={b.path}
              end={b.block !== 'orders'}
              className={({ isActive }) =>
                `flex min-h-11 items-center rounded-full border px-4 text-sm font-medium lg:rounded-lg ${
                  isActive ? 'border-brand bg-brand/10 text-brand-ink' : 'border-stone-300 text-stone-800 hover:bg-stone-100'
                }`
              }
            >
              {b.title}
            </StoreNavLink>
          </li>
        ))}
        <li>
          <button type="button" onClick={onLogout} className="flex min-h-11 w-full items-center rounded-full border border-stone-300 px-4 text-sm font-medium text-stone-800 hover:bg-stone-100 lg:rounded-lg">
            Log out
          </button>
        </li>
      </ul>
    </nav>
  );
}
