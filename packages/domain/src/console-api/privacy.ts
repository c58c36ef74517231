/**
 * Data retention and the document view log (issue 31), under /stores/:storeId:
 *   GET /customers/:customerId/document-views   customers:verify  who opened the customer's ID and
 *                                                medical card images, newest first (?limit=, 1–200, default 50)
 *   GET /data-retention/runs                     settings:write    the retention job's last runs (?limit=, default 10)
 * The setting itself is the settings section `data-retention` (GET|PUT /settings/sections/data-retention).
 */
import { z } from 'zod';

export const documentViewsQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }).strict();
export const retentionRunsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(10) }).strict();

/** One staff view of an ID or medical card image. */
export interface DocumentView {
  id: number;
  viewed_at: string;
  document: 'id' | 'medcard';
  upload_id: number | null;
  staff: { id: number | null; name: string; role: string };
  /** The order the image was opened from; null: opened outside an order. */
  order: { id: number; increment_id: string } | null;
}

export interface RetentionRun {
  id: number;
  run_date: string;
  node: string;
  started_at: string;
  finished_at: string | null;
  status: 'running' | 'done' | 'failed';
  id_images_deleted: number;
  medcard_images_deleted: number;
  /** Orders this run reduced to their anonymous totals (past the sales-record period). */
  orders_purged: number;
  error: string | null;
}
