/**
 * Fuzz of the whole import (parse → plan → apply) against a real database: a menu file with random
 * cells broken or changed either applies completely — the store's menu, exported, is exactly what
 * the file said, and the file again changes nothing — or reports problems and leaves every table as
 * it was. Never a throw, never half a menu.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../config.ts';
import { seed } from '../../test-support/catalog/test-app.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { exportMenuRows, importMenu } from './index.ts';
import { cellOf, COLUMN_NAMES } from './format.ts';

const EXAMPLE = parseCsv(readFileSync(join(REPO_ROOT, 'examples/menu/example-menu.csv')), { columns: true }) as Record<string, string>[];
const NOW = new Date('2026-06-15T12:00:00.000Z');
const STORE = 3; // wellness: medical only, so a row for recreational shoppers is a problem too

/** Values a broken or edited cell takes: valid ones of other columns, edge numbers, junk. */
const CELL = fc.oneof(
  fc.constantFrom('', '0', '-1', '1e3', '12.5', '12.505', '101', 'NaN', ' 7 ', 'yes', 'no', 'maybe', 'g', 'ea', '%', 'mg', 'mg_per_piece'),
  fc.constantFrom('recreational', 'medical', 'both', 'active', 'disabled', 'Flower > Indica', 'Nowhere > Else', '2026-13-01', '2026-06-20'),
  fc.constantFrom('=HYPERLINK("x")', '+1', '@SUM(A1)', 'a;b', 'x.jpg', '"', '\u0000', '\ufeff', 'é'.repeat(300)),
  fc.string({ maxLength: 8 }),
);

describeEachDatabase('menu import fuzz', (getDb) => {
  beforeAll(async () => {
    await seed(getDb());
  });

  async function tables() {
    const { db } = getDb();
    const ids = (await db.selectFrom('products').select('id').where('store_id', '=', STORE).execute()).map((p) => p.id);
    const [products, stock, prices, attrs, cats] = await Promise.all([
      db.selectFrom('products').selectAll().where('store_id', '=', STORE).orderBy('id').execute(),
      db.selectFrom('stock').selectAll().where('product_id', 'in', ids).orderBy('product_id').execute(),
      db.selectFrom('product_prices').selectAll().where('product_id', 'in', ids).orderBy('product_id').execute(),
      db
        .selectFrom('product_attribute_values')
        .selectAll()
        .where('product_id', 'in', ids)
        .orderBy('product_id')
        .orderBy('attribute_code')
        .execute(),
      db.selectFrom('product_categories').selectAll().where('product_id', 'in', ids).orderBy('product_id').execute(),
    ]);
    return JSON.stringify({ products, stock, prices, attrs, cats });
  }

  it('applies a mutated menu completely or not at all (40 files a database)', async () => {
    const { db } = getDb();
    let applied = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(EXAMPLE.length - 1), fc.constantFrom(...COLUMN_NAMES), CELL), { maxLength: 4 }),
        fc.boolean(),
        async (edits, full) => {
          const rows: Record<string, string>[] = EXAMPLE.map((r) => ({
            ...r,
            license_type: r.license_type === 'both' ? 'medical' : r.license_type,
          }));
          for (const [i, column, value] of edits) rows[i][column] = value;
          const text = stringify([COLUMN_NAMES as string[], ...rows.map((r) => COLUMN_NAMES.map((c) => r[c] ?? ''))]);
          const before = await tables();
          const report = await importMenu(db, { storeId: STORE, source: [Buffer.from(text)], format: 'csv', full, clock: () => NOW });
          if (report.outcome === 'problems') {
            refused++;
            expect(report.problems.length).toBeGreaterThan(0);
            expect(await tables()).toBe(before);
            return;
          }
          applied++;
          // What the store has now is what the file says, cell for cell (as the format writes it).
          const menu = new Map((await exportMenuRows(db, STORE)).map((r) => [r.external_id, r]));
          const again = await importMenu(db, { storeId: STORE, source: [Buffer.from(text)], format: 'csv', clock: () => NOW });
          expect(again.outcome).toBe('unchanged');
          for (const r of rows) {
            const stored = menu.get(r.external_id.trim());
            expect(stored, r.external_id).toBeDefined();
            expect(cellOf(stored!, 'sku')).toBe(r.sku.trim());
          }
        },
      ),
      { numRuns: 40, seed: 1305 },
    );
    // The generator must exercise both outcomes, or the property proves little.
    expect(applied).toBeGreaterThan(3);
    expect(refused).toBeGreaterThan(3);
  });
});
