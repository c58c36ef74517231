/**
 * `npm run analytics -- <command>` (issue 31, docs/operators/analytics.md):
 *   rebuild [--store CODE]        rebuild a store's (or every store's) rollups from its orders
 *   seed-history --store CODE [--orders 300000] [--days 365] [--end YYYY-MM-DD]
 *                                 PostgreSQL only: generate a year of orders and rollups to try
 *                                 the dashboard at size (analytics/history.ts); never on a live store
 */
import { parseArgs } from 'node:util';
import { runWhenMain } from './run.ts';
import { readStoresFile } from '../seed/stores-file.ts';
import { loadConfig } from '../config.ts';
import { createDatabase, migrateToLatest } from '../db/index.ts';
import { rebuildStore } from '../analytics/rollup.ts';
import { seedHistory } from '../analytics/history.ts';

export const ANALYTICS_USAGE = [
  'Usage: npm run analytics -- rebuild [--store CODE]',
  '       npm run analytics -- seed-history --store CODE [--orders 300000] [--days 365] [--end YYYY-MM-DD]   (PostgreSQL only)',
].join('\n');

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { store: { type: 'string' }, orders: { type: 'string' }, days: { type: 'string' }, end: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const command = positionals[0];
  if (values.help || (command !== 'rebuild' && command !== 'seed-history')) {
    console.log(ANALYTICS_USAGE);
    if (!values.help) process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const stores = readStoresFile(config.storesFile).stores.filter((s) => !values.store || s.storeCode === values.store);
  if (!stores.length) throw new Error(`No store ${values.store ?? ''} in ${config.storesFile}.`);
  const { db, dialect, destroy } = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(db);
    for (const s of stores) {
      const tz = s.dispensarySettings.place_info.timezone || 'UTC';
      if (command === 'rebuild') {
        const started = Date.now();
        const n = await rebuildStore(db, s.storeId, tz, new Date().toISOString(), (k) => k % 5000 === 0 && console.log(`${s.storeCode}: ${k} orders…`));
        console.log(`${s.storeCode}: rollups rebuilt from ${n} orders in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
      } else {
        if (dialect !== 'postgres') throw new Error('seed-history needs PostgreSQL (DATABASE_URL).');
        if (!values.store) throw new Error('seed-history needs --store CODE.');
        const orders = Number(values.orders ?? 300_000);
        const days = Number(values.days ?? 365);
        if (!Number.isInteger(orders) || orders < 1 || !Number.isInteger(days) || days < 1 || days > 400) throw new Error('--orders is a whole number ≥ 1, --days 1–400.');
        const end = values.end ?? new Date().toISOString().slice(0, 10);
        if (!/^\d{4}-\d{2}-\d{2}$/.test(end)) throw new Error('--end is YYYY-MM-DD.');
        const r = await seedHistory(db, { storeId: s.storeId, timeZone: tz, orders, days, endDay: end });
        console.log(`${s.storeCode}: ${r.orders} orders over ${days} days to ${end}; ${r.rollupRows} rollup rows.`);
      }
    }
  } finally {
    await destroy();
  }
}

runWhenMain(import.meta.url, () => main());
