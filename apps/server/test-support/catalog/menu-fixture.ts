/**
 * Test support for the propagation suites (not a test file): change one variant of a store's menu
 * the way a POS file does — a one-row menu file (the JSON form of FORMAT.md) through the import
 * engine — starting from the store's own export, so only the cells a test names differ.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import { exportMenuJson, importMenu, type ImportReport } from '../../src/menu-import/index.ts';

export type MenuCells = Record<string, string>;

export class MenuFile {
  private rows = new Map<string, MenuCells>();
  constructor(
    private readonly db: Kysely<Database>,
    readonly storeId: number,
    /** What a writer calls after the write: the app's `catalog.catalogChanged`, or a bus publish. */
    private readonly onChanged?: (storeId: number, productIds: number[]) => Promise<void>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Read the store's menu as exported now (call again after changes made elsewhere). */
  async load(): Promise<this> {
    const rows = JSON.parse(await exportMenuJson(this.db, this.storeId)) as MenuCells[];
    this.rows = new Map(rows.map((r) => [r.sku, r]));
    return this;
  }

  row(sku: string): MenuCells {
    const row = this.rows.get(sku);
    if (!row) throw new Error(`no menu row for ${sku} in store ${this.storeId}`);
    return row;
  }

  /** Import a file of this one row with `cells` changed (price "18.50", stock "0", name …); must apply. */
  async change(sku: string, cells: MenuCells): Promise<ImportReport> {
    const row = { ...this.row(sku), ...cells };
    const report = await importMenu(this.db, {
      storeId: this.storeId,
      source: [Buffer.from(JSON.stringify([row]))],
      format: 'json',
      clock: this.clock,
      onChanged: this.onChanged,
    });
    if (report.outcome !== 'applied')
      throw new Error(`import of ${sku} ${JSON.stringify(cells)}: ${report.outcome} ${JSON.stringify(report.problems)}`);
    this.rows.set(sku, row);
    return report;
  }
}
