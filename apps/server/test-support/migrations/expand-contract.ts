/**
 * The expand/contract rule, checked (issue 32; the rule: docs/developers/migrations.md). During a
 * rolling deploy the previous release's nodes serve on the schema the new release migrated, so a
 * migration added since the previous release may only EXPAND it; a CONTRACTION is allowed only when
 * the migration is marked (`contract` on its DialectMigration) and touches only what the previous
 * release no longer uses.
 *
 * How it is checked, honestly and no further:
 * - `shippedPrefix`: the previous release's migrations (releases/previous/release.json) are the
 *   head's first ones, same names, same order (a shipped migration is never removed, renamed or
 *   put after a new one);
 * - `capturePostgresStatements`: each new migration is RUN on PostgreSQL (after all before it) and
 *   the SQL it sends is recorded — what Kysely builders and raw `sql` actually issue, not a reading
 *   of the source. PostgreSQL only: rolling deploys (two releases on one database) exist only there;
 *   a SQLite deployment is one process per data directory (db/data-dir-lock.ts), and SQLite's table
 *   rebuilds would read as drops;
 * - `contraction`: each statement against a list of contracting forms (drop/rename of a table or
 *   column, SET NOT NULL, a type change, DROP DEFAULT, a dropped index or constraint, a new NOT NULL
 *   column without a default, TRUNCATE);
 * - a marked migration's contractions must name only what it declares in `touches`, and each
 *   touched table or column name must not appear as a word in the previous release's server bundle
 *   (releases/previous/server.mjs.gz: every query of that release is in it, by name). A common word
 *   appears for other reasons: then `nameAppearsInPreviousReleaseBecause` must say why it is safe.
 * What it cannot see: whether a new constraint holds for the old code's writes (the rolling test,
 *   multinode/previous-release.test.ts, runs the old node's writes on the new schema) and data
 *   backfills' meaning.
 */
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { migrate } from '../../src/db/migrate.ts';
import type { DialectMigration } from '../../src/db/migrations/index.ts';

export type Migrations = Readonly<Record<string, DialectMigration>>;

/** The forms that contract a schema, on PostgreSQL's SQL (lower-cased, spaces collapsed). */
const CONTRACTING: readonly [RegExp, string][] = [
  [/^drop table\b/, 'drops a table'],
  [/^alter table .* drop column\b/, 'drops a column'],
  [/^alter table .* rename column\b/, 'renames a column'],
  [/^alter table .* rename to\b/, 'renames a table'],
  [/^alter table .* alter column .* set not null\b/, 'sets NOT NULL on an existing column'],
  [/^alter table .* alter column .* (set data )?type\b/, 'changes a column type'],
  [/^alter table .* alter column .* drop default\b/, 'drops a default'],
  [/^alter table .* drop constraint\b/, 'drops a constraint'],
  [/^drop index\b/, 'drops an index'],
  [/^drop (view|materialized view|sequence|type|function|trigger|schema)\b/, 'drops a schema object'],
  [/^truncate\b/, 'empties a table'],
];

/** Why a statement contracts the schema, or null when it only expands it (or is data). */
export function contraction(statement: string): string | null {
  const s = statement.replace(/\s+/g, ' ').trim().toLowerCase();
  for (const [form, why] of CONTRACTING) if (form.test(s)) return why;
  // A new column the old code does not know, NOT NULL without a default: the old code's inserts fail.
  // Each `add column` clause of the statement is judged on its own.
  if (/^alter table\b/.test(s)) {
    for (const clause of s.split(/,\s*(?=add column\b|add\b|alter\b|drop\b)/)) {
      const add = /\badd column\b(.*)$/.exec(clause);
      if (add && /\bnot null\b/.test(add[1]) && !/\bdefault\b/.test(add[1]) && !/\bgenerated\b/.test(add[1])) {
        return 'adds a NOT NULL column without a default';
      }
    }
  }
  return null;
}

