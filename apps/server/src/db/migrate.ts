import { Migrator, sql, type DatabaseIntrospector, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { MIGRATIONS, type SqlDialect } from './migrations/index.ts';
import { databaseInfo } from './registry.ts';

export interface MigrateOptions {
  /** Defaults to what createDatabase recorded for this instance. */
  dialect?: SqlDialect;
  /** PostgreSQL schema holding the migration tables; defaults to the createDatabase schema. */
  schema?: string | null;
}

/** A static provider: the dialect is bound into each migration so one file serves both dialects. */
function provider(dialect: SqlDialect): MigrationProvider {
  return {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, m] of Object.entries(MIGRATIONS)) {
        out[name] = { up: (db) => m.up(db, dialect), down: (db) => m.down(db, dialect) };
      }
      return out;
    },
  };
}

/**
 * Apply every pending migration in one transaction (both dialects have transactional DDL), and
 * return the names applied (empty when already up to date). Throws, naming the failed migration,
 * when one fails; nothing of the batch is kept then.
 */
export async function migrateToLatest(db: Kysely<any>, options: MigrateOptions = {}): Promise<string[]> {
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
    provider: provider(dialect),
    // With a schema, Kysely must look for its bookkeeping tables in that schema only; otherwise it
    // would find another schema's kysely_migration table on the same server and skip creating ours.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error');
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration failed${failed ? ` in ${failed.migrationName}` : ''}: ${message}`, {
      cause: error,
    });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
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
