/**
 * PostgreSQL: migrating a schema while other sessions create and drop schemas of the same database
 * (parallel test files, several nodes starting) must not fail. Kysely's own introspector looked
 * at every schema and failed with `schema "…" does not exist` about one migration in three under
 * this churn; the migrator now only looks at its own schema.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresStatus } from '../../test-support/databases.ts';
import { createDatabase, migrateToLatest } from './index.ts';

const status = postgresStatus();
const url = status.available ? status.url : undefined;

describe.skipIf(!url && process.env.CI !== 'true')('migrations on PostgreSQL beside schema churn', () => {
  it('migrates 6 fresh schemas while another session creates and drops schemas all the time', async () => {
    if (!url) throw new Error(status.available ? 'unreachable' : status.reason);
    const tag = `${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    let stop = false;
    let churned = 0;
    const churn = (async () => {
      while (!stop) {
        const name = `churn_${tag}_${churned++}`;
        await admin.query(`create schema ${name}; create table ${name}.t (id serial primary key, a text)`);
        await admin.query(`drop schema ${name} cascade`);
      }
    })();
    const failures: string[] = [];
    try {
      for (let i = 0; i < 6; i++) {
        const schema = `mig_${tag}_${i}`;
        const handle = await createDatabase({ databaseUrl: url, dataDir: tmpdir(), schema });
        try {
          const applied = await migrateToLatest(handle.db);
          expect(applied.length).toBeGreaterThan(0);
        } catch (error) {
          failures.push((error as Error).message);
        } finally {
          await handle.destroy();
          await admin.query(`drop schema if exists ${schema} cascade`);
        }
      }
    } finally {
      stop = true;
      await churn;
      await admin.end();
    }
    expect(churned).toBeGreaterThan(6);
    expect(failures).toEqual([]);
  }, 60_000);
});
