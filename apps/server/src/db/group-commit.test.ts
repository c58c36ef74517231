import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type OwnedTestDatabase } from '../../test-support/databases.ts';
import { runSql } from './compiled.ts';
import { createGroupCommitter, inWriteTransaction } from './group-commit.ts';
import { SQLITE_FILE_NAME } from './index.ts';

const insert = (db: Kysely<any>, body: string) => runSql(db, 'insert into gc_probe (body) values (?)', [body]);
const bodies = async (db: Kysely<any>) => (await runSql<{ body: string }>(db, 'select body from gc_probe order by id', [])).rows.map((r) => r.body);

describe('group commit (SQLite)', () => {
  let t: OwnedTestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase('sqlite');
    await sql`create table gc_probe (id integer primary key, body text not null, parent integer references gc_probe (id))`.execute(t.db);
  });
  afterEach(() => t.cleanup());

  it('commits units that arrive together in one transaction, in arrival order, each answered after its commit', async () => {
    const committer = createGroupCommitter(t.db);
    const file = join(t.dataDir, SQLITE_FILE_NAME);
    const outside = new SqliteDatabase(file, { readonly: true });
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          committer.run(async (trx) => {
            await insert(trx, `u${i}`);
            return i;
          }).then((v) => {
            // Answered only once another connection can read it: the COMMIT has happened.
            const seen = outside.prepare('select count(*) as n from gc_probe where body = ?').get(`u${v}`) as { n: number };
            return { v, seen: seen.n };
          }),
        ),
      );
      expect(answers.map((a) => a.v)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(answers.every((a) => a.seen === 1)).toBe(true);
      expect(await bodies(t.db)).toEqual(Array.from({ length: 20 }, (_, i) => `u${i}`));
      expect(committer.stats.units).toBe(20);
      expect(committer.stats.groups).toBeLessThan(20);
    } finally {
      outside.close();
    }
  });

  it('rolls back only the unit that failed; the others of its group commit', async () => {
    const committer = createGroupCommitter(t.db);
    const results = await Promise.allSettled([
      committer.run((trx) => insert(trx, 'a')),
      committer.run(async (trx) => {
        await insert(trx, 'doomed-1');
        await insert(trx, 'doomed-2');
        throw new Error('refused');
      }),
      committer.run((trx) => insert(trx, 'b')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('refused');
    expect(await bodies(t.db)).toEqual(['a', 'b']);
    expect(committer.stats.groups).toBe(1);
  });

  it('a COMMIT that fails rejects every unit of the group and keeps none of their writes', async () => {
    const committer = createGroupCommitter(t.db);
    const results = await Promise.allSettled([
      committer.run((trx) => insert(trx, 'a')),
      committer.run(async (trx) => {
        // A foreign key checked at COMMIT: the whole group's COMMIT fails.
        await runSql(trx, 'pragma defer_foreign_keys = on', []);
        await runSql(trx, 'insert into gc_probe (body, parent) values (?, ?)', ['orphan', 999]);
      }),
      committer.run((trx) => insert(trx, 'b')),
    ]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(await bodies(t.db)).toEqual([]);
    // The connection is usable again afterwards.
    await committer.run((trx) => insert(trx, 'after'));
    expect(await bodies(t.db)).toEqual(['after']);
  });

  it('runs afterCommit hooks once the COMMIT is done, afterRollback hooks for undone units (own failure or failed COMMIT)', async () => {
    const committer = createGroupCommitter(t.db);
    const file = join(t.dataDir, SQLITE_FILE_NAME);
    const outside = new SqliteDatabase(file, { readonly: true });
    const events: string[] = [];
    const seen = (body: string) => (outside.prepare('select count(*) as n from gc_probe where body = ?').get(body) as { n: number }).n;
    try {
      await Promise.allSettled([
        committer.run(async (trx, tx) => {
          await insert(trx, 'kept');
          tx.afterCommit(() => events.push(`commit kept visible=${seen('kept')}`));
          tx.afterRollback(() => events.push('rollback kept'));
        }),
        committer.run(async (trx, tx) => {
          tx.afterCommit(() => events.push('commit failed-unit'));
          tx.afterRollback(() => events.push(`rollback failed-unit visible=${seen('kept')}`));
          throw new Error('refused');
        }),
      ]);
      // The failed unit is undone at once (the group is still open: nothing is visible outside yet).
      expect(events).toEqual(['rollback failed-unit visible=0', 'commit kept visible=1']);

      events.length = 0;
      await Promise.allSettled([
        committer.run(async (trx, tx) => {
          await insert(trx, 'lost');
          tx.afterCommit(() => events.push('commit lost'));
          tx.afterRollback(() => events.push('rollback lost'));
        }),
        committer.run(async (trx) => {
          await runSql(trx, 'pragma defer_foreign_keys = on', []);
          await runSql(trx, 'insert into gc_probe (body, parent) values (?, ?)', ['orphan', 999]);
        }),
      ]);
      expect(events).toEqual(['rollback lost']);
    } finally {
      outside.close();
    }
  });

  it('caps a group at maxGroup units; the rest commit in the next group', async () => {
    const committer = createGroupCommitter(t.db, 4);
    await Promise.all(Array.from({ length: 10 }, (_, i) => committer.run((trx) => insert(trx, `u${i}`))));
    expect(committer.stats).toEqual({ groups: 3, units: 10 });
    expect(await bodies(t.db)).toHaveLength(10);
  });

  it('runs inside the caller’s transaction when given one', async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await inWriteTransaction(trx as Kysely<any>, (inner) => insert(inner, 'inside'));
        throw new Error('undo all');
      }),
    ).rejects.toThrow('undo all');
    expect(await bodies(t.db)).toEqual([]);
  });

  it('other statements wait while a group holds the connection and see only committed work', async () => {
    const slow = inWriteTransaction(t.db, async (trx) => {
      await insert(trx, 'grouped');
      await new Promise((r) => setTimeout(r, 30));
    });
    // Issued while the group is open: it runs after the COMMIT, on the same single connection.
    await new Promise((r) => setImmediate(r));
    const read = bodies(t.db);
    await slow;
    expect(await read).toEqual(['grouped']);
  });
});
