/**
 * Menu import at size (issue 13): a 10,000-row CSV menu (2,000 flower products in 4 sizes, 2,000
 * single-unit items) imported into a demo store of a fresh SQLite database by the import engine,
 * each step in a process of its own so peak RSS is the step's:
 *  - baseline: the same file streamed through csv-parse and counted (no checks, no database);
 *  - dry run (parse, check, plan against the store's menu), apply (one transaction), the same file
 *    again (no change), and a 100,000-row file (refused at the row limit; memory stays bounded).
 * Reported: rows/s and peak RSS of each, and each step's rows/s over the baseline's.
 *
 *   BENCH_ONLY=import npm run bench   or   npx tsx bench/menu-import.ts
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { COLUMN_NAMES } from '../apps/server/src/menu-import/format.ts';
import { REPO_ROOT } from './lib/processes.ts';

const STRAINS = ['Indica', 'Sativa', 'Hybrid'] as const;
const SIZES = [1, 3.5, 7, 14];

export function menuRows(products: number): Record<string, string>[] {
  const rows: Record<string, string>[] = [];
  for (let p = 0; p < products; p++) {
    const strain = STRAINS[p % 3];
    const base = {
      brand: `Brand ${p % 40}`,
      strain_type: strain,
      license_type: 'both',
      status: 'active',
      orderable: 'yes',
      description: `Bench strain ${p}: dense buds, ${strain.toLowerCase()} effects, grown indoors and hang-dried for two weeks.`,
      effects: 'relaxed, happy',
      flavours: 'pine, citrus',
      terpenes: 'myrcene, limonene',
      thc: String(18 + (p % 12)),
      thc_unit: '%',
      batch: `B-${p}`,
      lab_test_date: '2026-05-02',
    };
    for (const g of SIZES)
      rows.push({
        ...base,
        external_id: `F-${p}-${g}`,
        sku: `F${p}-${g}`,
        parent_external_id: `F-${p}`,
        parent_sku: `F${p}`,
        name: `Bench Flower ${p}`,
        category: `Flower > ${strain}`,
        unit: 'g',
        weight_g: String(g),
        price: (g * 10 - (p % 5)).toFixed(2),
        stock: String(5 + (p % 30)),
        flower_equivalent_g: String(g),
      });
  }
  for (let p = 0; p < products; p++)
    rows.push({
      external_id: `G-${p}`,
      sku: `G${p}`,
      name: `Bench Gummies ${p}`,
      brand: `Brand ${p % 40}`,
      category: 'Edibles > Gummies',
      unit: 'ea',
      weight_g: '20',
      pieces: '10',
      thc: '10',
      thc_unit: 'mg_per_piece',
      price: (15 + (p % 10)).toFixed(2),
      stock: String(p % 40),
      license_type: 'both',
      status: 'active',
      orderable: 'yes',
    });
  return rows;
}

export function writeCsv(file: string, rows: Record<string, string>[]): void {
  fs.writeFileSync(file, stringify([COLUMN_NAMES as string[], ...rows.map((r) => COLUMN_NAMES.map((c) => r[c] ?? ''))]));
}

interface Step {
  rows: number;
  ms: number;
  maxRssMiB: number;
  outcome: string;
}

function step(mode: 'parse' | 'dry' | 'apply', file: string, dataDir: string): Step {
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'bench/lib/import-runner.ts'), mode, file, dataDir], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Step;
}

export async function runMenuImportSuite() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-bench-import-'));
  try {
    const dataDir = path.join(dir, 'data');
    execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/seed.ts', '--products', '20', '--data-dir', dataDir], {
      cwd: REPO_ROOT,
      stdio: 'ignore',
    });
    const file = path.join(dir, 'menu-10k.csv');
    writeCsv(file, menuRows(2_000));
    const huge = path.join(dir, 'menu-100k.csv');
    writeCsv(huge, menuRows(20_000));
    const mib = (f: string) => (fs.statSync(f).size / 2 ** 20).toFixed(1);

    const baseline = step('parse', file, dataDir);
    const steps = {
      'dry run (10,000 rows)': step('dry', file, dataDir),
      'apply (10,000 rows, one transaction)': step('apply', file, dataDir),
      'same file again (no change)': step('apply', file, dataDir),
      'baseline: csv-parse 100,000 rows': step('parse', huge, dataDir),
      '100,000 rows (refused at the row limit)': step('dry', huge, dataDir),
    };
    const table = Object.fromEntries(
      [['baseline: csv-parse 10,000 rows', baseline] as const, ...Object.entries(steps)].map(([name, s]) => [
        name,
        {
          rows: s.rows,
          seconds: +(s.ms / 1000).toFixed(2),
          'rows/s': Math.round((s.rows / s.ms) * 1000),
          'peak RSS MiB': Math.round(s.maxRssMiB),
          'rows/s vs baseline': +(s.rows / s.ms / (baseline.rows / baseline.ms)).toFixed(3),
          outcome: s.outcome.slice(0, 60),
        },
      ]),
    );
    console.log(`\nmenu import (${mib(file)} MiB / ${mib(huge)} MiB CSV, SQLite)`);
    console.table(table);
    return table;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runMenuImportSuite();
