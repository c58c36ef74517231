/**
 * One measurement of bench/menu-import.ts, in a process of its own so its peak RSS is its own:
 *   node --import tsx bench/lib/import-runner.ts <parse|dry|apply> FILE DATA_DIR
 * `parse` is the baseline: the same file streamed through csv-parse and counted, nothing else.
 * Prints one JSON line: { rows, ms, maxRssMiB, outcome }.
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { createDatabase, migrateToLatest } from '../../apps/server/src/db/index.ts';
import { importMenu } from '../../apps/server/src/menu-import/index.ts';

const [mode, file, dataDir] = process.argv.slice(2);
const STORE_ID = 1;

const started = performance.now();
let rows = 0;
let outcome = 'parsed';
if (mode === 'parse') {
  for await (const _ of createReadStream(file).pipe(parse({ bom: true, columns: true }))) rows++;
} else {
  const { db, destroy } = await createDatabase({ dataDir });
  await migrateToLatest(db);
  const t0 = performance.now();
  const report = await importMenu(db, { storeId: STORE_ID, source: createReadStream(file), format: 'csv', dryRun: mode === 'dry' });
  rows = report.rows;
  outcome = report.outcome;
  if (report.problemCount) outcome += `: ${report.problems[0]?.reason}`;
  await destroy();
  console.log(JSON.stringify({ rows, ms: performance.now() - t0, maxRssMiB: process.resourceUsage().maxRSS / 1024, outcome }));
  process.exit(0);
}
console.log(JSON.stringify({ rows, ms: performance.now() - started, maxRssMiB: process.resourceUsage().maxRSS / 1024, outcome }));
