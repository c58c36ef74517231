/**
 * Row types of the document view log and the retention job's runs (migration 0040, issue 31).
 * Conventions are in ../schema.ts; what each column means: the migration.
 */
import type { Generated } from 'kysely';
import type { Defaulted, Timestamp } from './common.ts';

export interface DocumentViewsTable {
  id: Generated<number>;
  store_id: number;
  customer_id: number;
  upload_id: number | null;
  document: 'id' | 'medcard';
  order_id: number | null;
  staff_id: number | null;
  staff_name: string;
  staff_role: string;
  viewed_at: Timestamp;
}

export interface RetentionRunsTable {
  id: Generated<number>;
  store_id: number;
  /** The UTC day (YYYY-MM-DD) the run is for: one run per store and day. */
  run_date: string;
  node: string;
  started_at: Timestamp;
  finished_at: Timestamp | null;
  status: 'running' | 'done' | 'failed';
  id_images_deleted: Defaulted<number>;
  medcard_images_deleted: Defaulted<number>;
  /** Orders reduced to anonymous totals past the sales-record period (migration 0043). */
  orders_purged: Defaulted<number>;
  error: string | null;
}
