/**
 * Migrations at start-up, and what a node does with a schema newer than itself (issue 32: rolling
 * deploys, docs/developers/migrations.md).
 *
 * Kysely's Migrator refuses to run when the database records a migration it was not given
 * ("corrupted migrations: previously executed migration … is missing"). During a rolling deploy
 * that is the normal state for a node of the previous release that restarts after a new node
 * migrated, so before handing over to the Migrator we compare the database's list with ours:
 * - nothing unknown: the Migrator applies what is pending, as it always did;
 * - unknown (newer) migrations, and every migration this build knows is applied: the schema was
 *   expanded by a newer release, which the expand/contract rule makes safe for this build; nothing
 *   is run, the newer names are returned (`newer`) and the node logs them and serves;
 * - unknown migrations AND a known one still pending: the database belongs to another line of
 *   releases (or a release was skipped); applying ours over it is not safe, so it is an error
 *   naming both.
 */
import { Migrator, sql, type DatabaseIntrospector, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { MIGRATIONS, type DialectMigration, type SqlDialect } from './migrations/index.ts';
import { databaseInfo } from './registry.ts';

export interface MigrateOptions {
  /** Defaults to what createDatabase recorded for this instance. */
  dialect?: SqlDialect;
  /** PostgreSQL schema holding the migration tables; defaults to the createDatabase schema. */
  schema?: string | null;
  /**
   * The migrations this build knows (default: all of ./migrations/index.ts). Tests pass a shorter
   * list to play an older build against a newer schema.
   */
  migrations?: Readonly<Record<string, DialectMigration>>;
}

export interface MigrationReport {
  /** Migrations applied now, in order (empty when the database was up to date). */
  applied: string[];
  /** Migrations the database has that this build does not know (a newer release ran them), sorted. */
  newer: string[];
}

/** A static provider: the dialect is bound into each migration so one file serves both dialects. */
function provider(dialect: SqlDialect, migrations: Readonly<Record<string, DialectMigration>>): MigrationProvider {
  return {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, m] of Object.entries(migrations)) {
        out[name] = { up: (db) => m.up(db, dialect), down: (db) => m.down(db, dialect) };
      }
      return out;
    },
  };
}

/**
 * Apply every pending migration in one transaction (both dialects have transactional DDL), and
 * return the names applied (empty when already up to date). Throws, naming the failed migration,
 * when one fails; nothing of the batch is kept then. A database already migrated by a newer
 * release is left as it is (see the top of this file; `migrate()` also tells which migrations).
 */
export async function migrateToLatest(db: Kysely<any>, options: MigrateOptions = {}): Promise<string[]> {
  return (await migrate(db, options)).applied;
}

/** `migrateToLatest`, also naming the newer migrations the database has (what a node logs at start). */
export async function migrate(db: Kysely<any>, options: MigrateOptions = {}): Promise<MigrationReport> {
  const migrations = options.migrations ?? MIGRATIONS;
  const known = databaseInfo(db);
  const dialect = options.dialect ?? known?.dialect;
  if (!dialect) {
    throw new Error('migrateToLatest: unknown database; create it with createDatabase() or pass { dialect }');
  }
  let schema = options.schema !== undefined ? options.schema : (known?.schema ?? null);
  if (dialect === 'postgres' && !schema) {
    // Pin Kysely's bookkeeping to the schema we write to: otherwise a kysely_migration table in any
    // other schema of the same database (say, a test schema) would be mistaken for ours.
    schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema ?? null;
  }
  const migrator = new Migrator({
    db: dialect === 'postgres' && schema ? ownSchemaOnly(db, schema) : db,
    provider: provider(dialect, migrations),
    // With a schema, Kysely must look for its bookkeeping tables in that schema only; otherwise it
    // would find another schema's kysely_migration table on the same server and skip creating ours.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const before = await compare(db, dialect, schema, migrations);
  if (before) return before;
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    // A newer release may have migrated between our look and the Migrator's (it takes its own lock;
    // the migrate CLI does not hold the start-up lock): the same judgement, on what is there now.
    const after = await compare(db, dialect, schema, migrations);
    if (after) return after;
    const failed = results.find((r) => r.status === 'Error');
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration failed${failed ? ` in ${failed.migrationName}` : ''}: ${message}`, {
      cause: error,
    });
  }
  return { applied: results.filter((r) => r.status === 'Success').map((r) => r.migrationName), newer: [] };
}

/**
 * The database's executed migrations against the list this build knows: null when none is unknown
 * (the Migrator's business), a report when the schema is newer and complete for this build; throws
 * when it holds unknown migrations while one of ours is pending.
 */
async function compare(
  db: Kysely<any>,
  dialect: SqlDialect,
  schema: string | null,
  migrations: Readonly<Record<string, DialectMigration>>,
): Promise<MigrationReport | null> {
  const executed = await executedMigrations(db, dialect, schema);
  const known = new Set(Object.keys(migrations));
  const newer = executed.filter((name) => !known.has(name)).sort();
  if (newer.length === 0) return null;
  const done = new Set(executed);
  const pending = [...known].filter((name) => !done.has(name)).sort();
  if (pending.length > 0) {
    throw new Error(
      `Database migration refused: the database has migrations this build does not know (${newer.join(', ')}) ` +
        `while migrations of this build are not applied (${pending.join(', ')}). It was migrated by another line ` +
        `of releases, or a release was skipped: deploy the release that has all of them (docs/operators/deployment.md, "Upgrading").`,
    );
  }
  return { applied: [], newer };
}

/** Names in Kysely's bookkeeping table (none when it does not exist yet). */
async function executedMigrations(db: Kysely<any>, dialect: SqlDialect, schema: string | null): Promise<string[]> {
  if (dialect === 'postgres') {
    const where = schema ?? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema;
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = ${where} and c.relname = 'kysely_migration' and c.relkind in ('r', 'p')`.execute(db);
    if (!rows[0]?.n) return [];
    const names = await sql<{ name: string }>`select name from ${sql.table(`${where}.kysely_migration`)}`.execute(db);
    return names.rows.map((r) => r.name);
  }
  const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(db);
  if (!Number(rows[0]?.n)) return [];
  return (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((r) => r.name);
}

/**
 * Kysely's PostgreSQL introspector lists the tables of every schema and calls functions that look
 * each schema up by name, so it fails ("schema … does not exist") when another session drops a
 * schema meanwhile — parallel test files and multi-node tests do all the time. The migrator only
 * asks whether its schema and bookkeeping tables exist: answer that from our schema alone.
 */
function ownSchemaOnly(db: Kysely<any>, schema: string): Kysely<any> {
  const introspection: DatabaseIntrospector = {
    async getSchemas() {
      const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    async getTables() {
      const { rows } = await sql<{ name: string }>`
        select c.relname as name from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v')`.execute(db);
      return rows.map((r) => ({ name: r.name, schema, isView: false, columns: [] }));
    },
    async getMetadata() {
      return { tables: await this.getTables() };
    },
  };
  // Kysely keeps its state in private fields: methods must run on the real instance.
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'introspection') return introspection;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
