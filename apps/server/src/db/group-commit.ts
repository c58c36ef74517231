/**
 * Group commit for SQLite: short write transactions that arrive together (cart changes under
 * load) share one BEGIN … COMMIT, each unit inside its own SAVEPOINT.
 *
 * Why: with one SQLite connection, every cart change paid its own BEGIN and COMMIT, and the
 * COMMIT (writing the changed pages to the WAL) was the largest single cost of a cart update
 * (`npm run bench`, commerce suite; see the README). A group pays it once.
 *
 * What stays true:
 *  - Durability: a unit's promise settles only after the COMMIT that holds its writes returned,
 *    so nothing is acknowledged that is not in the database.
 *  - Isolation: units run one after another on the one connection (SQLite runs one writer anyway),
 *    each sees the writes of the units before it, exactly as if they had committed in that order.
 *  - Atomicity per unit: a unit that throws is rolled back to its savepoint; the others commit.
 *    If the COMMIT itself fails, every unit of the group is rolled back and rejected with that
 *    error (none of them was acknowledged).
 * Rules for units: use only the `trx` handed in (the connection is held for the group; a call on
 * the root database would wait for the group and never come back), and do nothing slow that is not
 * the database (a unit holds up the group).
 *
 * PostgreSQL is not grouped: each unit runs in its own transaction (PostgreSQL has its own group
 * commit in its WAL writer, and several connections write in parallel).
 */
import type { Kysely } from 'kysely';
import { holdSqliteConnection, isPostgres, releaseSqliteConnection, runSql, sqlitePrepareOf } from './compiled.ts';

/** The most units one COMMIT carries; the rest wait for the next group. */
export const MAX_GROUP = 64;

type Unit<D, T> = (trx: Kysely<D>) => Promise<T>;

interface Pending<D> {
  unit: Unit<D, unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface GroupCommitStats {
  groups: number;
  units: number;
}

export interface GroupCommitter<D> {
  run<T>(unit: Unit<D, T>): Promise<T>;
  readonly stats: GroupCommitStats;
}

export function createGroupCommitter<D>(db: Kysely<D>, maxGroup = MAX_GROUP): GroupCommitter<D> {
  const queue: Pending<D>[] = [];
  const stats: GroupCommitStats = { groups: 0, units: 0 };
  let draining = false;

  async function runGroup(group: Pending<D>[]): Promise<void> {
    const outcomes: Outcome[] = [];
    try {
      await db.connection().execute(async (conn) => {
        // The connection is ours until the group ends: statements may skip Kysely's executor.
        const prepare = sqlitePrepareOf(db);
        if (prepare) holdSqliteConnection(conn, prepare);
        try {
          await runGroupOn(conn, group, outcomes);
        } finally {
          releaseSqliteConnection(conn);
        }
      });
    } catch (error) {
      for (const p of group) p.reject(error);
      return;
    }
    stats.groups += 1;
    stats.units += group.length;
    group.forEach((p, i) => {
      const o = outcomes[i];
      if (o.ok) p.resolve(o.value);
      else p.reject(o.error);
    });
  }

  async function runGroupOn(conn: Kysely<D>, group: Pending<D>[], outcomes: Outcome[]): Promise<void> {
    await runSql(conn, 'begin immediate', []);
    try {
      for (const p of group) {
        await runSql(conn, 'savepoint unit', []);
        try {
          const value = await p.unit(conn);
          await runSql(conn, 'release unit', []);
          outcomes.push({ ok: true, value });
        } catch (error) {
          await runSql(conn, 'rollback to unit', []);
          await runSql(conn, 'release unit', []);
          outcomes.push({ ok: false, error });
        }
      }
      await runSql(conn, 'commit', []);
    } catch (error) {
      // A failed COMMIT (or a rollback that could not run): nothing of the group stays.
      await runSql(conn, 'rollback', []).catch(() => undefined);
      throw error;
    }
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) await runGroup(queue.splice(0, maxGroup));
    } finally {
      draining = false;
    }
  }

  return {
    stats,
    run<T>(unit: Unit<D, T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ unit, resolve: resolve as (v: unknown) => void, reject });
        if (!draining) {
          draining = true;
          // Let the requests already read from the sockets join this group.
          setImmediate(() => void drain());
        }
      });
    },
  };
}

const committers = new WeakMap<Kysely<any>, GroupCommitter<any>>();

/**
 * Run `unit` in a transaction: grouped with other units on SQLite, its own transaction on
 * PostgreSQL, and inside the caller's transaction when `db` already is one.
 */
export function inWriteTransaction<D, T>(db: Kysely<D>, unit: Unit<D, T>): Promise<T> {
  if (db.isTransaction) return unit(db);
  if (isPostgres(db)) return db.transaction().execute(unit);
  let committer = committers.get(db) as GroupCommitter<D> | undefined;
  if (!committer) {
    committer = createGroupCommitter(db);
    committers.set(db, committer);
  }
  return committer.run(unit);
}
