/**
 * The Kysely `Database` type: every table the server keeps (spec §3). The migrations in
 * ./migrations create exactly these columns on SQLite and on PostgreSQL, so the conventions are
 * what both dialects store the same way:
 *  - money is integer cents, in columns ending `_cents` (`Cents` in @verdant/domain);
 *  - timestamps are ISO-8601 UTC text, which sorts correctly as a string;
 *  - booleans are integers 0/1 (`Flag`); JSON is text (`JsonText`);
 *  - fractional numbers (grams, percents, rates) are `double precision`, never `numeric`, so pg
 *    returns JavaScript numbers;
 *  - ids the server creates are auto-increments (`Generated<number>`); catalogue ids (products,
 *    categories, CMS, tax) are explicit, because they come from the seed or the source system.
 */
import type { Insertable, Selectable } from 'kysely';
import type * as C from './tables/catalog.ts';
import type * as O from './tables/commerce.ts';
import type * as S from './tables/console.ts';
import type * as I from './tables/integration.ts';
import type * as T from './tables/tax.ts';
import type * as D from './tables/deals.ts';
import type * as V from './tables/delivery.ts';
import type * as A from './tables/alerts.ts';
import type * as R from './tables/reviews.ts';
import type * as P from './tables/privacy.ts';
import type * as AN from './tables/analytics.ts';

export type * from './tables/common.ts';
export type * from './tables/catalog.ts';
export type * from './tables/commerce.ts';
export type * from './tables/console.ts';
export type * from './tables/integration.ts';
export type * from './tables/tax.ts';
export type * from './tables/deals.ts';
export type * from './tables/delivery.ts';
export type * from './tables/alerts.ts';
export type * from './tables/reviews.ts';
export type * from './tables/privacy.ts';
export type * from './tables/analytics.ts';

export interface Database {
  stores: C.StoresTable;
  catalog_sources: C.CatalogSourcesTable;
  attributes: C.AttributesTable;
  categories: C.CategoriesTable;
  products: C.ProductsTable;
  product_categories: C.ProductCategoriesTable;
  product_media: C.ProductMediaTable;
  product_attribute_values: C.ProductAttributeValuesTable;
  product_configurable_options: C.ProductConfigurableOptionsTable;
  product_configurable_option_values: C.ProductConfigurableOptionValuesTable;
  bundle_options: C.BundleOptionsTable;
  product_links: C.ProductLinksTable;
  custom_options: C.CustomOptionsTable;
  custom_option_values: C.CustomOptionValuesTable;
  stock: C.StockTable;
  product_prices: C.ProductPricesTable;
  tier_prices: C.TierPricesTable;
  qty_discounts: C.QtyDiscountsTable;
  tax_rules: C.TaxRulesTable;
  tax_rates: C.TaxRatesTable;
  cms_pages: C.CmsPagesTable;
  cms_blocks: C.CmsBlocksTable;
  url_rewrites: C.UrlRewritesTable;
  customers: O.CustomersTable;
  customer_addresses: O.CustomerAddressesTable;
  carts: O.CartsTable;
  cart_items: O.CartItemsTable;
  coupons: O.CouponsTable;
  newsletter_subscribers: O.NewsletterSubscribersTable;
  uploads: O.UploadsTable;
  orders: O.OrdersTable;
  order_items: O.OrderItemsTable;
  auth_codes: O.AuthCodesTable;
  refresh_tokens: O.RefreshTokensTable;
  password_reset_tokens: O.PasswordResetTokensTable;
  idempotency_keys: O.IdempotencyKeysTable;
  staff: S.StaffTable;
  staff_stores: S.StaffStoresTable;
  staff_sessions: S.StaffSessionsTable;
  staff_password_resets: S.StaffPasswordResetsTable;
  staff_login_throttle: S.StaffLoginThrottleTable;
  staff_unlock_tokens: S.StaffUnlockTokensTable;
  order_events: S.OrderEventsTable;
  store_order_settings: S.StoreOrderSettingsTable;
  outbox_events: S.OutboxEventsTable;
  message_deliveries: S.MessageDeliveriesTable;
  webhook_endpoints: S.WebhookEndpointsTable;
  webhook_deliveries: S.WebhookDeliveriesTable;
  webhook_attempts: S.WebhookAttemptsTable;
  menu_changes: S.MenuChangesTable;
  store_settings: S.StoreSettingsTable;
  store_settings_history: S.StoreSettingsHistoryTable;
  order_tax_lines: T.OrderTaxLinesTable;
  slot_bookings: O.SlotBookingsTable;
  api_keys: I.ApiKeysTable;
  api_idempotency: I.ApiIdempotencyTable;
  integration_stock_sequences: I.IntegrationStockSequencesTable;
  deals: D.DealsTable;
  deal_changes: D.DealChangesTable;
  deal_redemptions: D.DealRedemptionsTable;
  drivers: V.DriversTable;
  vehicles: V.VehiclesTable;
  trips: V.TripsTable;
  trip_stops: V.TripStopsTable;
  driver_actions: V.DriverActionsTable;
  driver_devices: V.DriverDevicesTable;
  loyalty_accounts: O.LoyaltyAccountsTable;
  loyalty_ledger: O.LoyaltyLedgerTable;
  consent_events: A.ConsentEventsTable;
  stock_watches: A.StockWatchesTable;
  reviews: R.ReviewsTable;
  review_votes: R.ReviewVotesTable;
  review_product_stats: R.ReviewProductStatsTable;
  customer_notes: O.CustomerNotesTable;
  document_views: P.DocumentViewsTable;
  retention_runs: P.RetentionRunsTable;
  data_deletions: O.DataDeletionsTable;
  customer_merges: O.CustomerMergesTable;
  analytics_daily: AN.AnalyticsDailyTable;
  analytics_monthly: AN.AnalyticsMonthlyTable;
  analytics_order_facts: AN.AnalyticsOrderFactsTable;
  analytics_funnel: AN.AnalyticsFunnelTable;
}

