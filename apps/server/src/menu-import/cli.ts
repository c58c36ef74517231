/**
 * `npm run import -- --store CODE FILE [--dry-run] [--full] [--adopt-ids] [--confirm-store]`: import a menu file (FORMAT.md) into a
 * store; `npm run import -- --store CODE --export FILE` writes the store's menu (.csv or .json).
 * Opens the database the server would use (SQLite under DATA_DIR, or DATABASE_URL), migrates it and
 * brings the stores table up to the stores file first, as `npm start` does.
 *
 * After a write the running servers are told through the catalogue change bus (REDIS_URL), so
 * search and pages show the new menu without a restart; without REDIS_URL there is no bus to a
 * separate server process, and the CLI says that the server must be restarted to see the change.
 *
 * Exit codes: 0 applied, planned (dry run) or nothing to change; 1 problems found (nothing
 * written); 2 usage (bad arguments, unknown store, unreadable file).
 */
import os from 'node:os';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { redisBus } from '../catalog/change-bus.ts';
import { loadConfig } from '../config.ts';
import { createDatabase, migrateToLatest, syncStores } from '../db/index.ts';
import { readStoresFile } from '../seed/index.ts';
import { ensureStoreScaffold } from '../seed/scaffold.ts';
import { exportMenuCsv, exportMenuJson, importMenu, type ImportReport } from './index.ts';

export const IMPORT_USAGE = [
  'Usage:',
  '  npm run import -- --store CODE FILE.csv|FILE.json [--dry-run] [--full] [--adopt-ids] [--confirm-store]',
  '  npm run import -- --store CODE --export FILE.csv|FILE.json',
  '',
  '  --dry-run  report what would change; write nothing',
  '  --full     the file is the whole menu: variants not in it are taken off the menu',
  '  --adopt-ids  items with no external id of their own (the demo menu) take the file\'s external ids, matched by sku',
  '  --confirm-store  the file is this store\'s menu although it looks like another store\'s (many new items, most prices changed)',
  'The format: apps/server/src/menu-import/FORMAT.md; an example: examples/menu/example-menu.csv',
].join('\n');

export class UsageError extends Error {}

export type ImportCommand =
  | { command: 'import'; store: string; file: string; format: 'csv' | 'json'; dryRun: boolean; full: boolean; adoptIds: boolean; confirmStore: boolean }
  | { command: 'export'; store: string; file: string; format: 'csv' | 'json' };

function formatOf(file: string): 'csv' | 'json' {
  const ext = extname(file).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.csv' || ext === '.txt') return 'csv';
  throw new UsageError(`${file}: the file must end in .csv or .json\n${IMPORT_USAGE}`);
}

