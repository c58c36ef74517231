/**
 * Row types of the analytics rollups (migration 0044, issue 31 "Analytics in the console").
 * Conventions are in ../schema.ts; what each column means: the migration.
 */
import type { Defaulted, JsonText, Timestamp } from './common.ts';

export interface AnalyticsDailyTable {
  store_id: number;
  /** Store-local day, YYYY-MM-DD. */
  day: string;
  dim: string;
  key: string;
  label: Defaulted<string>;
  orders: Defaulted<number>;
  units: Defaulted<number>;
  grams_mg: Defaulted<number>;
  sales_cents: Defaulted<number>;
  discount_cents: Defaulted<number>;
  total_cents: Defaulted<number>;
}

/** The same cells by store-local month, YYYY-MM (migration 0044). */
export interface AnalyticsMonthlyTable extends Omit<AnalyticsDailyTable, 'day'> {
  month: string;
}

export interface AnalyticsOrderFactsTable {
  order_id: number;
  store_id: number;
  /** The rollup cells the order counts in now (analytics/cells.ts), JSON. */
  cells: JsonText;
  version: Defaulted<number>;
  updated_at: Timestamp;
}

export interface AnalyticsFunnelTable {
  store_id: number;
  day: string;
  step: string;
  count: Defaulted<number>;
}
