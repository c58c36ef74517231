/**
 * Issue 32: backups an operator can restore a node from (`npm run backup`, `npm run restore`).
 *
 * One backup is one directory `verdant-backup-<UTC time>/`:
 *  - `database.sqlite` — SQLite's online backup API (better-sqlite3 `backup`, every page in one step,
 *    so a server writing meanwhile neither blocks it nor makes it restart): a consistent copy taken
 *    while the node serves. PostgreSQL: `database.pgdump`, `pg_dump --format=custom` (one snapshot).
 *  - `uploads/<id>.enc` — each ID and medical-card image the database still holds, encrypted with
 *    AES-256-GCM under `BACKUP_KEY` (the image's path is authenticated with it, so a file cannot be
 *    swapped for another customer's); `auth-secret.enc` the same way. Never in the clear in a backup.
 *  - `media/` — product images, as they are (public anyway).
 *  - `manifest.json`, written last (a directory without one is an interrupted backup: restore
 *    refuses it): format, when, the database kind, and per image its store, kind and the date the
 *    store's data-retention setting makes it due (issue 31).
 *
 * Retention reaches backups (./prune.ts): an image whose due date passed is deleted from every
 * backup, and a whole backup goes after `BACKUP_KEEP_DAYS`; a restore (./restore.ts) marks images
 * pruned from its backup as deleted and runs the retention rules once before the node serves.
 */
import { spawnSync } from 'node:child_process';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { imageDueAt, type Store } from '@verdant/domain';
import type { Database } from '../db/schema.ts';
import { readSection } from '../store-settings/read.ts';
import { DATA_RETENTION_SECTION } from '../privacy/section.ts';
import { RETAINED_KINDS } from '../privacy/images.ts';
import { redact } from '../db/index.ts';

export const BACKUP_FORMAT = 1;
export const MANIFEST = 'manifest.json';

export interface BackupUpload {
  id: number;
  storeId: number;
  kind: string;
  /** Where the image lives under DATA_DIR (uploads.stored_path). */
  storedPath: string;
  /** Its encrypted copy in the backup, or null once pruned. */
  file: string | null;
  /** When the store's retention makes it due (null: not decided yet, kept with the backup). */
  dueAt: string | null;
  prunedAt?: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  dialect: 'sqlite' | 'postgres';
  database: string;
  authSecret: string | null;
  media: boolean;
  uploads: BackupUpload[];
}

/** BACKUP_KEY: 32 bytes as 64 hex characters or base64. */
export function backupKey(value: string | undefined): Buffer {
  if (!value) throw new Error('BACKUP_KEY is required: 32 random bytes as 64 hex characters (openssl rand -hex 32)');
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('BACKUP_KEY must be 32 bytes: 64 hex characters or 44 base64 characters');
  return key;
}

/** iv (12) ‖ tag (16) ‖ ciphertext; `label` is authenticated (the file's place), not stored. */
export function encrypt(key: Buffer, plain: Buffer, label: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(label));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

export function decrypt(key: Buffer, sealed: Buffer, label: string): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAAD(Buffer.from(label));
  decipher.setAuthTag(sealed.subarray(12, 28));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
  } catch {
    throw new Error(`Cannot decrypt ${label}: wrong BACKUP_KEY, or the file was changed`);
  }
}

export interface BackupOptions {
  /** The live database: SQLite's file, or PostgreSQL's URL (and schema, tests). */
  sqliteFile?: string;
  databaseUrl?: string;
  schema?: string | null;
  dataDir: string;
  stores: readonly Store[];
  /** Where the backup directory is created. */
  outDir: string;
  key: Buffer;
  now?: Date;
}

export interface BackupResult {
  dir: string;
  manifest: BackupManifest;
  ms: number;
}

