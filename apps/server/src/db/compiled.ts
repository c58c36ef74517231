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

/** A better-sqlite3 statement as far as this module uses it. */
interface SqliteStatement {
  reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): { changes: number; lastInsertRowid: number | bigint };
}
export type SqlitePrepare = (sql: string) => SqliteStatement;

const preparers = new WeakMap<Kysely<any>, SqlitePrepare>();
const held = new WeakMap<Kysely<any>, SqlitePrepare>();

/** ../db/index.ts registers how to prepare (cached) statements on a SQLite database's connection. */
export function registerSqlitePrepare(db: Kysely<any>, prepare: SqlitePrepare): void {
  preparers.set(db, prepare);
}

export function sqlitePrepareOf(db: Kysely<any>): SqlitePrepare | undefined {
  return preparers.get(db);
}

/**
 * While `conn` (a Kysely bound to the one SQLite connection by `db.connection()`) is held by
 * the caller — the group committer holds it for a whole group — runSql() on it runs the statement
 * on the connection directly, without Kysely's executor (a third of a cart update's cost).
 * Only safe while the connection is held: nothing else can be mid-transaction on it then.
 */
export function holdSqliteConnection(conn: Kysely<any>, prepare: SqlitePrepare): void {
  held.set(conn, prepare);
}

export function releaseSqliteConnection(conn: Kysely<any>): void {
  held.delete(conn);
}

/** Run `text` (with `?` placeholders) with `parameters` on `db` or a transaction. */
export function runSql<R>(db: Kysely<any>, text: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
  const prepare = held.get(db);
  if (prepare) {
    // The same results Kysely's SQLite driver gives (rows for readers; counts for writes).
    try {
      const stmt = prepare(text);
      if (stmt.reader) return Promise.resolve({ rows: stmt.all(parameters) as R[] });
      const { changes, lastInsertRowid } = stmt.run(parameters);
      return Promise.resolve({ rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) });
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const sql = isPostgres(db) ? postgresText(text) : text;
  return db.executeQuery<R>(CompiledQuery.raw(sql, parameters as unknown[]));
}

const lists: string[] = [];

/** `?, ?, ?` for an `in (…)` list of n values (n ≥ 1). */
export function placeholders(n: number): string {
  return (lists[n] ??= Array.from({ length: n }, () => '?').join(', '));
}
