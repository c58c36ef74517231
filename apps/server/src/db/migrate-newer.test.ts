/**
 * Issue 32 (rolling deploys): a build started on a database that a NEWER release already migrated.
 * An older build is played by handing migrate() a shorter list of migrations (what that build
 * knew); the newer one by the full list plus, where needed, a no-op migration of a later number.
 * - every migration the build knows is applied, plus newer ones: nothing runs, the newer names are
 *   reported (the node logs them and serves);
 * - a known migration missing and nothing unknown: applied as always;
 * - an unknown migration while a known one is pending: an error naming both, nothing applied.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { migrate, migrateToLatest } from './migrate.ts';
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
