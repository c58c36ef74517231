/**
 * The per-request context the server hands to every route loader and action (Hydrogen's pattern):
 * the resolved store and the server modules a page may call. Route modules never touch the
 * database; they call these services. The server (apps/server/src/ssr) builds this object; this
 * file is the contract, so it imports types only.
 */
import type {
  CatalogAttribute,
  CatalogCategory,
  CatalogProduct,
  CurbsideView,
  StockAlertAnswer,
  StockAlertUnsubscribeView,
  DealDisplaySettings,
  FilterKey,
  HomeCollections,
  HoursSettings,
  LicenseType,
  ProductCard,
  ProductDealView,
  ProductReviewsPage,
  ReviewSort,
  ProductSearchParams,
  PublicDelivery,
  Store,
  TaxLine,
  TaxProductKind,
} from '@verdant/domain';
import type { TrackedOrder, TrackingQuery } from '../api/order-tracking.ts';

export type { TrackedOrder, TrackingQuery };

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

/** A store of the deployment as the server knows it: its link, and its hours for the store locator
 *  (kept out of the root data every page carries; only the locator page sends them). */
export interface StoreDirectoryEntry extends StoreLink {
  /** Issue 14: for the store's hours settings (AppContext.storeHours). */
  storeId?: number;
  hours: { day: string; open: string; close: string }[];
  timezone: string;
}

export interface FacetBucket {
  /** The filter value as it appears in the URL (`92`, `0-50`, `3`, `1`). */
  value: string;
  label: string;
  count: number;
}

/** A product list as category pages, search and the offline cache show it. */
export interface ProductListResult {
  items: ProductCard[];
  total: number;
  start: number;
  perPage: number;
  /** Filter panel buckets with counts, per default filter (spec §9), labels resolved. */
  facets: Partial<Record<FilterKey, FacetBucket[]>>;
  /** Labels and options of the attributes the list and its filters use. */
  attributeMetadata: CatalogAttribute[];
  /** Corrected spellings when the text matched only fuzzily. */
  suggestions: string[];
}

/** How a path that no route matched resolves (spec §2 route behaviour, §7 URL mapping). */
export type UrlMapResult =
  | { type: 'product'; sku: string; slug: string; childSku: string | null; path: string; redirect: boolean }
  | { type: 'category'; urlPath: string; path: string; redirect: boolean }
  | { type: 'cms_page'; identifier: string; path: string; redirect: boolean }
  | { type: 'page-not-found' };

export interface StorefrontServices {
  /** The four home lists for a licence type: 15 each, newest first (spec §2, §6, §9). */
  homeCollections(store: Store, licenseType: LicenseType): Promise<HomeCollections>;
  /** An active CMS page of the store by identifier, or null. */
  cmsPage(store: Store, identifier: string): Promise<CmsPage | null>;
  /** Active menu categories from the root (id 2) with nested children_data; hidden ones removed. */
  categoryTree(store: Store): Promise<CatalogCategory[]>;
  /** A category by url_path (`menu/flower`, `menu` for the root), or null. */
  categoryByPath(store: Store, urlPath: string): Promise<CatalogCategory | null>;
  /** Category pages, search panel: filters always applied on the server (spec §7). */
  searchProducts(store: Store, params: ProductSearchParams): Promise<ProductListResult>;
  /**
   * A product by its (parent) sku for the product page, or null when unknown. Throws the spec §8
   * errors for disabled or non-visible products. A child sku with direct access blocked returns
   * its parent (the page then redirects).
   */
  product(store: Store, sku: string): Promise<CatalogProduct | null>;
  /** Products by sku (compare page, wishlist), unknown skus left out. */
  productsBySku(store: Store, skus: string[]): Promise<CatalogProduct[]>;
  /** Resolve a path that matched no route through the URL mapping. */
  mapUrl(store: Store, path: string): Promise<UrlMapResult>;
  /**
   * Issue 28: the deals live now for these products (by sku: a product, and each size of a
   * configurable), for a guest of the licence, with the words under the store's display preset.
   */
  productDeals(store: Store, licenseType: LicenseType, skus: readonly string[]): Promise<PageDeals>;
  /** Issue 28 (/sale, home): every deal live now with its words, and up to `limit` listed products on a deal (cards with `deal`). */
  dealsOnNow(store: Store, licenseType: LicenseType, limit: number): Promise<DealsOnNow>;
  /** Issue 28: an offline cart's deals, estimated from the snapshot (by line key: the deals' discount in cents; nudges). */
  cartDeals(store: Store, licenseType: LicenseType, lines: { key: string; sku: string; qty: number; unitPrice: number }[]): Promise<CartDealsEstimate>;
}

