import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation, useMatches } from 'react-router';
import { AccountButton, AccountLink } from '../account/AccountButton.tsx';
import { AccountDialogs } from '../account/AccountDialogs.tsx';
import { LicenseSwitcher } from '../age-gate/LicenseSwitcher.tsx';
import { CartButton, CartButtonView } from '../cart/Microcart.tsx';
import { SearchLink, SearchPanel } from '../search/SearchPanel.tsx';
import { SEARCH_RESULTS_PATH } from '../search/search-text.ts';
import { CompareLink, WishlistButton, WishlistPanel } from '../saved/WishlistPanel.tsx';
import { NavLinkAnchor, navLinkActive, PathLink, StoreLink, StoreNavLink } from '../store/StoreLink.tsx';
import { layoutFragments } from '../../lib/fragment-cache.ts';
import { withBasePath } from '../../lib/paths.ts';
import { useRootData } from '../../lib/root-data.ts';
import { useDealDisplay } from '../../lib/deal-view.ts';

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

const COMPLIANCE_CLASS = 'on-brand bg-brand text-on-brand';

/**
 * A slim brand bar: the age rule and the state licence (CA B&P §26151(a)) on every page. On the
 * server its inner markup comes from the fragment cache (lib/fragment-cache.ts), keyed by the licence.
 */
export function ComplianceBar() {
  const { store } = useRootData();
  const license = store.placeInfo.license_number;
  if (layoutFragments.enabled) {
    const html = layoutFragments.get(`compliance\u0000${license}`, () => <ComplianceText license={license} />);
    if (html !== undefined) return <div className={COMPLIANCE_CLASS} dangerouslySetInnerHTML={{ __html: html }} />;
  }
  return (
    <div className={COMPLIANCE_CLASS}>
      <ComplianceText license={license} />
    </div>
  );
}

function ComplianceText({ license }: { license: string }) {
  return (
    <p className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-4 gap-y-0.5 px-4 py-1.5 text-xs sm:px-6">
      <span>
        <strong className="font-semibold">21+ only.</strong> Licensed cannabis retailer
      </span>
      <span>License {license}</span>
    </p>
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
  const { store, basePath } = useRootData();
  const checkoutMode = useCheckoutMode();
  const saleLabel = useDealDisplay().rules.noSaleWord ? 'Specials' : 'Sale';
  const stickyTools = useStickyTools(!checkoutMode);
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
    <header ref={stickyTools} className="border-b border-stone-200 bg-white data-[sticky]:sticky data-[sticky]:z-30">
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
        <HeaderRow basePath={basePath} hasDeals={store.specials.length > 0} saleLabel={saleLabel} />
      </div>
      <AccountDialogs />
    </header>
  );
}

/** Below Tailwind's `sm`: the phone layout, where the header is ~200 px tall. */
const PHONE_QUERY = '(max-width: 639.98px)';

/**
 * Issue 30: on a phone the header (compliance bar, logo, navigation, tools: ~200 px) scrolled away
 * with the cart and search. There the header becomes sticky with a negative top that leaves just
 * its tools row (search, wishlist, account, cart) on screen while the page scrolls; at the top of
 * the page it is whole as before. The offset is measured after hydration and again whenever the
 * header's size changes (wrapping, counts, a font): before that (server markup, no JavaScript) the
 * header scrolls as it always did. The page's scroll padding keeps a focused or linked-to element
 * from hiding under the row (WCAG 2.4.11).
 */
function useStickyTools(enabled: boolean) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const header = ref.current;
    if (!enabled || !header || typeof ResizeObserver === 'undefined') return;
    const phone = window.matchMedia(PHONE_QUERY);
    const root = document.documentElement;
    const place = () => {
      const tools = header.querySelector<HTMLElement>('[data-header-tools]');
      if (!phone.matches || !tools) {
        header.removeAttribute('data-sticky');
        header.style.removeProperty('top');
        root.style.removeProperty('scroll-padding-top');
        return;
      }
      const box = header.getBoundingClientRect();
      const offset = Math.max(0, Math.round(tools.getBoundingClientRect().top - box.top - 4));
      header.style.top = `${-offset}px`;
      header.setAttribute('data-sticky', '');
      root.style.scrollPaddingTop = `${Math.round(box.height - offset)}px`;
    };
    place();
    const observer = new ResizeObserver(place);
    observer.observe(header);
    phone.addEventListener('change', place);
    return () => {
      observer.disconnect();
      phone.removeEventListener('change', place);
      root.style.removeProperty('scroll-padding-top');
    };
  }, [enabled]);
  return ref;
}

