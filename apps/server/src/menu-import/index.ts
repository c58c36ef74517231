/**
 * The menu import engine (issue 13): read a menu file (format.ts, FORMAT.md), plan it against a
 * store's menu, apply it in one transaction, export the menu in the same format. Callers: the CLI
 * (`npm run import`, ./cli.ts); later the console upload and the integration API.
 *
 *   const report = await importMenu(db, { storeId, source: fs.createReadStream(file), format: 'csv', dryRun: true });
 *   // report.problems: [{row, column, value, reason}]; report.created / updated / removed / unchanged
 *
 * Guarantees: never throws on bad input (every problem is in the report); a file with any problem
 * changes nothing; a valid file applies in one transaction; importing the same file again changes
 * nothing; a variant is only taken off the menu with `full` (and only if the file has no problems),
 * never because a column is missing. After a write, `onChanged(storeId, productIds)` is called
 * (pass the catalogue index manager's `catalogChanged`, or publish on the change bus from a process
 * that has no index) so search, pages and other nodes see the change.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database, MenuChangeSource } from '../db/schema.ts';
import { recordMenuChanges, type MenuActor, type MenuChange } from '../menu-admin/audit.ts';
import { toCsv } from '../http/csv.ts';
import { cellOf, COLUMN_NAMES, type MenuRow } from './format.ts';
import { applyPlan, planImport, readStoreMenu, type FieldChange, type ImportPlan, type PlannedVariant } from './menu.ts';
import { labelProblems, parseMenuFile, MAX_PROBLEMS, type MenuFileFormat, type Problem } from './parse.ts';
import { prepareImages, type ImageSource } from './images.ts';

export type { Problem, MenuFileFormat } from './parse.ts';
export type { FieldChange, PlannedVariant } from './menu.ts';
export type { MenuRow } from './format.ts';
export { COLUMNS, COLUMN_NAMES, REQUIRED_COLUMNS } from './format.ts';
export { escapeCell, unescapeCell } from '../http/csv.ts';

export interface ImportOptions {
  storeId: number;
  /** The file's bytes (a Readable stream, or any iterable of chunks). */
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
  format: MenuFileFormat;
  /** Plan only: report what would change, write nothing. */
  dryRun?: boolean;
  /** The file is the whole menu: variants not in it are taken off the menu (status disabled). */
  full?: boolean;
  /**
   * Let the file's external ids be given to variants that have none of their own, matched by sku
   * (moving the demo menu to a POS's ids). Without it a known sku under a new external id is a problem.
   */
  adoptExternalIds?: boolean;
  /**
   * The operator insists the file is this store's: skip the content check that flags a file looking
   * like another store's (many new items, most matched items repriced; menu.ts foreignContent).
   */
  confirmStore?: boolean;
  /** After a write: tell the catalogue (reindex, drop cached pages, tell other nodes). */
  onChanged?: (storeId: number, productIds: number[]) => Promise<void>;
  onProgress?: (rows: number) => void;
  clock?: () => Date;
  /**
   * Record what was written in the menu history (menu-admin/audit.ts), in the import's transaction:
   * one row per changed cell of an updated variant, one `created` row per new variant (its cells are
   * in the file; thousands of rows per new variant would bury the history), and a `status` row per
   * variant a `full` import took off the menu.
   */
  audit?: { source: MenuChangeSource; actor: MenuActor };
  /**
   * Where the pictures named in the `images` column are, and the media directory to copy them to
   * (images.ts). Without it (an upload of the file alone, the integration API) the names are kept
   * with the product and its pictures are left as they are.
   */
  images?: ImageSource;
}

export interface ImportReport {
  /** `problems`: nothing was written. `planned`: dry run. `applied`: written. `unchanged`: nothing to write. */
  outcome: 'problems' | 'planned' | 'applied' | 'unchanged';
  rows: number;
  created: PlannedVariant[];
  updated: PlannedVariant[];
  unchanged: number;
  removed: PlannedVariant[];
  /** At most 1,000; `problemCount` counts them all. */
  problems: Problem[];
  problemCount: number;
  /** Product ids written (variants and their parents), for callers that reindex themselves. */
  productIds: number[];
  /** Set when the menu was written but `onChanged` failed (search and pages may lag until the next resync). */
  notifyError?: string;
}

