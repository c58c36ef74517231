/**
 * The per-request context the server hands to every route loader and action (Hydrogen's pattern):
 * the resolved store and the server modules a page may call. Route modules never touch the
 * database; they call these services. The server (apps/server/src/ssr) builds this object; this
 * file is the contract, so it imports types only.
 */
import type { HomeCollections, LicenseType, Store } from '@verdant/domain';

export interface CmsPage {
  id: number;
  identifier: string;
  title: string;
  /** Plain paragraphs separated by blank lines (no HTML is ever stored or rendered raw). */
  content: string;
  meta_title: string | null;
  meta_description: string | null;
}

export interface StoreLink {
  storeCode: string;
  name: string;
  url: string;
  city: string;
}

export interface StorefrontServices {
  /** The four home lists for a licence type: 15 each, newest first (spec §2, §6, §9). */
  homeCollections(store: Store, licenseType: LicenseType): Promise<HomeCollections>;
  /** An active CMS page of the store by identifier, or null. */
  cmsPage(store: Store, identifier: string): Promise<CmsPage | null>;
}

export type AppContext = {
  store: Store;
  /** '' or '/{storeCode}' — prepended to every in-store link (spec §2 store-code prefix). */
  basePath: string;
  /** Every store of the deployment, for the store locator. */
  stores: StoreLink[];
  services: StorefrontServices;
  /** True when the server runs the bundled demo data (the UI may show demo hints). */
  demoMode: boolean;
};

declare module 'react-router' {
  interface AppLoadContext extends AppContext {}
}
