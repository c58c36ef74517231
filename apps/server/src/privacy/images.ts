/**
 * Deleting ID and medical card images under the store's `data-retention` setting (issue 31).
 *
 * An image is due once staff decided on it (uploads.reviewed_at, set in the review's transaction)
 * and the kind's period has passed; 0 days ("not kept", Oregon) makes it due at the decision, and the
 * review route deletes it right after the decision commits (`deleteImagesNotKept`), so no daily run
 * is waited for. An image nobody decided on yet is never due: it waits for staff (and a new upload
 * replaces it, uploads/routes.ts).
 *
 * Deleting one image, safe on several nodes at once:
 *  1. claim it: `UPDATE uploads SET purged_at, original_name = null, sha256 = '' WHERE id AND purged_at
 *     IS NULL` — exactly one caller changes the row, and only that one counts it;
 *  2. unlink the file (a missing file is fine);
 *  3. clear stored_path. A node that stopped between 1 and 3 leaves stored_path set: every run
 *     finishes such rows (`finishDeletedFiles`), uncounted.
 * The row stays (kind, type, size, upload and decision times): the console can say the image was
 * checked and deleted; the decision itself (status, who, when) is on the customer and the orders'
 * history.
 */
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { imageCutoff, type DataRetention, type RetainedDocument } from '@verdant/domain';
import type { Db } from '../orders/lifecycle/store-facts.ts';

const BATCH = 200;
export const RETAINED_KINDS: readonly RetainedDocument[] = ['id', 'medcard'];

async function removeFile(dataDir: string, storedPath: string): Promise<boolean> {
  if (!storedPath) return true;
  try {
    await unlink(path.join(dataDir, storedPath));
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Delete one upload's image; true when this call claimed it (and so counts it). */
export async function deleteUploadImage(db: Db, dataDir: string, uploadId: number, now: Date): Promise<boolean> {
  const row = await db.selectFrom('uploads').select(['stored_path']).where('id', '=', uploadId).executeTakeFirst();
  if (!row) return false;
  const claimed = await db
    .updateTable('uploads')
    .set({ purged_at: now.toISOString(), original_name: null, sha256: '' })
    .where('id', '=', uploadId)
    .where('purged_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  if (await removeFile(dataDir, row.stored_path))
    await db.updateTable('uploads').set({ stored_path: '' }).where('id', '=', uploadId).where('stored_path', '=', row.stored_path).execute();
  return true;
}

/** Files of rows already claimed whose unlink did not finish (a node stopped, a disk error): retried, not counted. */
export async function finishDeletedFiles(db: Db, dataDir: string, storeId: number): Promise<void> {
  const rows = await db
    .selectFrom('uploads')
    .select(['id', 'stored_path'])
    .where('store_id', '=', storeId)
    .where('purged_at', 'is not', null)
    .where('stored_path', '!=', '')
    .limit(BATCH)
    .execute();
  for (const r of rows)
    if (await removeFile(dataDir, r.stored_path))
      await db.updateTable('uploads').set({ stored_path: '' }).where('id', '=', r.id).where('stored_path', '=', r.stored_path).execute();
}

export interface ImagesDeleted {
  id: number;
  medcard: number;
}

/** Delete every image of the store that is due at `now`; counts only what this call claimed. */
export async function deleteDueImages(db: Db, dataDir: string, storeId: number, settings: DataRetention, now: Date): Promise<ImagesDeleted> {
  const result: ImagesDeleted = { id: 0, medcard: 0 };
  for (const kind of RETAINED_KINDS) {
    const cutoff = imageCutoff(settings, kind, now).toISOString();
    let afterId = 0;
    for (;;) {
      const ids = (
        await db
          .selectFrom('uploads')
          .select('id')
          .where('store_id', '=', storeId)
          .where('kind', '=', kind)
          .where('purged_at', 'is', null)
          .where('reviewed_at', 'is not', null)
          .where('reviewed_at', '<=', cutoff)
          .where('id', '>', afterId)
          .orderBy('id')
          .limit(BATCH)
          .execute()
      ).map((r) => r.id);
      for (const id of ids) if (await deleteUploadImage(db, dataDir, id, now)) result[kind]++;
      if (ids.length < BATCH) break;
      afterId = ids[ids.length - 1]!;
    }
  }
  await finishDeletedFiles(db, dataDir, storeId);
  return result;
}

/**
 * After staff decided on a customer's document: when the store keeps no image of that kind, delete
 * the customer's decided images of it now. Returns how many this call deleted.
 */
export async function deleteImagesNotKept(
  db: Db,
  dataDir: string,
  req: { storeId: number; customerId: number; document: RetainedDocument; settings: DataRetention; now: Date },
): Promise<number> {
  const days = req.document === 'id' ? req.settings.idImageDays : req.settings.medicalCardImageDays;
  if (days !== 0) return 0;
  const rows = await db
    .selectFrom('uploads')
    .select('id')
    .where('store_id', '=', req.storeId)
    .where('customer_id', '=', req.customerId)
    .where('kind', '=', req.document)
    .where('purged_at', 'is', null)
    .where('reviewed_at', 'is not', null)
    .execute();
  let n = 0;
  for (const r of rows) if (await deleteUploadImage(db, dataDir, r.id, req.now)) n++;
  return n;
}
