import type { ReactNode } from 'react';
import { Announcer } from '../feedback/Announcer.tsx';
import { Notifications } from '../feedback/Notifications.tsx';
import { OfflineStatus } from '../feedback/OfflineStatus.tsx';
import { OfflineOrdersNotice } from '../checkout/OfflineOrdersLoader.tsx';
import { useAuthBoot } from '../../state/use-auth.ts';
import { useCartBoot } from '../../state/use-cart.ts';
import { Footer } from './Footer.tsx';
import { ComplianceBar, Header, SkipLink, StoreLogoLink } from './Header.tsx';

function Main({ children }: { children: ReactNode }) {
  return (
    <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
      {children}
    </main>
  );
}

/** Reads the session, cart and checkout from IndexedDB once the page runs in the browser. */
function CartBoot() {
  useAuthBoot();
  useCartBoot();
  return null;
}

/** Default layout (spec §2): header, main, footer. */
export function DefaultChrome({ children }: { children: ReactNode }) {
  return (
    <>
      <SkipLink />
      <OfflineStatus />
      <OfflineOrdersNotice />
      <Header />
      <Main>{children}</Main>
      <Footer />
      <Announcer />
      <Notifications />
      <CartBoot />
    </>
  );
}

/** Minimal layout (spec §2, /error): the logo and the page, plus the licence line. */
export function MinimalChrome({ children }: { children: ReactNode }) {
  return (
    <>
      <SkipLink />
      <header className="border-b border-stone-200 bg-white">
        <ComplianceBar />
        <div className="mx-auto max-w-7xl px-4 py-3 sm:px-6">
          <StoreLogoLink />
        </div>
      </header>
      <Main>{children}</Main>
    </>
  );
}

/** Empty layout (spec §2): no chrome at all. */
export function EmptyChrome({ children }: { children: ReactNode }) {
  return <Main>{children}</Main>;
}
