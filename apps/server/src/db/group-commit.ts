/**
 * Group commit for SQLite: short write transactions that arrive together (cart changes under
 * load) share one BEGIN … COMMIT, each unit inside its own SAVEPOINT.
 *
 * Why: with one SQLite connection, every cart change paid its own BEGIN and COMMIT, and the
 * COMMIT (writing the changed pages to the WAL) was the largest single cost of a cart update
 * (`npm run bench`, commerce suite; see docs/developers/benchmarks.md). A group pays it once.
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

/**
 * What a unit may ask to happen once its fate is known (in-memory state that mirrors the database,
 * such as ../cart/cart-cache.ts, must change only with what was committed):
 *  - afterCommit: run right after the COMMIT that holds the unit's writes, before any later unit
 *    starts and before the unit's caller hears of it;
 *  - afterRollback: run when the unit's writes were undone (its own failure, or a failed COMMIT).
 * Inside a caller's transaction the outcome is not known here: afterCommit callbacks are dropped
 * and afterRollback callbacks run when the unit ends, so mirrored state is only ever forgotten.
 */
export interface TransactionHooks {
  afterCommit(fn: () => void): void;
  afterRollback(fn: () => void): void;
}

type Unit<D, T> = (trx: Kysely<D>, hooks: TransactionHooks) => Promise<T>;

class Hooks implements TransactionHooks {
  readonly commits: (() => void)[] = [];
  readonly rollbacks: (() => void)[] = [];
  afterCommit(fn: () => void): void {
    this.commits.push(fn);
  }
  afterRollback(fn: () => void): void {
    this.rollbacks.push(fn);
  }
}

const runAll = (fns: readonly (() => void)[]) => {
  for (const fn of fns) {
    try {
      fn();
    } catch (error) {
      // The transaction's outcome stands; a failing callback must not turn it into an error.
      console.error('transaction hook failed', error);
    }
  }
};

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
    const committed: Hooks[] = [];
    await runSql(conn, 'begin immediate', []);
    try {
      for (const p of group) {
        const hooks = new Hooks();
        await runSql(conn, 'savepoint unit', []);
        try {
          const value = await p.unit(conn, hooks);
          await runSql(conn, 'release unit', []);
          outcomes.push({ ok: true, value });
          committed.push(hooks);
        } catch (error) {
          await runSql(conn, 'rollback to unit', []);
          await runSql(conn, 'release unit', []);
          outcomes.push({ ok: false, error });
          runAll(hooks.rollbacks);
        }
      }
      await runSql(conn, 'commit', []);
    } catch (error) {
      // A failed COMMIT (or a rollback that could not run): nothing of the group stays.
      await runSql(conn, 'rollback', []).catch(() => undefined);
      for (const h of committed) runAll(h.rollbacks);
      throw error;
    }
    for (const h of committed) runAll(h.commits);
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
export async function inWriteTransaction<D, T>(db: Kysely<D>, unit: Unit<D, T>): Promise<T> {
  if (db.isTransaction) {
    const hooks = new Hooks();
    try {
      return await unit(db, hooks);
    } finally {
      runAll(hooks.rollbacks);
    }
  }
  if (isPostgres(db)) {
    const hooks = new Hooks();
    try {
      const value = await db.transaction().execute((trx) => unit(trx, hooks));
      runAll(hooks.commits);
      return value;
    } catch (error) {
      runAll(hooks.rollbacks);
      throw error;
    }
  }
  let committer = committers.get(db) as GroupCommitter<D> | undefined;
  if (!committer) {
    committer = createGroupCommitter(db);
    committers.set(db, committer);
  }
  return committer.run(unit);
}