/** Parse the command line; throws UsageError with the usage text on bad input. */
export function parseImportArgs(argv: string[]): ImportCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        store: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        full: { type: 'boolean', default: false },
        'adopt-ids': { type: 'boolean', default: false },
        'confirm-store': { type: 'boolean', default: false },
        export: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${IMPORT_USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) throw new UsageError(IMPORT_USAGE);
  const store = values.store?.trim().toLowerCase();
  if (!store) throw new UsageError(`--store is required\n${IMPORT_USAGE}`);
  if (values.export !== undefined) {
    if (positionals.length > 0 || values['dry-run'] || values.full || values['adopt-ids'] || values['confirm-store'])
      throw new UsageError(`--export takes no other file or flag\n${IMPORT_USAGE}`);
    return { command: 'export', store, file: values.export, format: formatOf(values.export) };
  }
  if (positionals.length !== 1) throw new UsageError(`give exactly one file to import\n${IMPORT_USAGE}`);
  const file = positionals[0];
  return {
    command: 'import',
    store,
    file,
    format: formatOf(file),
    dryRun: values['dry-run'] === true,
    full: values.full === true,
    adoptIds: values['adopt-ids'] === true,
    confirmStore: values['confirm-store'] === true,
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The report as text lines (what the CLI prints). */
export function reportLines(report: ImportReport, opts: { dryRun: boolean; full: boolean }): string[] {
  const lines: string[] = [];
  if (report.problemCount > 0) {
    lines.push(`${plural(report.problemCount, 'problem')} in ${plural(report.rows, 'row')}; nothing was changed.`);
    for (const p of report.problems)
      lines.push(
        `  ${p.row ? `row ${p.row}` : 'the file'}${p.column ? `, ${p.column}` : ''}${p.value ? ` "${p.value.replace(/\s+/g, ' ').slice(0, 80)}"` : ''}: ${p.reason}`,
      );
    if (report.problemCount > report.problems.length) lines.push(`  … and ${report.problemCount - report.problems.length} more`);
    return lines;
  }
  const verb = opts.dryRun ? 'Would create' : 'Created';
  lines.push(
    `${opts.dryRun ? 'Dry run: ' : ''}${report.rows} rows. ${verb} ${report.created.length}, ${opts.dryRun ? 'update' : 'updated'} ${report.updated.length}, unchanged ${report.unchanged}` +
      (opts.full ? `, ${opts.dryRun ? 'remove' : 'removed'} ${report.removed.length}` : '') +
      '.',
  );
  for (const c of report.created) lines.push(`  + row ${c.row}: ${c.external_id} ${c.sku} ${c.name}`);
  for (const u of report.updated) {
    lines.push(`  ~ row ${u.row}: ${u.external_id} ${u.sku}`);
    for (const ch of u.changes ?? []) lines.push(`      ${ch.column}: "${ch.before.slice(0, 60)}" → "${ch.after.slice(0, 60)}"`);
  }
  for (const r of report.removed) lines.push(`  - ${r.external_id} ${r.sku} ${r.name} (taken off the menu)`);
  if (report.outcome === 'unchanged') lines.push('Nothing to change.');
  return lines;
}

/** Run one command; returns the exit code. `out`/`err` are stdout/stderr (tests pass their own). */
export async function runImportCli(
  argv: string[],
  io: {
    out: (line: string) => void;
    err: (line: string) => void;
    /** Progress while reading (rows so far, bytes read, file size); `end` once the file is read. */
    progress?: ((rows: number, bytes: number, total: number) => void) & { end?: () => void };
    /** The environment to configure from (default process.env). */
    env?: NodeJS.ProcessEnv;
  } = {
    out: (l) => console.log(l),
    err: (l) => console.error(l),
  },
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(IMPORT_USAGE);
    return 0;
  }
  let args: ImportCommand;
  try {
    args = parseImportArgs(argv);
  } catch (error) {
    io.err((error as Error).message);
    return 2;
  }
  const config = loadConfig(io.env ?? process.env);
  const storesFile = readStoresFile(config.storesFile);
  const store = storesFile.stores.find((s) => s.storeCode.toLowerCase() === args.store);
  if (!store) {
    io.err(`No store with the code ${args.store}; the stores are: ${storesFile.stores.map((s) => s.storeCode).join(', ')}`);
    return 2;
  }
  let size = 0;
  if (args.command === 'import') {
    try {
      const st = await stat(args.file);
      if (!st.isFile()) throw new Error('not a file');
      size = st.size;
    } catch (error) {
      io.err(`Cannot read ${args.file}: ${(error as Error).message}`);
      return 2;
    }
  }
  const { db, destroy } = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(db);
    await syncStores(db, storesFile);
    // A deployment's own stores imported into before the server's first start: the categories,
    // tax lines and pages a store needs exist first (what the server writes at start; idempotent).
    if (!config.demoMode) await ensureStoreScaffold(db, storesFile);
    if (args.command === 'export') {
      const text = args.format === 'json' ? await exportMenuJson(db, store.storeId) : await exportMenuCsv(db, store.storeId);
      await new Promise<void>((resolve, reject) => createWriteStream(args.file).on('error', reject).end(text, resolve));
      io.out(`Wrote the menu of ${store.storeCode} to ${args.file}.`);
      return 0;
    }
    let bytes = 0;
    const source = createReadStream(args.file).on('data', (chunk) => {
      bytes += chunk.length;
    });
    let told = false;
    const report = await importMenu(db, {
      storeId: store.storeId,
      source,
      format: args.format,
      dryRun: args.dryRun,
      full: args.full,
      adoptExternalIds: args.adoptIds,
      confirmStore: args.confirmStore,
      onProgress: (rows) => io.progress?.(rows, bytes, size),
      // Pictures named in the file are beside it; copied into the media the storefront serves.
      images: { sourceDir: dirname(args.file), mediaDir: join(config.dataDir, 'media') },
      // The history names who ran it: the OS user of the command line.
      audit: { source: 'import', actor: { type: 'cli', name: `command line (${cliUser()})` } },
      onChanged: async (storeId, productIds) => {
        if (!config.redisUrl) return;
        const bus = redisBus({
          url: config.redisUrl,
          channel: `${config.redisPrefix ?? 'verdant:'}catalog-changed`,
          name: 'verdant-import',
        });
        try {
          await bus.publish({ storeId, productIds });
          told = true;
        } catch (error) {
          io.err(`The menu was written, but the servers could not be told (${(error as Error).message}); restart them to see it.`);
        } finally {
          await bus.close();
        }
      },
    });
    io.progress?.end?.();
    for (const line of reportLines(report, args)) io.out(line);
    if (report.outcome === 'applied' && told) io.out('The servers were told: search and pages show the new menu.');
    else if (report.outcome === 'applied' && !config.redisUrl) io.out('No REDIS_URL: restart the server to show the new menu.');
    return report.outcome === 'problems' ? 1 : 0;
  } finally {
    await destroy();
  }
}

function cliUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown user';
  }
}

/** A one-line progress bar on stderr for files of 1 MB or more, redrawn at most every 100 ms. */
function progressBar(): ((rows: number, bytes: number, total: number) => void) & { end?: () => void } {
  let last = 0;
  let latest: [number, number, number] | null = null;
  const draw = ([rows, bytes, total]: [number, number, number]) => {
    const share = total > 0 ? Math.min(1, bytes / total) : 0;
    const width = 30;
    const filled = Math.round(share * width);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round(share * 100)}%  ${rows} rows`);
  };
  const bar = (rows: number, bytes: number, total: number) => {
    if (total < 1024 * 1024) return;
    latest = [rows, bytes, total];
    const now = Date.now();
    if (now - last < 100) return;
    last = now;
    draw(latest);
  };
  bar.end = () => {
    if (!latest) return;
    draw(latest);
    process.stderr.write('\n');
  };
  return bar;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runImportCli(process.argv.slice(2), {
    out: (l) => console.log(l),
    err: (l) => console.error(l),
    progress: process.stderr.isTTY ? progressBar() : undefined,
  })
    .then((code) => process.exit(code))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
