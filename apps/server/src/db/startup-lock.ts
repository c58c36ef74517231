/**
 * Several nodes may start at once on one empty PostgreSQL database. Kysely's migrator creates its
 * own bookkeeping tables before it takes its lock, and concurrent `create table if not exists` can
 * fail on PostgreSQL (duplicate pg_type row), so the start-up work (migrate, sync the stores, seed)
 * runs under one session advisory lock per schema: the second node waits, then finds it all done.
 * SQLite needs nothing: one process per data directory (./data-dir-lock.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from './migrations/helpers.ts';
import type { Database } from './schema.ts';

export async function withStartupLock<T>(db: Kysely<Database>, dialect: SqlDialect, work: () => Promise<T>): Promise<T> {
  if (dialect !== 'postgres') return work();
  // Held by one pooled connection for the whole work; the work itself uses other connections.
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtext('verdant:startup:' || coalesce(current_schema(), '')))`.execute(conn);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(hashtext('verdant:startup:' || coalesce(current_schema(), '')))`.execute(conn);
    }
  });
}
