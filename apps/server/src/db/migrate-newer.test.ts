/**
 * Issue 32 (rolling deploys): a build started on a database that a NEWER release already migrated.
 * An older build is played by handing migrate() a shorter list of migrations (what that build
 * knew); the newer one by the full list plus, where needed, a no-op migration of a later number.
 * - every migration the build knows is applied, plus newer ones: nothing runs, the newer names are
 *   reported (the node logs them and serves);
 * - a known migration missing and nothing unknown: applied as always;
 * - an unknown migration while a known one is pending: an error naming both, nothing applied;
 * - PostgreSQL: an older build that looked before a newer build's migration committed, and then
 *   met it inside Kysely's lock ("corrupted migrations"), judges again and serves.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, describeEachDatabase, postgresStatus, type OwnedTestDatabase } from '../../test-support/databases.ts';
import { migrate, migrateToLatest, type MigrationReport } from './migrate.ts';
import { MIGRATIONS, type DialectMigration } from './migrations/index.ts';

const ALL = Object.entries(MIGRATIONS);
/** The build of "the previous release": all but the last two migrations. */
const OLDER = Object.fromEntries(ALL.slice(0, -2));
const LAST_TWO = ALL.slice(-2).map(([name]) => name);
const noop: DialectMigration = { up: async () => undefined, down: async () => undefined };

async function executed(db: Parameters<typeof migrateToLatest>[0]): Promise<string[]> {
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.rows.map((r) => r.name);
}

describeEachDatabase(
  'a build started on a schema a newer release migrated',
  (getDb) => {
    it('an older build on an empty database applies what it knows, as always', async () => {
      const { db } = getDb();
      expect(await migrate(db, { migrations: OLDER })).toEqual({ applied: Object.keys(OLDER), newer: [] });
    });

    it('the newer build then applies only its own new migrations', async () => {
      const { db } = getDb();
      expect(await migrate(db)).toEqual({ applied: LAST_TWO, newer: [] });
    });

    it('the older build restarted: runs nothing, names the newer migrations, and its plain migrateToLatest answers []', async () => {
      const { db } = getDb();
      expect(await migrate(db, { migrations: OLDER })).toEqual({ applied: [], newer: LAST_TWO });
      expect(await migrateToLatest(db, { migrations: OLDER })).toEqual([]);
      expect(await executed(db)).toEqual(Object.keys(MIGRATIONS).sort());
      // The newer build is up to date, with nothing newer than itself.
      expect(await migrate(db)).toEqual({ applied: [], newer: [] });
    });

    it('an unknown migration while one of this build is pending: refused, naming both, nothing applied', async () => {
      const { db } = getDb();
      // A release of another line ran 9001; this build has 9002 instead, never applied.
      expect(await migrate(db, { migrations: { ...MIGRATIONS, '9001_other_line': noop } })).toEqual({
        applied: ['9001_other_line'],
        newer: [],
      });
      let applied9002 = false;
      const mine: DialectMigration = {
        up: async () => {
          applied9002 = true;
        },
        down: async () => undefined,
      };
      await expect(migrate(db, { migrations: { ...MIGRATIONS, '9002_this_line': mine } })).rejects.toThrow(
        /does not know \(9001_other_line\) while migrations of this build are not applied \(9002_this_line\)/,
      );
      expect(applied9002).toBe(false);
      expect(await executed(db)).not.toContain('9002_this_line');
      // An older build that knows neither is still content: all of its own are there.
      expect(await migrate(db, { migrations: OLDER })).toEqual({ applied: [], newer: [...LAST_TWO, '9001_other_line'].sort() });
    });
  },
  { migrate: false },
);

const pgStatus = postgresStatus();
const pgNeeded = pgStatus.available ? null : pgStatus.reason;

describe.skipIf(pgNeeded !== null && process.env.CI !== 'true')('an older build starting while a newer build migrates [postgres]', () => {
  let t: OwnedTestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('postgres', { migrate: false });
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('looked before the newer migration committed, met it inside the lock: judged again, it serves', async () => {
    const { db } = t;
    // The newer build's last migration holds its transaction (and Kysely's lock) until the older
    // build has looked (nothing migrated yet) and waits on that lock; then it commits.
    let older: Promise<MigrationReport> | undefined;
    const newerStep: DialectMigration = {
      up: async () => {
        older = migrate(db);
        const started = performance.now();
        for (;;) {
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`.execute(db);
          if (rows[0].n > 0) break;
          if (performance.now() - started > 10_000) throw new Error('the older build did not wait on the migration lock within 10 s');
          await new Promise((r) => setTimeout(r, 20));
        }
      },
      down: async () => undefined,
    };
    const newer = await migrate(db, { migrations: { ...MIGRATIONS, '9001_newer': newerStep } });
    expect(newer.applied).toEqual([...Object.keys(MIGRATIONS), '9001_newer']);
    expect(await older).toEqual({ applied: [], newer: ['9001_newer'] });
  });
});
