/**
 * The shopper's data rights (issue 31): the export of everything the store holds about them, and
 * the deletion of their account. Both walk the registry (personal-data.ts); what each table gives
 * and loses is said there and in docs/operators/privacy.md.
 *
 * Deletion, in one write transaction:
 *  - refused while an order is open (not completed, cancelled or no-show): the store still has to
 *    hand over or deliver it, and cancelling for the shopper would surprise them. They cancel or
 *    collect first (409, errorCode `open_orders`);
 *  - the customer row is taken first with a guarded update, so of a burst of requests one deletes
 *    and the others find no customer (answered "already deleted", never an error);
 *  - the registry's `erase` of every table, children before parents;
 *  - one `data_deletions` row: store and time, orders kept, uploads removed; no personal data.
 * After the commit the upload files and the customer's upload folder leave the disk.
 */
import { rm, readFile } from 'node:fs/promises';
import path from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import type { Kysely } from 'kysely';
import { isFinalStatus, type OrderStatus } from '@verdant/domain';
import { cartCacheFor } from '../cart/cart-cache.ts';
import type { Database, TableName } from '../db/schema.ts';
import { TABLES_IN_DEPENDENCY_ORDER } from '../db/schema.ts';
import { inWriteTransaction } from '../db/group-commit.ts';
import { toCsv, type CsvCell } from '../http/csv.ts';
import { ApiError } from '../http/envelope.ts';
import { PERSONAL_DATA, SALES_RECORD_RETENTION_YEARS, consentPseudonym, type PersonalDataRule } from './personal-data.ts';
import { readSubject, type Db, type Subject } from './subject.ts';

export const RIGHTS_MESSAGES = {
  openOrders: 'You have orders that are not finished yet. Once they are collected, delivered or cancelled, you can delete your account.',
  exportLimit: 'Too many downloads. Please try again later.',
  deleteLimit: 'Too many requests. Please try again later.',
} as const;

/** Shape version of data.json; docs/operators/privacy.md describes it. */
export const EXPORT_FORMAT = 'verdant-personal-data/1';

export interface DeletionOutcome {
  /** False: the account was gone already (a repeated or parallel request). */
  deleted: boolean;
  orders_kept: number;
  retention_years: number;
}

export interface RightsDeps {
  db: Kysely<Database>;
  dataDir: string;
  secret: Uint8Array;
  now: () => Date;
  /** The store's sales-record period (setting `data-retention`, issue 31); default SALES_RECORD_RETENTION_YEARS. */
  salesRecordYears?: number;
}

const ERASE_ORDER: readonly TableName[] = [...TABLES_IN_DEPENDENCY_ORDER].reverse();

export async function deleteAccount(deps: RightsDeps, storeId: number, customerId: number): Promise<DeletionOutcome> {
  const iso = deps.now().toISOString();
  const pseudonym = consentPseudonym(deps.secret);
  const cache = cartCacheFor(deps.db);
  const result = await inWriteTransaction(deps.db, async (trx, tx) => {
    // The row lock (PostgreSQL) or the write transaction (SQLite) makes the rest once-only.
    const taken = await trx.updateTable('customers').set({ updated_at: iso }).where('id', '=', customerId).where('store_id', '=', storeId).executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) return null;
    const subject = (await readSubject(trx, storeId, customerId))!;
    const statuses = await trx.selectFrom('orders').select('status').where('store_id', '=', storeId).where('customer_id', '=', customerId).execute();
    if (statuses.some((o) => !isFinalStatus(o.status as OrderStatus))) throw new ApiError(409, RIGHTS_MESSAGES.openOrders, { errorCode: 'open_orders' });
    if (cache) for (const token of subject.cartTokens) cache.writing(token, tx);
    // Profiles merged into this one (issue 31) own nothing any more but still name the person
    // (phone, e-mail, name, and what was sent to that phone): they go first, through the same rules.
    for (const id of await mergedInto(trx, storeId, customerId)) {
      const merged = await readSubject(trx, storeId, id);
      if (!merged) continue;
      for (const table of ERASE_ORDER) await PERSONAL_DATA[table].erase?.(trx, merged, { iso, pseudonym });
    }
    for (const table of ERASE_ORDER) {
      const rule: PersonalDataRule = PERSONAL_DATA[table];
      if (rule.erase) await rule.erase(trx, subject, { iso, pseudonym });
    }
    await trx.insertInto('data_deletions').values({ store_id: storeId, requested_at: iso, orders_kept: subject.orderIds.length, uploads_removed: subject.uploadPaths.length }).execute();
    return subject;
  });
  if (!result) return { deleted: false, orders_kept: 0, retention_years: deps.salesRecordYears ?? SALES_RECORD_RETENTION_YEARS };
  await removeUploadFiles(deps.dataDir, result);
  return { deleted: true, orders_kept: result.orderIds.length, retention_years: deps.salesRecordYears ?? SALES_RECORD_RETENTION_YEARS };
}