const HEADER_ROW_CLASS = 'flex w-full flex-wrap items-center gap-x-4 gap-y-1';
const NAV_PATHS = ['/menu', '/sale', '/contact'] as const;

/**
 * The header's second row: the navigation and the tools (search, wishlist, compare, account, cart).
 *
 * On the server its inner markup comes from the fragment cache (lib/fragment-cache.ts), keyed by
 * everything the server's markup depends on: the base path, whether the store has deals, and which
 * navigation link is the current page (NavLink's own rule, navLinkActive). The cached part is
 * written without hooks (ServerHeaderRow): the tools as the server always renders them — search and
 * account as links (not hydrated), wishlist and cart buttons with no count (the server's saved
 * lists and cart are empty throwaway stores; nothing is persisted there), no compare link (shown
 * once the compare list has products). The browser renders HeaderRowContent with the real
 * components and hydrates the same markup (Header.test.tsx holds the two to the same bytes).
 */
function HeaderRow({ basePath, hasDeals, saleLabel }: { basePath: string; hasDeals: boolean; saleLabel: string }) {
  const { pathname } = useLocation();
  if (layoutFragments.enabled) {
    const active = NAV_PATHS.map((to) => navLinkActive(pathname, withBasePath(basePath, to)));
    const key = `header-row\u0000${basePath}\u0000${hasDeals}\u0000${saleLabel}\u0000${active.join()}`;
    const html = layoutFragments.get(key, () => <ServerHeaderRow basePath={basePath} hasDeals={hasDeals} saleLabel={saleLabel} active={active} />);
    if (html !== undefined) return <div className={HEADER_ROW_CLASS} data-header-row="" dangerouslySetInnerHTML={{ __html: html }} />;
  }
  return (
    <div className={HEADER_ROW_CLASS} data-header-row="">
      <HeaderRowContent
        hasDeals={hasDeals}
        saleLabel={saleLabel}
        navLink={(to, label) => (
          <StoreNavLink to={to} className={navLinkClass} prefetch="intent">
            {label}
          </StoreNavLink>
        )}
        dealsLink={
          <StoreLink to="/#deals" className={navLinkClass({ isActive: false })}>
            Deals
          </StoreLink>
        }
        tools={
          <>
            <SearchPanel />
            <WishlistPanel />
            <CompareLink />
            <AccountButton />
            <CartButton />
          </>
        }
      />
    </div>
  );
}

/** HeaderRow's markup as the server renders it, from its key's inputs only (no hooks: rendered alone for the cache). */
function ServerHeaderRow({ basePath, hasDeals, saleLabel, active }: { basePath: string; hasDeals: boolean; saleLabel: string; active: boolean[] }) {
  const at = (to: string) => withBasePath(basePath, to);
  return (
    <HeaderRowContent
      hasDeals={hasDeals}
      saleLabel={saleLabel}
      navLink={(to, label) => {
        const isActive = active[NAV_PATHS.indexOf(to as (typeof NAV_PATHS)[number])];
        return (
          <NavLinkAnchor to={at(to)} active={isActive} className={navLinkClass({ isActive })}>
            {label}
          </NavLinkAnchor>
        );
      }}
      dealsLink={
        <PathLink to={at('/#deals')} className={navLinkClass({ isActive: false })}>
          Deals
        </PathLink>
      }
      tools={
        <>
          <SearchLink href={at(SEARCH_RESULTS_PATH)} />
          <WishlistButton count={0} />
          <AccountLink href={at('/my-account')} />
          <CartButtonView count={0} />
        </>
      }
    />
  );
}

function HeaderRowContent({
  hasDeals,
  saleLabel,
  navLink,
  dealsLink,
  tools,
}: {
  hasDeals: boolean;
  /** "Sale", or "Specials" where the store's rules forbid the word (issue 28, Massachusetts adult use). */
  saleLabel: string;
  navLink: (to: (typeof NAV_PATHS)[number], label: string) => ReactNode;
  dealsLink: ReactNode;
  tools: ReactNode;
}) {
  return (
    <>
      <nav aria-label="Main" className="min-w-0 flex-[1_1_auto]">
        <ul className="-ml-3 flex flex-wrap gap-x-1">
          <li>{navLink('/menu', 'Menu')}</li>
          {hasDeals ? <li>{dealsLink}</li> : null}
          <li>{navLink('/sale', saleLabel)}</li>
          <li>{navLink('/contact', 'Store info')}</li>
        </ul>
      </nav>
      <div className="ml-auto flex min-w-0 flex-wrap items-center justify-end gap-2" data-header-tools="">
        {tools}
      </div>
    </>
  );
}
