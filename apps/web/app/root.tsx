import type { CSSProperties, ReactNode } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import { MESSAGES } from '@verdant/domain';
import type { Route } from './+types/root';
import stylesheet from './app.css?url';
import { AgeGateDialog } from './components/age-gate/AgeGateDialog.tsx';
import { brandPalette } from './lib/color.ts';
import { pageMeta } from './lib/meta.ts';
import { useOptionalRootData, type RootData } from './lib/root-data.ts';
import { readShopper } from './lib/shopper.ts';
import { toPublicStore } from './lib/store-view.ts';
import { setApiStoreCode } from './api/store-scope.ts';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export function loader({ request, context }: Route.LoaderArgs): RootData {
  return {
    store: toPublicStore(context.store),
    basePath: context.basePath,
    stores: context.stores,
    shopper: readShopper(request.headers.get('Cookie'), context.store),
    demoMode: context.demoMode,
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
        <ScrollRestoration />
        <Scripts />
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
      {locked ? <AgeGateDialog /> : null}
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
