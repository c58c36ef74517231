/**
 * `npm run migrate`: apply pending migrations to the database the server would use (SQLite under
 * DATA_DIR, or DATABASE_URL). Safe to run any number of times.
 */
import { runWhenMain } from './run.ts';
import { loadConfig } from '../config.ts';
import { createDatabase, migrate, redact } from '../db/index.ts';

export const MIGRATE_USAGE = [
  'Usage: npm run migrate',
  '  Applies pending migrations to the database the server would use (SQLite under DATA_DIR, or DATABASE_URL).',
].join('\n');

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) return console.log(MIGRATE_USAGE);
  const config = loadConfig();
  const { db, dialect, destroy } = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const { applied, newer } = await migrate(db);
    const where = config.databaseUrl ? redact(config.databaseUrl) : `${config.dataDir}/verdant.sqlite`;
    console.log(
      applied.length > 0
        ? `Applied ${applied.length} migration(s) to ${dialect} (${where}): ${applied.join(', ')}`
        : newer.length > 0
          ? `${dialect} (${where}) is up to date for this build and has ${newer.length} newer migration(s) from a later release: ${newer.join(', ')}`
          : `${dialect} (${where}) is up to date.`,
    );
  } finally {
    await destroy();
  }
}

runWhenMain(import.meta.url, () => main());