/** Parse, plan and (unless dry run or problems) apply a menu file for one store. */
export async function importMenu(db: Kysely<Database>, opts: ImportOptions): Promise<ImportReport> {
  const parsed = await parseMenuFile(opts.source, { format: opts.format, onProgress: opts.onProgress });
  const base = { rows: parsed.rowCount, productIds: [] as number[] };
  if (parsed.problemCount > 0 && parsed.rows.length === 0)
    return {
      ...base,
      outcome: 'problems',
      created: [],
      updated: [],
      unchanged: 0,
      removed: [],
      problems: labelProblems(parsed.problems, parsed.labels),
      problemCount: parsed.problemCount,
    };
  const run = async (dry: boolean) =>
    db.transaction().execute(async (trx) => {
      const menu = await readStoreMenu(trx, opts.storeId);
      const plan = planImport(menu, parsed, opts.full === true, {
        adoptExternalIds: opts.adoptExternalIds === true,
        confirmStore: opts.confirmStore === true,
      });
      const pictures = opts.images && plan.problemCount === 0 ? await picturesToTake(plan, opts.images) : undefined;
      const now = (opts.clock ?? (() => new Date()))();
      const write = !dry && plan.problemCount === 0 && plan.writes.length > 0;
      // Pictures first (content-named: one left by a failed transaction is never referenced).
      if (write) await pictures?.prepared.store();
      const ids = write
        ? await applyPlan(trx, menu, plan, now, pictures && { mediaOf: pictures.prepared.mediaOf, rows: pictures.rows })
        : [];
      if (ids.length > 0 && opts.audit) await recordImport(trx, opts.storeId, plan, opts.audit, now);
      return { plan, ids };
    });
  let result: Awaited<ReturnType<typeof run>>;
  try {
    result = await run(opts.dryRun === true);
  } catch (error) {
    // A concurrent writer (a duplicate key from another import at the same moment): nothing was written.
    const problem = {
      row: 0,
      column: '',
      value: '',
      reason: `the menu could not be written (${(error as Error).message.slice(0, 200)}); nothing was changed, try again`,
    };
    return { ...base, outcome: 'problems', created: [], updated: [], unchanged: 0, removed: [], problems: [problem], problemCount: 1 };
  }
  const { plan, ids } = result;
  const outcome = plan.problemCount > 0 ? 'problems' : opts.dryRun ? 'planned' : ids.length > 0 ? 'applied' : 'unchanged';
  let notifyError: string | undefined;
  if (outcome === 'applied' && opts.onChanged)
    try {
      await opts.onChanged(opts.storeId, ids);
    } catch (error) {
      // The menu is written; only the telling failed. Reported, never thrown (a caller must not answer 500 for a done import).
      notifyError = (error as Error)?.message ?? String(error);
    }
  return {
    outcome,
    rows: parsed.rowCount,
    created: plan.created,
    updated: plan.updated,
    unchanged: plan.unchanged,
    removed: plan.removed,
    problems: labelProblems(plan.problems, parsed.labels),
    problemCount: plan.problemCount,
    productIds: ids,
    ...(notifyError === undefined ? {} : { notifyError }),
  };
}

/** The written rows that take pictures (new, or `images` changed), checked; problems go into the plan. */
async function picturesToTake(plan: ImportPlan, src: ImageSource) {
  const fileRow = new Map([...plan.created, ...plan.updated].map((v) => [v.external_id, v.row]));
  const rows = new Set<MenuRow>();
  const firstRow = new Map<string, number>();
  for (const { row, current } of plan.writes) {
    if (current && cellOf(current.row, 'images') === cellOf(row, 'images')) continue;
    rows.add(row);
    for (const name of row.images) if (!firstRow.has(name)) firstRow.set(name, fileRow.get(row.external_id) ?? 0);
  }
  const prepared = await prepareImages(firstRow, src);
  if (prepared.problems.length) {
    plan.problems = [...plan.problems, ...prepared.problems].sort((a, b) => a.row - b.row).slice(0, MAX_PROBLEMS);
    plan.problemCount += prepared.problems.length;
  }
  return { prepared, rows };
}

async function recordImport(
  trx: Transaction<Database>,
  storeId: number,
  plan: Pick<ImportReport, 'created' | 'updated' | 'removed'>,
  audit: NonNullable<ImportOptions['audit']>,
  at: Date,
): Promise<void> {
  // By sku (unique in the store, and exactly as written): a variant that never had an external id of
  // its own (the demo's, or one only a quick stock or price change touched) is found as well.
  const skus = [...new Set([...plan.created, ...plan.updated, ...plan.removed].map((v) => v.sku))];
  const idOf = new Map<string, number>();
  for (let i = 0; i < skus.length; i += 500) {
    const rows = await trx
      .selectFrom('products')
      .select(['id', 'sku'])
      .where('store_id', '=', storeId)
      .where('sku', 'in', skus.slice(i, i + 500))
      .execute();
    for (const r of rows) idOf.set(r.sku, r.id);
  }
  const base = (v: PlannedVariant) => ({ productId: idOf.get(v.sku) ?? null, sku: v.sku, externalId: v.external_id });
  const changes: MenuChange[] = [
    ...plan.created.map((v) => ({ ...base(v), field: 'created', before: null, after: v.name })),
    ...plan.updated.flatMap((v) => (v.changes ?? []).map((c) => ({ ...base(v), field: c.column, before: c.before, after: c.after }))),
    ...plan.removed.map((v) => ({ ...base(v), field: 'status', before: 'active', after: 'disabled' })),
  ];
  await recordMenuChanges(trx, { storeId, source: audit.source, actor: audit.actor, at, changes });
}

/** The store's menu rows, in the import format. */
export async function exportMenuRows(db: Kysely<Database>, storeId: number): Promise<MenuRow[]> {
  return (await readStoreMenu(db, storeId)).variants.map((v) => v.row);
}

/**
 * The store's menu as CSV (header + one row per variant) through the shared writer (../http/csv.ts):
 * every cell is text, so none can run as a spreadsheet formula; the import unescapes them back.
 */
export async function exportMenuCsv(db: Kysely<Database>, storeId: number): Promise<string> {
  const rows = await exportMenuRows(db, storeId);
  return toCsv([COLUMN_NAMES as string[], ...rows.map((r) => COLUMN_NAMES.map((c) => cellOf(r, c)))]);
}

/** The store's menu as JSON: an array of objects with every column as a string cell. */
export async function exportMenuJson(db: Kysely<Database>, storeId: number): Promise<string> {
  const rows = await exportMenuRows(db, storeId);
  return `${JSON.stringify(
    rows.map((r) => Object.fromEntries(COLUMN_NAMES.map((c) => [c, cellOf(r, c)]))),
    null,
    2,
  )}\n`;
}

export type { FieldChange as Change };
