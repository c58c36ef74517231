/**
 * The database factory: SQLite (better-sqlite3, one file under DATA_DIR) by default, PostgreSQL
 * (`pg` Pool) when a DATABASE_URL is given. Both sit behind one typed Kysely<Database>, and the
 * migrations in ./migrations create the same tables on both.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { startCheckpointer } from './checkpointer.ts';
import type { SqlDialect } from './migrations/helpers.ts';
import { registerDatabase } from './registry.ts';
import { registerSqlitePrepare } from './compiled.ts';
import type { Database } from './schema.ts';

export type { SqlDialect } from './migrations/helpers.ts';
export type * from './schema.ts';
export { TABLES_IN_DEPENDENCY_ORDER } from './schema.ts';
export { migrate, migrateToLatest, type MigrateOptions, type MigrationReport } from './migrate.ts';
export { syncStores } from './stores-sync.ts';
export { insertInChunks } from './batch.ts';
export { databaseInfo, type DatabaseInfo } from './registry.ts';

export interface CreateDatabaseOptions {
  /** postgres://… selects PostgreSQL; absent or empty selects SQLite. */
  databaseUrl?: string;
  /** SQLite writes `${dataDir}/verdant.sqlite` (the directory is created). */
  dataDir: string;
  /**
   * PostgreSQL only: a schema to create if missing and to use as every connection's
   * search_path. Tests use one per test file so they can run in parallel on one database.
   */
  schema?: string;
  /** PostgreSQL only: the most connections this process opens (PG_POOL_MAX; pg's own default, 10). */
  poolMax?: number;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: SqlDialect;
  /** The PostgreSQL schema in use, or null (SQLite, or pg's default search_path). */
  schema: string | null;
  /** PostgreSQL: the connection pool (read by /metrics). */
  pool?: pg.Pool;
  destroy(): Promise<void>;
}

export const SQLITE_FILE_NAME = 'verdant.sqlite';

export async function createDatabase(options: CreateDatabaseOptions): Promise<DatabaseHandle> {
  const handle = options.databaseUrl
    ? await createPostgres(options.databaseUrl, options.schema, options.poolMax)
    : createSqlite(options.dataDir);
  registerDatabase(handle.db, { dialect: handle.dialect, schema: handle.schema, pool: handle.pool });
  return handle;
}

function createSqlite(dataDir: string): DatabaseHandle {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, SQLITE_FILE_NAME);
  const sqlite = new SqliteDatabase(file);
  // WAL lets readers run while one writer writes; NORMAL sync is durable across app crashes in WAL
  // mode; busy_timeout waits for a lock instead of failing at once (e.g. the CLI seeding while the
  // server runs). SQLite leaves foreign keys off unless asked, per connection.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Checkpoints (the fsyncs of WAL mode) run in a worker thread, not inside a commit on the event
  // loop (./checkpointer.ts); this connection checkpoints only if the WAL passes ~40 MB regardless.
  sqlite.pragma('wal_autocheckpoint = 10000');
  const checkpointer = startCheckpointer(file, { onError: (message) => console.warn(`SQLite checkpoint: ${message}`) });
  const cached = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  registerSqlitePrepare(db, cached.prepare);
  const destroy = async () => {
    await checkpointer.close();
    await db.destroy();
  };
  return { db, dialect: 'sqlite', schema: null, destroy };
}

/**
 * Kysely asks better-sqlite3 to prepare every query afresh; compiling the same SQL again costs
 * more than running it. Statements are reusable (Kysely runs one query at a time per connection),
 * so keep them by SQL text. SQLite recompiles a cached statement itself after a
 * schema change. This halves the cost of a cart update.
 */
export const STATEMENT_CACHE_SIZE = 500;

function withStatementCache(sqlite: SqliteDatabase.Database) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = sqlite.prepare(sql);
        // First in, first out: the texts are few (fixed SQL, `in` lists by length), so an evicted
        // hot statement is just prepared once more; no reordering on every hit.
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

// pg returns int8 (count(*), sum of integers) and numeric as strings to avoid precision loss. Our
// values are far below 2^53, so parse them as numbers: queries return the same types on both dialects.
const PG_INT8_OID = 20;
const PG_NUMERIC_OID = 1700;
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === PG_INT8_OID || oid === PG_NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

async function createPostgres(databaseUrl: string, schema: string | undefined, poolMax = 10): Promise<DatabaseHandle> {
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`Invalid PostgreSQL schema name "${schema}": use lowercase letters, digits and _`);
  }
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    types: pgTypes,
    // Every node's pool counts against PostgreSQL's max_connections (bench/SCALE.md, "Pools": nodes × this).
    max: poolMax,
    // A startup parameter, so every pooled connection gets the search_path before its first query.
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle pooled connection can fail (server restart); without a listener that error would end
  // the process. The pool drops the broken client and the next query opens a new one.
  pool.on('error', (error) => console.error(`PostgreSQL pool: ${error.message}`));
  try {
    if (schema) await pool.query(`create schema if not exists "${schema}"`);
    else await pool.query('select 1');
  } catch (error) {
    await pool.end();
    throw new Error(`Cannot connect to PostgreSQL at ${redact(databaseUrl)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', schema: schema ?? null, pool, destroy: () => db.destroy() };
}

/** The URL without its password, for error messages and logs. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}
