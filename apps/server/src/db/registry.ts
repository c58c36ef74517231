import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { SqlDialect } from './migrations/helpers.ts';

export interface DatabaseInfo {
  dialect: SqlDialect;
  /** The PostgreSQL schema in use, or null. */
  schema: string | null;
  /** PostgreSQL: the pool under Kysely (its use is reported by /metrics). */
  pool?: pg.Pool;
}

/**
 * What createDatabase knows about each Kysely instance it made. Kysely keeps its dialect adapter
 * internal, so code that must emit dialect-specific SQL (the migrator) looks it up here.
 */
const registry = new WeakMap<Kysely<any>, DatabaseInfo>();

export function registerDatabase(db: Kysely<any>, info: DatabaseInfo): void {
  registry.set(db, info);
}

export function databaseInfo(db: Kysely<any>): DatabaseInfo | undefined {
  return registry.get(db);
}
