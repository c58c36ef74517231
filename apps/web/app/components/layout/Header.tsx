import { useMatches } from 'react-router';
import { AccountButton } from '../account/AccountButton.tsx';
import { AccountDialogs } from '../account/AccountDialogs.tsx';
import { LicenseSwitcher } from '../age-gate/LicenseSwitcher.tsx';
import { CartButton } from '../cart/Microcart.tsx';
import { SearchPanel } from '../search/SearchPanel.tsx';
import { CompareLink, WishlistPanel } from '../saved/WishlistPanel.tsx';
import { StoreLink, StoreNavLink } from '../store/StoreLink.tsx';
import { useRootData } from '../../lib/root-data.ts';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  [
    'inline-flex min-h-11 items-center rounded-md px-3 text-[0.95rem] font-medium whitespace-nowrap motion-safe:transition-colors',
    isActive ? 'bg-brand/10 text-brand-ink' : 'text-stone-700 hover:bg-stone-100 hover:text-stone-900',
  ].join(' ');

export function SkipLink() {
  return (
    <a
      href="#main-content"
      className="sr-only z-50 rounded-md bg-white px-4 py-3 font-semibold text-stone-900 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      Skip to main content
    </a>
  );
}

/** A slim brand bar: the age rule and the state licence (CA B&P §26151(a)) on every page. */
export function ComplianceBar() {
  const { store } = useRootData();
  return (
    <div className="on-brand bg-brand text-on-brand">
      <p className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-4 gap-y-0.5 px-4 py-1.5 text-xs sm:px-6">
        <span>
          <strong className="font-semibold">21+ only.</strong> Licensed cannabis retailer
        </span>
        <span>License {store.placeInfo.license_number}</span>
      </p>
    </div>
  );
}

export function StoreLogoLink() {
  const { store } = useRootData();
  const h = 40;
  return (
    <StoreLink to="/" className="inline-flex shrink-0 items-center rounded-md" prefetch="intent">
      <img src={store.logo} alt={store.name} width={Math.round((h * 200) / 48)} height={h} className="h-9 w-auto sm:h-11" />
    </StoreLink>
  );
}

/** Spec §2 UI flag "checkout mode": on /checkout the header keeps only the logo, the licence and a way back. */
function useCheckoutMode(): boolean {
  return useMatches().some((m) => m.id === 'checkout' || m.id === 'checkout-prefixed');
}

export function Header() {
  const { store } = useRootData();
  const checkoutMode = useCheckoutMode();
  if (checkoutMode) {
    return (
      <header className="border-b border-stone-200 bg-white">
        <ComplianceBar />
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2 sm:px-6 sm:py-3">
          <StoreLogoLink />
          <StoreLink to="/menu" className="inline-flex min-h-11 items-center rounded-md px-3 font-medium text-stone-700 hover:bg-stone-100 hover:text-stone-900">
            <span aria-hidden="true">←&nbsp;</span>Back to the menu
          </StoreLink>
        </div>
        <AccountDialogs />
      </header>
    );
  }
  return (
    <header className="border-b border-stone-200 bg-white">
      <ComplianceBar />
      {/*
        Two rows at every width: the logo and the shopping type, then the navigation and the tools.
        Nothing scrolls sideways or shrinks below its content: the rows wrap instead (tools go
        under the navigation when counts make them wide), so every destination stays visible and
        nothing sits under something else (issue 11: clipped "Menu"/"Store inf", off-screen "Sale").
      */}
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-1 px-4 pt-2 pb-2 sm:px-6 sm:pt-3">
        <StoreLogoLink />
        <div className="ml-auto shrink-0">
          <LicenseSwitcher />
        </div>
        <div className="flex w-full flex-wrap items-center gap-x-4 gap-y-1" data-header-row="">
          <nav aria-label="Main" className="min-w-0 flex-[1_1_auto]">
            <ul className="-ml-3 flex flex-wrap gap-x-1">
              <li>
                <StoreNavLink to="/menu" className={navLinkClass} prefetch="intent">
                  Menu
                </StoreNavLink>
              </li>
              {store.specials.length > 0 ? (
                <li>
                  <StoreLink to="/#deals" className={navLinkClass({ isActive: false })}>
                    Deals
                  </StoreLink>
                </li>
              ) : null}
              <li>
                <StoreNavLink to="/sale" className={navLinkClass} prefetch="intent">
                  Sale
                </StoreNavLink>
              </li>
              <li>
                <StoreNavLink to="/contact" className={navLinkClass} prefetch="intent">
                  Store info
                </StoreNavLink>
              </li>
            </ul>
          </nav>
          <div className="ml-auto flex min-w-0 flex-wrap items-center justify-end gap-2">
            <SearchPanel />
            <WishlistPanel />
            <CompareLink />
            <AccountButton />
            <CartButton />
          </div>
        </div>
      </div>
      <AccountDialogs />
    </header>
  );
}
