/**
 * Every migration, in order, imported statically so the migrator works the same under tsx, in a
 * bundle and in tests (no directory scanning). Add a new file here with the next number; never
 * edit one that has shipped. A new migration only expands the schema while the previous release
 * still runs on it; contractions are marked and wait a release (docs/developers/migrations.md,
 * db/expand-contract.test.ts).
 */
import type { DialectMigration } from './helpers.ts';
import { migration0001 } from './0001_initial.ts';
import { migration0002 } from './0002_product_options.ts';
import { migration0003 } from './0003_prices_stock_tax.ts';
import { migration0004 } from './0004_content.ts';
import { migration0005 } from './0005_customers_and_carts.ts';
import { migration0006 } from './0006_orders_and_auth.ts';
import { migration0007 } from './0007_password_resets.ts';
import { migration0008 } from './0008_cart_ordered_at.ts';
import { migration0009 } from './0009_phone_identity.ts';
import { migration0010 } from './0010_store_console.ts';
import { migration0011 } from './0011_order_search.ts';
import { migration0012 } from './0012_menu_import.ts';
import { migration0013 } from './0013_menu_changes.ts';
import { migration0015 } from './0015_store_settings.ts';
import { migration0018 } from './0018_order_tax_lines.ts';
import { migration0016 } from './0016_time_slots.ts';
import { migration0014 } from './0014_integration_api.ts';
import { migration0017 } from './0017_cart_delivery_zip.ts';
import { migration0020 } from './0020_order_birthday.ts';
import { migration0021 } from './0021_staff_login_throttle.ts';
import { migration0026 } from './0026_order_opened.ts';
import { migration0028 } from './0028_deals.ts';
import { migration0029 } from './0029_delivery_trips.ts';
import { migration0030 } from './0030_curbside.ts';
import { migration0031 } from './0031_trip_stops_outcome.ts';
import { migration0032 } from './0032_reviews.ts';
import { migration0033 } from './0033_consent_and_alerts.ts';
import { migration0034 } from './0034_loyalty.ts';
import { migration0035 } from './0035_message_receipts.ts';
import { migration0039 } from './0039_data_deletions.ts';
import { migration0040 } from './0040_data_retention.ts';
import { migration0041 } from './0041_customer_records.ts';
import { migration0042 } from './0042_customer_merges.ts';
import { migration0043 } from './0043_sales_record_purge.ts';
import { migration0044 } from './0044_analytics.ts';
import { migration0045 } from './0045_request_ids.ts';

export const MIGRATIONS: Readonly<Record<string, DialectMigration>> = {
  '0001_initial': migration0001,
  '0002_product_options': migration0002,
  '0003_prices_stock_tax': migration0003,
  '0004_content': migration0004,
  '0005_customers_and_carts': migration0005,
  '0006_orders_and_auth': migration0006,
  '0007_password_resets': migration0007,
  '0008_cart_ordered_at': migration0008,
  '0009_phone_identity': migration0009,
  '0010_store_console': migration0010,
  '0011_order_search': migration0011,
  '0012_menu_import': migration0012,
  '0013_menu_changes': migration0013,
  '0014_integration_api': migration0014,
  '0015_store_settings': migration0015,
  '0016_time_slots': migration0016,
  '0017_cart_delivery_zip': migration0017,
  '0018_order_tax_lines': migration0018,
  '0020_order_birthday': migration0020,
  '0021_staff_login_throttle': migration0021,
  '0026_order_opened': migration0026,
  '0028_deals': migration0028,
  '0029_delivery_trips': migration0029,
  '0030_curbside': migration0030,
  '0031_trip_stops_outcome': migration0031,
  '0032_reviews': migration0032,
  '0033_consent_and_alerts': migration0033,
  '0034_loyalty': migration0034,
  '0035_message_receipts': migration0035,
  '0039_data_deletions': migration0039,
  '0040_data_retention': migration0040,
  '0041_customer_records': migration0041,
  '0042_customer_merges': migration0042,
  '0043_sales_record_purge': migration0043,
  '0044_analytics': migration0044,
  '0045_request_ids': migration0045,
};

export type { ContractMarker, DialectMigration, SqlDialect } from './helpers.ts';
