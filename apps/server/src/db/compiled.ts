/**
 * Statements on the hottest paths (every cart change, every totals read) as fixed SQL text that
 * SQLite and PostgreSQL share, run without the query builder: building a select with Kysely costs
 * more than SQLite takes to run it. Write the SQL with `?` placeholders; for PostgreSQL they are
 * numbered ($1, $2, …) once per text and kept. Identifiers and values never go into the text
 * (values are always parameters), so these are as safe as builder queries.
 */
import { CompiledQuery, PostgresAdapter, type Kysely, type QueryResult } from 'kysely';

const numbered = new Map<string, string>();

function postgresText(text: string): string {
  let out = numbered.get(text);
  if (out === undefined) {
    let n = 0;
    out = text.replace(/\?/g, () => `$${++n}`);
    numbered.set(text, out);
  }
  return out;
}

/** Whether `db` (a Kysely instance or a transaction) talks to PostgreSQL. */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Run `text` (with `?` placeholders) with `parameters` on `db` or a transaction. */
export function runSql<R>(db: Kysely<any>, text: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
  const sql = isPostgres(db) ? postgresText(text) : text;
  return db.executeQuery<R>(CompiledQuery.raw(sql, parameters as unknown[]));
}

const lists: string[] = [];

/** `?, ?, ?` for an `in (…)` list of n values (n ≥ 1). */
export function placeholders(n: number): string {
  return (lists[n] ??= Array.from({ length: n }, () => '?').join(', '));
}
