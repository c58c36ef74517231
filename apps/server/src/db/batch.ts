import type { Insertable, Kysely } from 'kysely';
import type { Database, TableName } from './schema.ts';

/**
 * Bound parameters per statement: SQLite allows 32766, PostgreSQL 65535. Staying well below both
 * keeps statements small enough to prepare quickly.
 */
const MAX_PARAMS = 30_000;

/** Insert rows in multi-row statements of at most MAX_PARAMS bound values. Returns rows written. */
export async function insertInChunks<T extends TableName>(
  db: Kysely<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const columns = Math.max(1, Object.keys(rows[0] as object).length);
  const size = Math.max(1, Math.floor(MAX_PARAMS / columns));
  for (let i = 0; i < rows.length; i += size) {
    // Kysely cannot relate a generic table name to its row type; the signature above does.
    await db
      .insertInto(table)
      .values(rows.slice(i, i + size) as any)
      .execute();
  }
  return rows.length;
}