export interface CartDealsEstimate {
  discounts: Record<string, number>;
  nudges: string[];
  /**
   * The store's named tax lines and what they look at for each line (by line key: the product's tax
   * kind and THC percent), when the snapshot carries them: the offline estimate taxes as the server
   * does (apps/server/src/cart/totals.ts priceCart), not by the legacy tax rules an offline page may
   * never have loaded.
   */
  tax?: { lines: TaxLine[]; facts: Record<string, { kind: TaxProductKind | null; thcPercent: number | null }> };
}

export interface DealsOnNow {
  live: { id: string; words: string | null }[];
  cards: ProductCard[];
}

/** The deals a page shows (apps/server/src/deals/page-deals.ts). */
export interface PageDeals {
  display: 'default' | 'CA' | 'MA_ADULT_USE';
  bySku: Record<string, ProductDealView>;
}

export type AppContext = {
  store: Store;
  /** '' or '/{storeCode}' — prepended to every in-store link (spec §2 store-code prefix). */
  basePath: string;
  /** Every store of the deployment, for the store locator. */
  stores: StoreDirectoryEntry[];
  services: StorefrontServices;
  /** True when the server runs the bundled demo data (the UI may show demo hints). */
  demoMode: boolean;
  /** This answer's Content-Security-Policy nonce, for the inline scripts of the document. */
  cspNonce?: string;
  /**
   * Issue 12 order tracking for the /order-tracking action (no JavaScript needed): the same module
   * as `POST /api/order-tracking`, bound to this request's store and client address (its rate
   * limit). Throws the API's errors (`statusCode` 404/429 with the shopper's text).
   */
  trackOrder?(query: TrackingQuery): Promise<TrackedOrder>;
  /**
   * Issue 29: the curbside "I'm here" page's loader and action (no JavaScript needed): the same
   * modules as `GET/POST /api/curbside/:token`, bound to this request's store. Throw the API's
   * errors (`statusCode` 400/404/409/410 with the shopper's text).
   */
  curbside?: {
    view(token: string): Promise<CurbsideView>;
    arrive(token: string, form: { car: string; bay: string }): Promise<CurbsideView>;
  };
  /**
   * Issue 30: back-in-stock alerts without JavaScript: the guest's "tell me when it's back" form
   * and a message's one-tap unsubscribe page, the same modules as `POST /api/stock-alerts` and
   * `GET/POST /api/stock-alerts/unsubscribe/:token`. Throw the API's errors (`statusCode`, text).
   */
  stockAlerts?: {
    ask(form: Record<string, string>): Promise<StockAlertAnswer>;
    unsubscribeView(token: string): Promise<StockAlertUnsubscribeView>;
    unsubscribe(token: string): Promise<StockAlertUnsubscribeView>;
  };
  /**
   * Issue 14: a store's hours settings (weekly hours per order type, exceptions), read through the
   * server's settings cache, for the root data and the store locator. Absent: the default from the
   * store's opening hours (lib/store-hours.ts).
   */
  storeHours?(storeId: number): Promise<HoursSettings>;
  /**
   * Issue 14: the store's delivery zones as the shopper is told them and its medical minimum age
   * (server store-settings/storefront.ts); absent: the defaults (toPublicStore).
   */
  /**
   * Issue 30: a product's published reviews (a page of them, newest or most helpful first) with the
   * average and count, or `enabled: false` when the store switched reviews off; null for an unknown
   * product. Absent (offline): the page shows no reviews.
   */
  productReviews?(sku: string, sort: ReviewSort, page: number): Promise<ProductReviewsPage | null>;
  storeOptions?(storeId: number): Promise<{ delivery: PublicDelivery; medicalMinimumAge: number; perOrderLimit?: boolean; dealDisplay?: DealDisplaySettings; taxNote?: string | null; reviews?: boolean; documentImagesNote?: { id: string; medcard: string }; salesRecordYears?: number }>;
};

declare module 'react-router' {
  interface AppLoadContext extends AppContext {}
}