/** Quoted identifiers of a statement ("orders", "opened_at"). */
function identifiers(statement: string): Set<string> {
  return new Set([...statement.matchAll(/"([^"]+)"/g)].map((m) => m[1]));
}

/** The previous release's migrations are the head's first ones, in the same order: problems found. */
export function shippedPrefix(previous: readonly string[], head: readonly string[]): string[] {
  const problems: string[] = [];
  previous.forEach((name, i) => {
    if (head[i] !== name) problems.push(`shipped migration ${name} is ${head.includes(name) ? `at position ${head.indexOf(name)} instead of ${i}` : 'missing'} in the head`);
  });
  const sorted = [...head].sort();
  if (sorted.join() !== head.join()) problems.push('the head lists its migrations out of name order (Kysely applies them by name)');
  return problems;
}

/**
 * Run `previous` (already shipped), then each migration after it one at a time, on an empty
 * PostgreSQL schema reached through `pool` (its search_path set to `schema`); the SQL each new
 * migration sent, by name.
 */
export async function capturePostgresStatements(
  pool: pg.Pool,
  schema: string,
  migrations: Migrations,
  previous: readonly string[],
): Promise<Map<string, string[]>> {
  let log: string[] = [];
  const db = new Kysely<any>({
    dialect: new PostgresDialect({ pool }),
    log(event) {
      log.push(event.query.sql);
    },
  });
  const names = Object.keys(migrations);
  const shipped = names.filter((n) => previous.includes(n));
  await migrate(db, { dialect: 'postgres', schema, migrations: Object.fromEntries(shipped.map((n) => [n, migrations[n]])) });
  const out = new Map<string, string[]>();
  const upTo: Record<string, DialectMigration> = Object.fromEntries(shipped.map((n) => [n, migrations[n]]));
  for (const name of names.filter((n) => !previous.includes(n))) {
    upTo[name] = migrations[name];
    log = [];
    const { applied } = await migrate(db, { dialect: 'postgres', schema, migrations: { ...upTo } });
    if (applied.join() !== name) throw new Error(`expected to apply ${name} alone, applied ${applied.join(', ') || 'nothing'}`);
    // Kysely's own bookkeeping and our look at it are not the migration's.
    out.set(name, log.filter((q) => !/kysely_migration|pg_catalog|current_schema\(\)|pg_advisory/i.test(q) && !/^\s*(begin|commit|rollback)\b/i.test(q)));
  }
  return out;
}

export interface Violation {
  migration: string;
  problem: string;
}

/** The rule applied to the statements of each new migration. */
export function judge(
  statements: Map<string, string[]>,
  migrations: Migrations,
  previousBundle: string,
): Violation[] {
  const violations: Violation[] = [];
  for (const [name, queries] of statements) {
    const marker = migrations[name].contract;
    const contracting = queries.map((q) => ({ q, why: contraction(q) })).filter((x) => x.why !== null);
    if (!marker) {
      for (const { q, why } of contracting) {
        violations.push({ migration: name, problem: `${why} without being marked as a contract migration: ${q}` });
      }
      continue;
    }
    const touched = marker.touches.map((t) => {
      const [table, column] = t.split('.');
      return { t, table, column, word: column ?? table };
    });
    for (const { q, why } of contracting) {
      const ids = identifiers(q);
      // `table` (or an index's or constraint's name) covers every statement naming it; `table.column` needs both.
      const declared = touched.some(({ table, column }) => ids.has(table) && (column === undefined || ids.has(column)));
      if (!declared) violations.push({ migration: name, problem: `${why}, which contract.touches does not declare (${marker.touches.join(', ')}): ${q}` });
    }
    for (const { t, word } of touched) {
      if (new RegExp(`\\b${word.replace(/[^a-z0-9_]/gi, '')}\\b`).test(previousBundle) && !marker.nameAppearsInPreviousReleaseBecause) {
        violations.push({ migration: name, problem: `contracts ${t}, but "${word}" appears in the previous release's server bundle: that release may still use it` });
      }
    }
  }
  return violations;
}
