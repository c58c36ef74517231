import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
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
    db,
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
