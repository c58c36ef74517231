/**
 * Issue 32, both databases: a backup taken while orders are being placed restores into a fresh node
 * that serves the same orders, menu and settings; the ID images travel encrypted (never in the clear,
 * a wrong key restores nothing); the retention rules reach the backups (an image past its period is
 * pruned from them, a restore marks it deleted) and whole backups expire.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { orderBody, pin, REFERENCE_DATE, registry } from '../../test-support/cart/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { createDatabase, SQLITE_FILE_NAME } from '../db/index.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { readSection } from '../store-settings/read.ts';
import { DATA_RETENTION_SECTION } from '../privacy/section.ts';
import { backupKey, createBackup, readManifest } from './backup.ts';
import { pruneBackups } from './prune.ts';
import { restoreBackup } from './restore.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const KEY = backupKey(randomBytes(32).toString('hex'));
const DAY = 86_400_000;

describeEachDatabase('backup and restore', (getDb) => {
  let app: FastifyInstance;
  let restoredApp: FastifyInstance | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-backup-test-'));
  let ip = 0;
  const order = (target: FastifyInstance, phone: string) =>
    target.inject({
      method: 'POST',
      url: '/api/order/save',
      remoteAddress: `10.92.${Math.floor(++ip / 250)}.${ip % 250}`,
      headers: { host: 'downtown.localhost' },
      payload: orderBody({
        products: [{ sku: JAR, qty: 1 }],
        personal_details: { firstName: 'Bo', lastName: 'Backup', emailAddress: 'bo@example.com', phone },
      }),
    });
  /**
   * Where a restore of this dialect goes: a fresh DATA_DIR, and for PostgreSQL a database of its own
   * (made once: creating and dropping one takes seconds; pg_restore --clean replaces what is there).
   */
  let restoreDb: string | undefined;
  const target = async () => {
    const dataDir = tmp();
    const t = getDb();
    if (t.dialect === 'sqlite') return { dataDir, databaseUrl: undefined, schema: undefined };
    restoreDb ??= await newDatabase();
    return { dataDir, databaseUrl: restoreDb, schema: t.schema ?? undefined };
  };
  const newDatabase = async () => {
    const name = `verdant_restore_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    });
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const backupOf = (outDir: string, now?: Date) => {
    const t = getDb();
    return createBackup({
      sqliteFile: t.dialect === 'sqlite' ? path.join(t.dataDir, SQLITE_FILE_NAME) : undefined,
      databaseUrl: t.dialect === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
      schema: t.schema,
      dataDir: t.dataDir,
      stores: registry.stores,
      outDir,
      key: KEY,
      now,
    });
  };

  let image: Buffer;
  let oldImageId: number;
  let idDays: number;
  beforeAll(async () => {
    const { db, dataDir } = getDb();
    await seedDemo(db, readStoresFile(DEMO_STORES_FILE), { dataDir, referenceDate: REFERENCE_DATE });
    await pin(db, 1, JAR, { price: 2699, special: null, tiers: [], stock: 100_000 });
    app = await buildApp({ config: { dataDir, demoMode: true, production: true, logLevel: 'silent' }, registry, db, logger: false, clock: () => REFERENCE_DATE });
    // Two ID images: one decided on long ago (past the store's period), one waiting for staff.
    idDays = (await readSection(db, registry.stores[0]!, DATA_RETENTION_SECTION)).value.idImageDays;
    image = randomBytes(4096);
    const now = Date.now();
    const ids: number[] = [];
    for (const [i, reviewed] of [new Date(now - (idDays + 2) * DAY).toISOString(), null].entries()) {
      const stored = path.join('private', 'uploads', '77', `${randomUUID()}.jpg`);
      fs.mkdirSync(path.join(dataDir, path.dirname(stored)), { recursive: true });
      fs.writeFileSync(path.join(dataDir, stored), i === 0 ? randomBytes(2048) : image);
      const row = await db
        .insertInto('uploads')
        .values({ store_id: 1, customer_id: null, kind: 'id', stored_path: stored, original_name: 'id.jpg', mime: 'image/jpeg', size_bytes: 1, sha256: 'x', created_at: new Date(now).toISOString(), reviewed_at: reviewed, purged_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    oldImageId = ids[0]!;
  });
  afterAll(async () => {
    await restoredApp?.close();
    await app?.close();
    for (const c of cleanups) await c();
  });

  it('a backup taken under load restores into a node that serves the same orders, menu and settings', async () => {
    const { db } = getDb();
    const before = [];
    for (let i = 0; i < 4; i++) before.push((await order(app, `(916) 555-02${10 + i}`)).json().result);
    // 30 orders on the way while the backup is taken.
    const load = Promise.all(Array.from({ length: 30 }, (_, i) => order(app, `(916) 555-03${10 + i}`)));
    const out = tmp();
    const { dir, manifest } = await backupOf(out);
    expect((await load).every((r) => r.statusCode === 200)).toBe(true);

    // The images are in the backup, encrypted: the bytes of the waiting one appear nowhere in it.
    expect(manifest.uploads).toHaveLength(2);
    for (const u of manifest.uploads) expect(fs.readFileSync(path.join(dir, u.file!)).includes(image.subarray(0, 64))).toBe(false);
    expect(manifest.uploads.find((u) => u.id === oldImageId)!.dueAt).not.toBeNull();

    // A wrong key restores nothing: every image is decrypted before anything is written.
    const wrong = { dataDir: tmp(), databaseUrl: getDb().dialect === 'postgres' ? 'postgres://nobody@127.0.0.1:1/never-touched' : undefined };
    await expect(restoreBackup({ from: dir, ...wrong, stores: registry.stores, key: backupKey(randomBytes(32).toString('hex')) })).rejects.toThrow(/wrong BACKUP_KEY/);
    expect(fs.readdirSync(wrong.dataDir)).toEqual([]);

    const to = await target();
    const result = await restoreBackup({ from: dir, ...to, stores: registry.stores, key: KEY });
    // The image past its period is deleted at the restore; the waiting one is back, byte for byte.
    expect(result).toMatchObject({ imagesRestored: 2, imagesDeletedByRetention: 1 });
    const restored = await createDatabase({ databaseUrl: to.databaseUrl, dataDir: to.dataDir, schema: to.schema });
    const waiting = await restored.db.selectFrom('uploads').select(['stored_path', 'purged_at']).where('id', '!=', oldImageId).where('kind', '=', 'id').executeTakeFirstOrThrow();
    expect(fs.readFileSync(path.join(to.dataDir, waiting.stored_path)).equals(image)).toBe(true);
    expect(await restored.db.selectFrom('uploads').select(['stored_path']).where('id', '=', oldImageId).executeTakeFirstOrThrow()).toEqual({ stored_path: '' });

    // A consistent snapshot: every order in it is whole (its lines, its total) and as the source has it.
    const columns = ['id', 'increment_id', 'total_cents', 'status', 'personal_details'] as const;
    const mine = await restored.db.selectFrom('orders').select(columns).orderBy('id').execute();
    const source = await db.selectFrom('orders').select(columns).where('id', 'in', mine.map((o) => o.id)).orderBy('id').execute();
    expect(mine).toEqual(source);
    expect(mine.length).toBeGreaterThanOrEqual(4);
    for (const o of mine) {
      const lines = async (d: typeof db) => Number((await d.selectFrom('order_items').select((eb) => eb.fn.countAll().as('n')).where('order_id', '=', o.id).executeTakeFirstOrThrow()).n);
      expect(await lines(restored.db), o.increment_id).toBe(await lines(db));
    }

    // The fresh node serves them: an order looked up by the shopper, the menu, the settings.
    restoredApp = await buildApp({ config: { dataDir: to.dataDir, demoMode: true, production: true, logLevel: 'silent' }, registry, db: restored.db, logger: false, clock: () => REFERENCE_DATE });
    const tracked = await restoredApp.inject({ method: 'POST', url: '/api/order-tracking', remoteAddress: '10.93.0.1', headers: { host: 'downtown.localhost' }, payload: { number: before[0].increment_id, phone: '(916) 555-0210' } });
    expect(tracked.statusCode).toBe(200);
    expect(tracked.json().result.increment_id).toBe(before[0].increment_id);
    const menu = async (a: FastifyInstance) => (await a.inject({ method: 'GET', url: '/api/catalog/products?pageSize=50', headers: { host: 'eastside.localhost' } })).json().result;
    expect(await menu(restoredApp)).toEqual(await menu(app));
    expect((await readSection(restored.db, registry.stores[0]!, DATA_RETENTION_SECTION)).value).toEqual((await readSection(db, registry.stores[0]!, DATA_RETENTION_SECTION)).value);
    // And takes orders.
    expect((await order(restoredApp, '(916) 555-0399')).statusCode).toBe(200);
    await restoredApp.close();
    restoredApp = undefined;
    await restored.destroy();
  });

  it('prunes images past their period from every backup, then whole backups past their keep', async () => {
    const out = tmp();
    const { dir } = await backupOf(out);
    const name = path.basename(dir);
    const oldFile = path.join(dir, 'uploads', `${oldImageId}.enc`);
    expect(fs.existsSync(oldFile)).toBe(true);
    const now = new Date();
    const first = pruneBackups(out, { now, keepDays: 35 });
    expect(first).toEqual({ backupsDeleted: [], imagesDeleted: 1, backupsKept: 1 });
    expect(fs.existsSync(oldFile)).toBe(false);
    expect(readManifest(dir).uploads.find((u) => u.id === oldImageId)).toMatchObject({ file: null, prunedAt: now.toISOString() });
    // Idempotent.
    expect(pruneBackups(out, { now, keepDays: 35 })).toEqual({ backupsDeleted: [], imagesDeleted: 0, backupsKept: 1 });
    // A restore of the pruned backup marks the pruned image deleted.
    const to = await target();
    expect(await restoreBackup({ from: dir, ...to, stores: registry.stores, key: KEY })).toMatchObject({ imagesRestored: 1, imagesMarkedDeleted: 1 });
    // 35 days on, the backup itself goes.
    expect(pruneBackups(out, { now: new Date(now.getTime() + 35 * DAY), keepDays: 35 })).toEqual({ backupsDeleted: [name], imagesDeleted: 0, backupsKept: 0 });
    expect(fs.existsSync(dir)).toBe(false);
  });
});
