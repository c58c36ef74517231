import type { ComponentType, ReactNode } from 'react';
import type { AppLoadContext, MetaDescriptor, MetaArgs } from 'react-router';
import { errorTitle, RouteError } from '../components/page/PageErrors.tsx';
import { assertStorePrefix } from '../lib/guards.ts';
import { pageMeta } from '../lib/meta.ts';

/**
 * What the three layouts of spec §2 (default, minimal, empty) share; they differ only in chrome.
 * In the `/:storeCode` copy of the route tree the loader rejects a prefix that is not the store
 * the server resolved, so `/not-a-store/...` answers 404.
 */
export function layoutLoader({ params, context }: { params: { storeCode?: string }; context: AppLoadContext }) {
  assertStorePrefix(params.storeCode, context.basePath);
  return null;
}

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
