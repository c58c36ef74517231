import { Component, useContext, useEffect, type CSSProperties, type ReactNode } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import { MESSAGES } from '@verdant/domain';
import type { Route } from './+types/root';
import stylesheet from './app.css?url';
import { splitComponent } from './components/ui/SplitComponent.tsx';
import { AGE_GATE_PATH } from './lib/age-gate.ts';
import { CspNonce } from './lib/csp-nonce.ts';
import { brandPalette } from './lib/color.ts';
import { pageMeta } from './lib/meta.ts';
import { useOptionalRootData, useStorePath, type RootData } from './lib/root-data.ts';
import { readShopper } from './lib/shopper.ts';
import { toPublicStore } from './lib/store-view.ts';
import { setApiStoreCode } from './api/store-scope.ts';

/**
 * The age-gate overlay is server-rendered into the page for a first visit (and only then), so it
 * shows at once, without JavaScript too. Returning shoppers — most page views — never need its
 * code, so it is not in the page's initial JavaScript (components/ui/SplitComponent.tsx): the
 * loader has it ready on the server; the browser loads it when the gate is there, and until then
 * the server's gate (a working native form) stays as it is.
 */
const AgeGate = splitComponent(() => import('./components/age-gate/AgeGateDialog.tsx').then((m) => m.AgeGateDialog));

/** Should the gate's code fail to load, the page stays locked and links to the stand-alone gate. */
class AgeGateLoadBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? <AgeGateUnavailable /> : this.props.children;
  }
}

function AgeGateUnavailable() {
  const storePath = useStorePath();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  return (
    <div role="alert" className="fixed inset-0 z-50 flex items-center justify-center bg-stone-950/80 p-6">
      <a href={`${storePath(AGE_GATE_PATH)}?redirectTo=${encodeURIComponent(here)}`} className="rounded-full bg-white px-6 py-3 font-semibold text-stone-900">
        Confirm your age to enter the store
      </a>
    </div>
  );
}

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export async function loader({ request, context }: Route.LoaderArgs): Promise<RootData> {
  const shopper = readShopper(request.headers.get('Cookie'), context.store);
  if (!shopper.ageConfirmed) await AgeGate.ready();
  return {
    // Issue 14: the store's hours, zones and medical minimum age come along, so no page needs a request of its own.
    store: toPublicStore(
      context.store,
      ...(await Promise.all([context.storeHours?.(context.store.storeId), context.storeOptions?.(context.store.storeId)])),
    ),
    basePath: context.basePath,
    // Links only: each store's hours go to the store locator page alone.
    stores: context.stores.map(({ storeCode, name, url, city }) => ({ storeCode, name, url, city })),
    shopper,
    demoMode: context.demoMode,
    renderedAt: new Date().toISOString(),
  };
}

/**
 * The root data changes only with the shopper's cookies (after an action, or a login that adopted
 * the customer's licence and then called `revalidate()`) or the store (a different store-code
 * prefix); plain navigations inside a store reuse it.
 */
export function shouldRevalidate({ formMethod, currentParams, nextParams, currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod.toUpperCase() !== 'GET') return defaultShouldRevalidate;
  // An explicit revalidation (same URL): the cookies may have changed.
  if (currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  if (currentParams.storeCode !== nextParams.storeCode) return defaultShouldRevalidate;
  return false;
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches);

/** The document: shared by the app and the root error boundary. */
export function Layout({ children }: { children: ReactNode }) {
  const data = useOptionalRootData();
  const palette = brandPalette(data?.store.themeColor);
  // Set on the server only (the browser hides nonces from the DOM; hydration ignores them).
  const nonce = useContext(CspNonce);
  // `<html data-hydrated>` once React has taken over the server's page (its effects run after the
  // router's subscriptions): the browser journeys wait for it before driving the router directly.
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);
  const style = {
    '--color-brand': palette.brand,
    '--color-on-brand': palette.onBrand,
    '--color-brand-ink': palette.brandInk,
  } as CSSProperties;
  return (
    <html lang="en-US" style={style}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={palette.brand} />
        {/* Each store installs as its own app (apps/server/src/pwa). */}
        <link rel="manifest" href={`${data?.basePath ?? ''}/manifest.webmanifest`} />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function isAgeGateRoute(id: string): boolean {
  return id === 'age-gate' || id === 'age-gate-prefixed';
}

export default function App({ loaderData }: Route.ComponentProps) {
  const matches = useMatches();
  // A store opened by its path prefix: the API calls name it (the host names another store).
  if (typeof window !== 'undefined') setApiStoreCode(loaderData.basePath ? loaderData.store.storeCode : null);
  // The stand-alone age-gate page renders its own form; everywhere else the gate overlays the page.
  const locked = !loaderData.shopper.ageConfirmed && !matches.some((m) => isAgeGateRoute(m.id));
  return (
    <>
      <div className="flex min-h-dvh flex-col" inert={locked}>
        <Outlet />
      </div>
      {locked ? (
        <AgeGateLoadBoundary>
          <AgeGate.Component />
        </AgeGateLoadBoundary>
      ) : null}
    </>
  );
}

/** Last resort (the root loader or layout failed): no store chrome, no stack trace in production. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const details = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col justify-center px-6 py-16">
      <title>{notFound ? 'Page not found' : 'Something went wrong'}</title>
      <p className="text-sm font-semibold tracking-wide text-stone-600 uppercase">
        {notFound ? MESSAGES.pageNotFound : MESSAGES.internalServerError}
      </p>
      <h1 className="mt-2 font-display text-3xl font-bold">{notFound ? 'Page not found' : 'Something went wrong'}</h1>
      <p className="mt-4 text-lg text-stone-700">
        {notFound ? 'We couldn’t find the page you were looking for.' : MESSAGES.somethingWentWrong}
      </p>
      <p className="mt-8">
        <a href="/" className="font-semibold text-brand-ink underline underline-offset-4">
          Go to the home page
        </a>
      </p>
      {details ? <pre className="mt-8 overflow-x-auto rounded bg-stone-100 p-4 text-xs">{details}</pre> : null}
    </main>
  );
}
