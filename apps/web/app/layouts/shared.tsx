import type { ComponentType, ReactNode } from 'react';
import type { AppLoadContext, MetaDescriptor, MetaArgs } from 'react-router';
import { errorTitle, RouteError } from '../components/page/PageErrors.tsx';
import { isStorePrefixValid } from '../lib/paths.ts';
import { resolveUnmatchedPath } from '../lib/url-mapping.ts';
import { pageMeta } from '../lib/meta.ts';
import { offlineFallback } from '../lib/offline-catalog.ts';

/**
 * What the three layouts of spec §2 (default, minimal, empty) share; they differ only in chrome.
 * In the `/:storeCode` copy of the route tree the loader rejects a prefix that is not the store
 * the server resolved. Such a path (`/blue-dream`, `/shop/blue-dream-eighth`) matched the
 * prefixed tree only by shape, so it goes through the URL mapping first, then answers 404.
 */
export async function layoutLoader({ params, context, url }: { params: { storeCode?: string }; context: AppLoadContext; url: URL }) {
  if (!isStorePrefixValid(params.storeCode, context.basePath)) await resolveUnmatchedPath(url, context);
  return null;
}

/** Offline (issue 6): the same check on the catalogue snapshot, so a client navigation never fails on the layout. */
export const layoutClientLoader = (args: {
  request: Request;
  url: URL;
  params: { storeCode?: string };
  serverLoader: () => Promise<unknown>;
}) => offlineFallback(args, layoutLoader);

export function layoutMeta({ matches, error }: MetaArgs): MetaDescriptor[] {
  return pageMeta(matches, error ? { title: errorTitle(error), noindex: true } : {});
}

/** Errors below a layout (404s included) render inside that layout's chrome. */
export function layoutErrorBoundary(Chrome: ComponentType<{ children: ReactNode }>) {
  return function LayoutErrorBoundary({ error }: { error: unknown }) {
    return (
      <Chrome>
        <RouteError error={error} />
      </Chrome>
    );
  };
}
