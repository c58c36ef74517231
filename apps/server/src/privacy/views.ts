/**
 * The document view log (issue 31): every time the console serves an ID or medical card image to a
 * member of staff, one row (who, with their name and role as they are now; when; which customer,
 * upload and document; from which order). Written before the file is sent: an image is never shown
 * without its record. One INSERT per view, so a burst of parallel views keeps every one.
 */
import type { DocumentView } from '@verdant/domain/console-api';
import type { Db } from '../orders/lifecycle/store-facts.ts';

export interface ViewRecord {
  storeId: number;
  customerId: number;
  uploadId: number;
  document: 'id' | 'medcard';
  orderId: number | null;
  staff: { id: number; name: string; role: string };
  at: Date;
}

export async function recordDocumentView(db: Db, v: ViewRecord): Promise<void> {
  await db
    .insertInto('document_views')
    .values({
      store_id: v.storeId,
      customer_id: v.customerId,
      upload_id: v.uploadId,
      document: v.document,
      order_id: v.orderId,
      staff_id: v.staff.id,
      staff_name: v.staff.name,
      staff_role: v.staff.role,
      viewed_at: v.at.toISOString(),
    })
    .execute();
}

/** The customer's document views in the store, newest first. */
export async function documentViews(db: Db, storeId: number, customerId: number, limit: number): Promise<DocumentView[]> {
  const rows = await db
    .selectFrom('document_views as v')
    .leftJoin('orders as o', 'o.id', 'v.order_id')
    .select(['v.id', 'v.viewed_at', 'v.document', 'v.upload_id', 'v.staff_id', 'v.staff_name', 'v.staff_role', 'v.order_id', 'o.increment_id'])
    .where('v.store_id', '=', storeId)
    .where('v.customer_id', '=', customerId)
    .orderBy('v.viewed_at', 'desc')
    .orderBy('v.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    viewed_at: r.viewed_at,
    document: r.document,
    upload_id: r.upload_id,
    staff: { id: r.staff_id, name: r.staff_name, role: r.staff_role },
    order: r.order_id != null && r.increment_id != null ? { id: r.order_id, increment_id: r.increment_id } : null,
  }));
}
