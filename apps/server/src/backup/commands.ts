/**
 * `npm run backup` and `npm run restore` (issue 32; the entries are ../cli/backup.ts and
 * ../cli/restore.ts): a consistent backup of the node's data taken while it serves, its images
 * encrypted under BACKUP_KEY, the retention rules applied to the backups, and a restore into a fresh node.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { SQLITE_FILE_NAME } from '../db/index.ts';
import { StoreRegistry } from '../stores/registry.ts';
import { backupKey, createBackup } from './backup.ts';
import { DEFAULT_KEEP_DAYS, pruneBackups } from './prune.ts';
import { restoreBackup } from './restore.ts';

export const BACKUP_USAGE = [
  'Usage: npm run backup -- [--out DIR]',
  '       npm run backup -- prune [--out DIR] [--keep-days N]',
  '  Backs up the database the server uses (SQLite under DATA_DIR: the online backup API, safe while it serves;',
  '  DATABASE_URL: pg_dump), the ID and medical-card images (encrypted with BACKUP_KEY), the token key and the',
  '  product images into DIR/verdant-backup-<time>/ (default DIR: ./backups).',
  `  prune: deletes from every backup in DIR each image past its store's retention period, and backups older`,
  `  than --keep-days (default BACKUP_KEEP_DAYS or ${DEFAULT_KEEP_DAYS}). Run it daily, after the backup.`,
].join('\n');

export const RESTORE_USAGE = [
  'Usage: npm run restore -- --from DIR/verdant-backup-<time> [--force]',
  '  Restores a backup into DATA_DIR (SQLite; --force replaces a database already there) or into DATABASE_URL',
  '  (pg_restore --clean), with BACKUP_KEY; migrates it and applies the retention rules before any node serves it.',
].join('\n');

export async function backup(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { out: { type: 'string' }, 'keep-days': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return console.log(BACKUP_USAGE);
  const out = path.resolve(values.out ?? 'backups');
  if (positionals[0] === 'prune') {
    const keepDays = Number(values['keep-days'] ?? process.env.BACKUP_KEEP_DAYS ?? DEFAULT_KEEP_DAYS);
    if (!Number.isInteger(keepDays) || keepDays < 1) throw new Error('--keep-days must be a whole number of days, at least 1');
    const r = pruneBackups(out, { keepDays });
    console.log(`Pruned ${out}: ${r.imagesDeleted} image(s) past their retention deleted, ${r.backupsDeleted.length} backup(s) older than ${keepDays} days deleted, ${r.backupsKept} kept.`);
    return;
  }
  if (positionals.length) throw new Error(`Unknown argument ${positionals[0]}\n${BACKUP_USAGE}`);
  const config = loadConfig();
  const registry = StoreRegistry.fromFile(config.storesFile);
  const r = await createBackup({
    sqliteFile: config.databaseUrl ? undefined : path.join(config.dataDir, SQLITE_FILE_NAME),
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    stores: registry.stores,
    outDir: out,
    key: backupKey(process.env.BACKUP_KEY),
  });
  console.log(`Backed up to ${r.dir} in ${r.ms} ms: ${r.manifest.dialect} database, ${r.manifest.uploads.length} image(s) encrypted.`);
}

export async function restore(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { from: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) return console.log(RESTORE_USAGE);
  if (!values.from) throw new Error(`--from is required\n${RESTORE_USAGE}`);
  const config = loadConfig();
  const registry = StoreRegistry.fromFile(config.storesFile);
  const r = await restoreBackup({
    from: path.resolve(values.from),
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    stores: registry.stores,
    key: backupKey(process.env.BACKUP_KEY),
    force: values.force,
  });
  console.log(
    `Restored ${values.from} in ${r.ms} ms: ${r.orders} order(s), ${r.imagesRestored} image(s); ${r.imagesMarkedDeleted + r.imagesDeletedByRetention} image(s) past their retention deleted.`,
  );
}