export type TableName = keyof Database;
/** A row as inserted / as read, by table name. */
export type NewRow<T extends TableName> = Insertable<Database[T]>;
export type Row<T extends TableName> = Selectable<Database[T]>;

/** Every table, in an order where each table comes after the tables it references. */
export const TABLES_IN_DEPENDENCY_ORDER: readonly TableName[] = [
  'stores',
  'catalog_sources',
  'attributes',
  'categories',
  'products',
  'product_categories',
  'product_media',
  'product_attribute_values',
  'product_configurable_options',
  'product_configurable_option_values',
  'bundle_options',
  'product_links',
  'custom_options',
  'custom_option_values',
  'stock',
  'product_prices',
  'tier_prices',
  'qty_discounts',
  'tax_rules',
  'tax_rates',
  'cms_pages',
  'cms_blocks',
  'url_rewrites',
  'customers',
  'customer_addresses',
  'carts',
  'cart_items',
  'coupons',
  'newsletter_subscribers',
  'uploads',
  'orders',
  'order_items',
  'auth_codes',
  'refresh_tokens',
  'password_reset_tokens',
  'idempotency_keys',
  'staff',
  'staff_stores',
  'staff_sessions',
  'staff_password_resets',
  'staff_login_throttle',
  'staff_unlock_tokens',
  'order_events',
  'store_order_settings',
  'outbox_events',
  'message_deliveries',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
  'menu_changes',
  'store_settings',
  'store_settings_history',
  'order_tax_lines',
  'slot_bookings',
  'api_keys',
  'api_idempotency',
  'integration_stock_sequences',
  'deals',
  'deal_changes',
  'deal_redemptions',
  'drivers',
  'vehicles',
  'trips',
  'trip_stops',
  'driver_actions',
  'driver_devices',
  'loyalty_accounts',
  'loyalty_ledger',
  'consent_events',
  'stock_watches',
  'reviews',
  'review_votes',
  'review_product_stats',
  'customer_notes',
  'document_views',
  'retention_runs',
  'data_deletions',
  'customer_merges',
  'analytics_daily',
  'analytics_monthly',
  'analytics_order_facts',
  'analytics_funnel',
];
