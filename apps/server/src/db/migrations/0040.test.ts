/**
 * Migration 0040 (issue 31) adds reviewed_at / purged_at to uploads and the document view log and the
 * retention runs. Proven on both databases: an upload written before it keeps every value and reads as
 * "not decided on, not deleted"; down drops the new columns and tables and keeps the uploads; the
 * unique store × day of the runs holds after up again.
 */
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test-support/databases.ts';
import { syncStores } from '../index.ts';
import { DEMO_STORES_FILE } from '../../config.ts';
import { readStoresFile } from '../../seed/index.ts';
import { migration0040 } from './0040_data_retention.ts';
import { MIGRATIONS } from './index.ts';

const LATER = Object.keys(MIGRATIONS).filter((name) => name > '0040_data_retention').sort();

describeEachDatabase('migration 0040: data retention and the document view log', (getDb) => {
  it('keeps uploads through down and up; old uploads are undecided and kept; one run per store and day', async () => {
    const t = getDb();
    const db = t.db;
    await syncStores(db, readStoresFile(DEMO_STORES_FILE));
    for (const name of [...LATER].reverse()) await db.transaction().execute((trx) => MIGRATIONS[name]!.down(trx, t.dialect));
    await db.transaction().execute((trx) => migration0040.down(trx, t.dialect));
    const old = db as unknown as import('kysely').Kysely<any>;
    const at = '2026-06-15T12:00:00.000Z';
    await old
      .insertInto('uploads')
      .values({ store_id: 1, customer_id: null, kind: 'id', stored_path: 'private/uploads/1/abc', original_name: 'id.png', mime: 'image/png', size_bytes: 12, sha256: 'f'.repeat(64), created_at: at })
      .execute();
    await db.transaction().execute((trx) => migration0040.up(trx, t.dialect));
    for (const name of LATER) await db.transaction().execute((trx) => MIGRATIONS[name]!.up(trx, t.dialect));

    const row = await db.selectFrom('uploads').selectAll().where('stored_path', '=', 'private/uploads/1/abc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'id', original_name: 'id.png', sha256: 'f'.repeat(64), created_at: at, reviewed_at: null, purged_at: null });
    const run = { store_id: 1, run_date: '2026-06-15', node: 'a', started_at: at, finished_at: null, status: 'running' as const, error: null };
    await db.insertInto('retention_runs').values(run).execute();
    await expect(db.insertInto('retention_runs').values({ ...run, node: 'b' }).execute()).rejects.toThrow();
  });
});