export async function createBackup(o: BackupOptions): Promise<BackupResult> {
  const t0 = performance.now();
  const now = o.now ?? new Date();
  const dir = path.join(o.outDir, `verdant-backup-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`);
  fs.mkdirSync(o.outDir, { recursive: true });
  fs.mkdirSync(dir); // fails if it exists: never mix two backups
  fs.mkdirSync(path.join(dir, 'uploads'));

  let database: string;
  let copy: Kysely<Database>;
  let closeCopy: () => Promise<void>;
  if (o.databaseUrl) {
    database = 'database.pgdump';
    const args = ['--format=custom', `--file=${path.join(dir, database)}`, '--no-owner', ...(o.schema ? [`--schema=${o.schema}`] : []), o.databaseUrl];
    const run = spawnSync('pg_dump', args, { encoding: 'utf8' });
    if (run.error || run.status !== 0)
      throw new Error(`pg_dump failed for ${redact(o.databaseUrl)}: ${run.error?.message ?? run.stderr.trim()} (install the PostgreSQL client: apt-get install postgresql-client)`);
    // The images listed are those of the live database now (the dump is its own snapshot; an image
    // deleted in between is missing from both or kept as a row whose file the restore marks deleted).
    const { createDatabase } = await import('../db/index.ts');
    const handle = await createDatabase({ databaseUrl: o.databaseUrl, dataDir: o.dataDir, schema: o.schema ?? undefined });
    copy = handle.db;
    closeCopy = handle.destroy;
  } else {
    if (!o.sqliteFile || !fs.existsSync(o.sqliteFile)) throw new Error(`No SQLite database at ${o.sqliteFile}`);
    database = 'database.sqlite';
    const source = new SqliteDatabase(o.sqliteFile, { readonly: true, fileMustExist: true });
    try {
      // Every remaining page in one step: a consistent copy even while the server writes.
      await source.backup(path.join(dir, database), { progress: () => 1_000_000 });
    } finally {
      source.close();
    }
    // The images are listed from the copy itself: exactly the rows the backup holds.
    const sqlite = new SqliteDatabase(path.join(dir, database), { readonly: true });
    copy = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    closeCopy = () => copy.destroy();
  }

  const uploads: BackupUpload[] = [];
  try {
    const rows = await copy
      .selectFrom('uploads')
      .select(['id', 'store_id', 'kind', 'stored_path', 'reviewed_at'])
      .where('purged_at', 'is', null)
      .where('stored_path', '!=', '')
      .orderBy('id')
      .execute();
    const retention = new Map<number, Awaited<ReturnType<typeof readSection>>['value']>();
    for (const store of o.stores) retention.set(store.storeId, (await readSection(copy, store, DATA_RETENTION_SECTION)).value);
    for (const row of rows) {
      const source = safeUploadPath(o.dataDir, row.stored_path);
      if (!fs.existsSync(source)) continue; // deleted on disk meanwhile: the restore marks it deleted
      const file = `uploads/${row.id}.enc`;
      fs.writeFileSync(path.join(dir, file), encrypt(o.key, fs.readFileSync(source), row.stored_path));
      const settings = retention.get(row.store_id) as Parameters<typeof imageDueAt>[0] | undefined;
      const kind = RETAINED_KINDS.find((k) => k === row.kind);
      const due = settings && kind ? imageDueAt(settings, kind, row.reviewed_at) : null;
      uploads.push({ id: row.id, storeId: row.store_id, kind: row.kind, storedPath: row.stored_path, file, dueAt: due ? due.toISOString() : null });
    }
  } finally {
    await closeCopy();
  }

  let authSecret: string | null = null;
  const secretFile = path.join(o.dataDir, 'auth-secret');
  if (fs.existsSync(secretFile)) {
    authSecret = 'auth-secret.enc';
    fs.writeFileSync(path.join(dir, authSecret), encrypt(o.key, fs.readFileSync(secretFile), 'auth-secret'));
  }
  const mediaDir = path.join(o.dataDir, 'media');
  const media = fs.existsSync(mediaDir);
  if (media) fs.cpSync(mediaDir, path.join(dir, 'media'), { recursive: true });

  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    createdAt: now.toISOString(),
    dialect: o.databaseUrl ? 'postgres' : 'sqlite',
    database,
    authSecret,
    media,
    uploads,
  };
  writeManifest(dir, manifest);
  return { dir, manifest, ms: Math.round(performance.now() - t0) };
}

/** Atomically (a rename): a reader sees the old manifest or the new one, never half of one. */
export function writeManifest(dir: string, manifest: BackupManifest): void {
  const tmp = path.join(dir, `${MANIFEST}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(manifest, null, 2));
  fs.renameSync(tmp, path.join(dir, MANIFEST));
}

export function readManifest(dir: string): BackupManifest {
  const file = path.join(dir, MANIFEST);
  if (!fs.existsSync(file)) throw new Error(`${dir} is not a complete backup (no ${MANIFEST}: interrupted, or not a backup)`);
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT) throw new Error(`${dir}: backup format ${manifest.format} is not ${BACKUP_FORMAT}`);
  return manifest;
}

/** An upload's path under DATA_DIR, refusing anything outside private/uploads (a crafted manifest or row). */
export function safeUploadPath(dataDir: string, storedPath: string): string {
  const root = path.resolve(dataDir, 'private', 'uploads');
  const full = path.resolve(dataDir, storedPath);
  if (!full.startsWith(root + path.sep)) throw new Error(`Refusing an upload path outside private/uploads: ${storedPath}`);
  return full;
}

export { decrypt as decryptBackupFile };
