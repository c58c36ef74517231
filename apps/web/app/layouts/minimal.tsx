import { Outlet } from 'react-router';
import type { Route } from './+types/minimal';
import { MinimalChrome } from '../components/layout/Chrome.tsx';
import { errorTitle, RouteError } from '../components/page/PageErrors.tsx';
import { assertStorePrefix } from '../lib/guards.ts';
import { pageMeta } from '../lib/meta.ts';

/**
 * Minimal layout (spec §2): logo and main; used by /error.
 * In the `/:storeCode` copy of the route tree this loader rejects a prefix that is not the
 * store the server resolved, so `/not-a-store/...` answers 404.
 */
export function loader({ params, context }: Route.LoaderArgs) {
  assertStorePrefix(params.storeCode, context.basePath);
  return null;
}

export const meta: Route.MetaFunction = ({ matches, error }) =>
  pageMeta(matches, error ? { title: errorTitle(error), noindex: true } : {});

export default function MinimalLayout() {
  return (
    <MinimalChrome>
      <Outlet />
    </MinimalChrome>
  );
}

/** Errors below this layout (404s included) render inside its chrome, with the store's header and footer. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <MinimalChrome>
      <RouteError error={error} />
    </MinimalChrome>
  );
}
