/**
 * Issue 32: `npm run restore` — a backup (./backup.ts) into a node's DATA_DIR (and PostgreSQL), ready
 * to serve: the database, the decrypted images, the token key and the product images. Then, before
 * any node serves it: migrations (an older backup is brought up to date), every image the backup no
 * longer holds (pruned under retention, or gone when it was taken) marked deleted as the retention job
 * marks them, and the retention rules applied once at the restore's time — so a restore never brings
 * back an image past its store's period (issue 31).
 *
 * Refuses to overwrite: a DATA_DIR that already has a database (SQLite) unless `force`; PostgreSQL is
 * restored with `pg_restore --clean --if-exists` into the database (and schema) given.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Store } from '@verdant/domain';
import { createDatabase, migrateToLatest, redact, SQLITE_FILE_NAME } from '../db/index.ts';
import { readSection } from '../store-settings/read.ts';
import { DATA_RETENTION_SECTION } from '../privacy/section.ts';
import { deleteDueImages } from '../privacy/images.ts';
import { decrypt, readManifest, safeUploadPath } from './backup.ts';

export interface RestoreOptions {
  from: string;
  dataDir: string;
  databaseUrl?: string;
  schema?: string;
  stores: readonly Store[];
  key: Buffer;
  force?: boolean;
  now?: Date;
}

export interface RestoreResult {
  orders: number;
  imagesRestored: number;
  imagesMarkedDeleted: number;
  imagesDeletedByRetention: number;
  ms: number;
}

export async function restoreBackup(o: RestoreOptions): Promise<RestoreResult> {
  const t0 = performance.now();
  const now = o.now ?? new Date();
  const manifest = readManifest(o.from);
  if (manifest.dialect === 'postgres' && !o.databaseUrl) throw new Error('This backup is of PostgreSQL: set DATABASE_URL to restore it');
  if (manifest.dialect === 'sqlite' && o.databaseUrl) throw new Error('This backup is of SQLite: unset DATABASE_URL to restore it into DATA_DIR');
  // Every image decrypts before anything is written: a wrong key changes nothing.
  const images = manifest.uploads.flatMap((u) => (u.file ? [{ u, plain: decrypt(o.key, fs.readFileSync(path.join(o.from, u.file)), u.storedPath) }] : []));
  const secret = manifest.authSecret ? decrypt(o.key, fs.readFileSync(path.join(o.from, manifest.authSecret)), 'auth-secret') : null;

  fs.mkdirSync(o.dataDir, { recursive: true });
  if (manifest.dialect === 'sqlite') {
    const target = path.join(o.dataDir, SQLITE_FILE_NAME);
    if (fs.existsSync(target) && !o.force) throw new Error(`${target} exists: restore into an empty DATA_DIR, or pass --force to replace it`);
    for (const suffix of ['-wal', '-shm']) fs.rmSync(target + suffix, { force: true });
    fs.copyFileSync(path.join(o.from, manifest.database), target);
  } else {
    const args = ['--clean', '--if-exists', '--no-owner', `--dbname=${o.databaseUrl}`, path.join(o.from, manifest.database)];
    const run = spawnSync('pg_restore', args, { encoding: 'utf8' });
    if (run.error || run.status !== 0) throw new Error(`pg_restore failed for ${redact(o.databaseUrl!)}: ${run.error?.message ?? run.stderr.trim()}`);
  }
  for (const { u, plain } of images) {
    const target = safeUploadPath(o.dataDir, u.storedPath);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, plain, { mode: 0o600 });
  }
  if (secret) fs.writeFileSync(path.join(o.dataDir, 'auth-secret'), secret, { mode: 0o600 });
  if (manifest.media) fs.cpSync(path.join(o.from, 'media'), path.join(o.dataDir, 'media'), { recursive: true });

  const { db, destroy } = await createDatabase({ databaseUrl: o.databaseUrl, dataDir: o.dataDir, schema: o.schema });
  try {
    await migrateToLatest(db);
    // Rows whose image the backup does not hold: deleted, as the retention job leaves them.
    const restored = new Set(images.map((i) => i.u.id));
    const live = await db.selectFrom('uploads').select(['id']).where('purged_at', 'is', null).where('stored_path', '!=', '').execute();
    const missing = live.map((r) => r.id).filter((id) => !restored.has(id));
    for (let i = 0; i < missing.length; i += 500)
      await db
        .updateTable('uploads')
        .set({ purged_at: now.toISOString(), original_name: null, sha256: '', stored_path: '' })
        .where('id', 'in', missing.slice(i, i + 500))
        .execute();
    let deleted = 0;
    for (const store of o.stores) {
      const settings = (await readSection(db, store, DATA_RETENTION_SECTION)).value;
      const n = await deleteDueImages(db, o.dataDir, store.storeId, settings, now);
      deleted += n.id + n.medcard;
    }
    const orders = Number((await db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    return { orders, imagesRestored: images.length, imagesMarkedDeleted: missing.length, imagesDeletedByRetention: deleted, ms: Math.round(performance.now() - t0) };
  } finally {
    await destroy();
  }
}
