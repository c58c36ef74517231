/**
 * The storefront services (the route loaders' AppContext contract) answered from one store's
 * catalogue snapshot, for the browser offline (issue 6). It is the server's own code: the same
 * StoreCatalog, search engine, visibility, facets, product lookup and URL mapping, built from the
 * documents `GET /api/catalog/snapshot` sends — so an offline category page filters, sorts and
 * searches exactly as the server would have at the time of the snapshot.
 *
 * Browser-safe on purpose: this module and what it imports use no Node API (the web bundle imports
 * it as `@verdant/server/catalog/offline-services.ts`). Keep it that way; a test checks the import
 * graph (offline-services.test.ts).
 */
import type { CatalogAttribute, Store, TaxLine } from '@verdant/domain';
import { createAttributeIndex } from '@verdant/search';
import type { StorefrontServices } from '@verdant/web/context';
import { createStorefrontServices } from '../ssr/services.ts';
import { StoreCatalog, type StoreContent } from './store-catalog.ts';
import type { PageDealsSource } from '../deals/page-deals.ts';

export interface CatalogSnapshot {
  version: 1;
  /** When the server made it (ISO): the shopper is told how fresh the offline menu is. */
  generatedAt: string;
  store: Store;
  attributes: CatalogAttribute[];
  content: StoreContent;
  /**
   * Issue 28: the store's active deals, their redemptions and its display setting when it has any:
   * offline pages show the deals live at the browser's clock, and an offline cart's estimate applies
   * them (the server's answer, when the order is sent, is the one that counts).
   */
  deals?: PageDealsSource;
  /** The store's named tax lines (issue 14), so an offline cart's estimate taxes as the server does. */
  tax?: { lines: TaxLine[] };
}

export function offlineServices(snapshot: CatalogSnapshot, clock: () => Date = () => new Date()): StorefrontServices {
  const attributes = createAttributeIndex();
  attributes.replaceAll(snapshot.attributes);
  const catalog = new StoreCatalog(snapshot.store.storeId, attributes, snapshot.content, {
    listOutOfStock: snapshot.store.catalog.listOutOfStockProducts,
  });
  const deals = snapshot.deals ?? null;
  const taxLines = snapshot.tax?.lines ?? [];
  return createStorefrontServices({ manager: { catalog: () => catalog }, clock, deals: async () => deals, taxLines: async () => taxLines }).services;
}
