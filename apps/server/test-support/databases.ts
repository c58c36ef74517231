/**
 * Run one integration suite on both databases the server supports.
 *
 *   import { describeEachDatabase } from '../test/databases.ts';
 *
 *   describeEachDatabase('carts', (getDb) => {
 *     it('creates a cart', async () => {
 *       const { db, dialect } = getDb();
 *       ...
 *     });
 *   });
 *
 * registers `carts [sqlite]` and `carts [postgres]`. Each gets a fresh, migrated database in
 * beforeAll (a new SQLite file in a temp dir; a new uniquely named schema on TEST_DATABASE_URL),
 * removed again in afterAll; tests of one suite share it, so make rows unique per test or clean up.
 * `getDb()` also gives a temp `dataDir` (for media, uploads) that is removed with the database.
 * For the demo catalogue, seed it once per suite (about 0.2 s):
 *
 *   beforeAll(async () => {
 *     const { db, dataDir } = getDb();
 *     await seedDemo(db, readStoresFile(DEMO_STORES_FILE), { dataDir, referenceDate: new Date('2026-06-15T12:00:00Z') });
 *   });
 *
 * (seedDemo and readStoresFile from ../seed/index.ts, DEMO_STORES_FILE from ../config.ts; a fixed
 * referenceDate keeps "new" items and special-price windows stable.) Pass `{ migrate: false }` to
 * test migrations themselves, and use createTestDatabase() when a test needs a database of its own.
 *
 * PostgreSQL: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test). When it is
 * unset or the server is unreachable, the PostgreSQL suites are skipped with the reason in their
 * name and a warning, except when CI=true: then they fail, so CI never passes on SQLite alone.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createDatabase, migrateToLatest, redact, type DatabaseHandle, type SqlDialect } from '../src/db/index.ts';

export interface TestDatabase extends Omit<DatabaseHandle, 'destroy'> {
  /** A temp directory for files the code under test writes; removed with the database. */
  dataDir: string;
}

export interface TestDatabaseOptions {
  /** Apply all migrations first (default true). Pass false to test the migrations themselves. */
  migrate?: boolean;
}

export interface OwnedTestDatabase extends TestDatabase {
  /** Close connections, drop the PostgreSQL schema, delete the temp directory. */
  cleanup(): Promise<void>;
}

export const TEST_DIALECTS: readonly SqlDialect[] = ['sqlite', 'postgres'];

type PostgresStatus = { available: true; url: string } | { available: false; reason: string };

async function probePostgres(url: string | undefined): Promise<PostgresStatus> {
  if (!url) return { available: false, reason: 'TEST_DATABASE_URL is not set' };
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return { available: true, url };
  } catch (error) {
    return { available: false, reason: `PostgreSQL at ${redact(url)} is unreachable (${(error as Error).message})` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Probed once per test file, before any suite is declared (suites must know whether to skip). */
const postgres = await probePostgres(process.env.TEST_DATABASE_URL);
const requirePostgres = process.env.CI === 'true';

/** Whether PostgreSQL suites run in this process, and why not. */
export function postgresStatus(): PostgresStatus {
  return postgres;
}

/** A fresh database of one dialect, owned by the caller (for tests that need more than one). */
export async function createTestDatabase(
  dialect: SqlDialect,
  options: TestDatabaseOptions = {},
): Promise<OwnedTestDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'verdant-test-'));
  let handle: DatabaseHandle;
  try {
    if (dialect === 'postgres') {
      if (!postgres.available) throw new Error(postgres.reason);
      // Unique per file and run, so test files run in parallel on one server without clashing.
      const schema = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
      handle = await createDatabase({ databaseUrl: postgres.url, dataDir, schema });
    } else {
      handle = await createDatabase({ dataDir });
    }
    if (options.migrate !== false) await migrateToLatest(handle.db);
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const { destroy, ...rest } = handle;
  return {
    ...rest,
    dataDir,
    async cleanup() {
      await destroy();
      if (rest.schema && postgres.available) await dropSchema(postgres.url, rest.schema);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

/**
 * Declare `fn`'s tests once per dialect, each with its own fresh database. `getDb()` may be called
 * in tests and hooks (not while declaring).
 */
export function describeEachDatabase(
  name: string,
  fn: (getDb: () => TestDatabase) => void,
  options: TestDatabaseOptions = {},
): void {
  for (const dialect of TEST_DIALECTS) {
    const title = `${name} [${dialect}]`;
    if (dialect === 'postgres' && !postgres.available) {
      if (requirePostgres) {
        describe(title, () => {
          it('needs PostgreSQL (CI=true)', () => {
            throw new Error(`${postgres.reason}. CI requires the PostgreSQL suites to run.`);
          });
        });
      } else {
        console.warn(`[verdant tests] skipping "${title}": ${postgres.reason}`);
        describe.skip(`${title} (skipped: ${postgres.reason})`, () => fn(notReady));
      }
      continue;
    }
    describe(title, () => {
      let current: OwnedTestDatabase | undefined;
      beforeAll(async () => {
        current = await createTestDatabase(dialect, options);
      });
      afterAll(async () => {
        await current?.cleanup();
      });
      fn(() => current ?? notReady());
    });
  }
}

function notReady(): never {
  throw new Error('The test database is not ready: call getDb() inside a test or hook, not while declaring tests.');
}

/** Names of the tables in the test database (only its own schema on PostgreSQL). */
export async function tableNames(t: TestDatabase): Promise<string[]> {
  return (await ownTables(t, { withKysely: true })).map((x) => x.name);
}

/**
 * This database's own tables (not views) and their columns, by name. On PostgreSQL only the test's
 * schema is read: other test files create and drop schemas on the same database all the while, and
 * Kysely's introspector, which reads every schema, fails now and then with "schema … does not exist"
 * when one is dropped under it (seen in a full run: migrate-concurrent's churn schemas).
 */
export async function ownTables(t: TestDatabase, options: { withKysely?: boolean } = {}): Promise<{ name: string; columns: { name: string }[] }[]> {
  let tables: { name: string; columns: { name: string }[] }[];
  if (t.dialect === 'sqlite') {
    tables = (await t.db.introspection.getTables({ withInternalKyselyTables: true })).filter((x) => !x.isView).map((x) => ({ name: x.name, columns: x.columns.map((c) => ({ name: c.name })) }));
  } else {
    if (!t.schema) throw new Error('ownTables: a PostgreSQL test database has its own schema');
    const rows = (
      await sql<{ table_name: string; column_name: string }>`
        select c.table_name, c.column_name
          from information_schema.columns c
          join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name
         where c.table_schema = ${t.schema} and tb.table_type = 'BASE TABLE'
         order by c.table_name, c.ordinal_position`.execute(t.db)
    ).rows;
    const byName = new Map<string, { name: string }[]>();
    for (const r of rows) {
      if (!byName.has(r.table_name)) byName.set(r.table_name, []);
      byName.get(r.table_name)!.push({ name: r.column_name });
    }
    tables = [...byName].map(([name, columns]) => ({ name, columns }));
  }
  return tables.filter((x) => options.withKysely || !x.name.startsWith('kysely_')).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
