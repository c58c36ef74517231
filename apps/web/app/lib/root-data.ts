import { useRouteLoaderData } from 'react-router';
import type { LicenseType } from '@verdant/domain';
import type { StoreLink } from './context.ts';
import type { ShopperState } from './shopper.ts';
import type { PublicStore } from './store-view.ts';
import { withBasePath } from './paths.ts';

/** What the root loader returns: everything the whole page needs (header, footer, age gate). */
export interface RootData {
  store: PublicStore;
  basePath: string;
  stores: StoreLink[];
  shopper: ShopperState;
  demoMode: boolean;
  /**
   * When the server rendered the page (ISO; the output cache may serve it up to a minute later):
   * the first render in the browser judges "open now" at this instant, as the server did, so
   * hydration agrees; then at the browser's clock (components/store/Hours.tsx).
   */
  renderedAt?: string;
}

/** Root data, or undefined when the root loader itself failed (root error boundary). */
export function useOptionalRootData(): RootData | undefined {
  return useRouteLoaderData('root') as RootData | undefined;
}

export function useRootData(): RootData {
  const data = useOptionalRootData();
  if (!data) throw new Error('Root loader data is not available');
  return data;
}

/** Builds in-store paths with the current basePath: `storePath('/menu')` → `/eastside/menu`. */
export function useStorePath(): (path: string) => string {
  const basePath = useOptionalRootData()?.basePath ?? '';
  return (path: string) => withBasePath(basePath, path);
}

export function useLicenseType(): LicenseType {
  return useRootData().shopper.licenseType;
}