/** Every profile merged into `customerId`, directly or through a profile merged into it (deepest first). */
async function mergedInto(trx: Db, storeId: number, customerId: number): Promise<number[]> {
  const out: number[] = [];
  let level = [customerId];
  while (level.length) {
    const rows = await trx.selectFrom('customers').select('id').where('store_id', '=', storeId).where('merged_into', 'in', level).execute();
    level = rows.map((r) => r.id).filter((id) => !out.includes(id));
    out.unshift(...level);
  }
  return out;
}

/** The files, and the customer's folder (private/uploads/<customer id>), after the commit. */
async function removeUploadFiles(dataDir: string, s: Subject): Promise<void> {
  const root = path.resolve(dataDir, 'private', 'uploads');
  for (const rel of s.uploadPaths) {
    const file = path.resolve(dataDir, rel);
    // Only ever inside the uploads folder, whatever a row says.
    if (file.startsWith(root + path.sep)) await rm(file, { force: true });
  }
  await rm(path.join(root, String(s.customerId)), { recursive: true, force: true });
}

export interface ExportArchive {
  filename: string;
  bytes: Uint8Array;
}

/**
 * data.json (every registry table with rows of the customer, plus the upload list), one CSV per
 * table, and the upload files themselves under uploads/ (they are the customer's own documents; a
 * file missing from disk is listed with `file: null`).
 */
export async function exportAccount(deps: RightsDeps, storeId: number, customerId: number): Promise<ExportArchive | null> {
  const { db } = deps;
  const subject = await readSubject(db, storeId, customerId);
  if (!subject) return null;
  const store = await db.selectFrom('stores').select(['id', 'code', 'name']).where('id', '=', storeId).executeTakeFirst();
  const tables: Record<string, Record<string, unknown>[]> = {};
  for (const table of TABLES_IN_DEPENDENCY_ORDER) {
    const rule = PERSONAL_DATA[table];
    if (rule.export) tables[table] = await rule.export(db, subject);
  }
  const files: Record<string, Uint8Array> = {};
  const uploads = [];
  for (const u of tables.uploads ?? []) {
    const rel = String(u.stored_path);
    const name = `uploads/${u.id}-${u.kind}${extensionOf(String(u.mime))}`;
    const abs = path.resolve(deps.dataDir, rel);
    const inside = abs.startsWith(path.resolve(deps.dataDir, 'private', 'uploads') + path.sep);
    const bytes = inside ? await readFile(abs).catch(() => null) : null;
    if (bytes) files[name] = new Uint8Array(bytes);
    uploads.push({ id: u.id, kind: u.kind, original_name: u.original_name, file: bytes ? name : null });
  }
  const exportedAt = deps.now().toISOString();
  const data = {
    format: EXPORT_FORMAT,
    exported_at: exportedAt,
    store: store ?? { id: storeId },
    customer_id: customerId,
    tables,
    uploads,
    on_deletion: Object.fromEntries(
      Object.entries(PERSONAL_DATA)
        .filter(([, r]) => r.holds != null)
        .map(([t, r]) => [t, { deletion: r.deletion, anonymised: r.anonymised ?? [], why: r.why }]),
    ),
  };
  const entries: Record<string, Uint8Array> = { 'data.json': strToU8(JSON.stringify(data, null, 2)) };
  for (const [table, rows] of Object.entries(tables)) {
    if (rows.length === 0) continue;
    entries[`csv/${table}.csv`] = strToU8(tableCsv(rows));
  }
  Object.assign(entries, files);
  const mtime = new Date(exportedAt);
  const bytes = zipSync(entries, { level: 6, mtime });
  return { filename: `my-data-${store?.code ?? storeId}-${exportedAt.slice(0, 10)}.zip`, bytes };
}

function extensionOf(mime: string): string {
  return mime === 'image/png' ? '.png' : mime === 'application/pdf' ? '.pdf' : mime === 'image/jpeg' ? '.jpg' : '';
}

function tableCsv(rows: Record<string, unknown>[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown): CsvCell => (v == null ? null : typeof v === 'number' || typeof v === 'string' ? v : typeof v === 'boolean' ? (v ? 1 : 0) : JSON.stringify(v));
  return toCsv([columns, ...rows.map((r) => columns.map((c) => cell(r[c])))]);
}
