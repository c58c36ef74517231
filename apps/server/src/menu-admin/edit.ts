/**
 * Console edits of a store's menu (issue 13 "Menu in the console"): a quick edit of one variant and
 * bulk actions on many. Both go through the import engine itself — the edited cells are parsed by
 * the menu file's column parsers (menu-import/format.ts), merged and checked by `planImport` (the
 * same row rules: special below price, a sale window needs a special price, …) and written by
 * `applyPlan` — so a console edit can never store what an import would refuse, and the write logic
 * (grams of stock for a `g` size, a size's status and its parent's listing) exists once.
 *
 * One call is one transaction: the optimistic-concurrency check, the write and the history rows
 * (./audit.ts) commit together or not at all.
 *
 * Decision: `applyPlan` marks the store's catalogue source as `import`, so a demo store edited in
 * the console is no longer re-seeded over (the same as after its first import): a hand edit must not
 * be overwritten by the demo generator.
 */
import { BULK_ACTIONS, MAX_BULK, type BulkAction, type MenuItem } from '@verdant/domain/console-api';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { cellOf, COLUMN_BY_NAME, formatMoney, type ColumnName, type MenuRow } from '../menu-import/format.ts';
import { applyPlan, planImport, readStoreMenu, type CurrentVariant } from '../menu-import/menu.ts';
import type { ParsedRow, Problem } from '../menu-import/parse.ts';
import { recordMenuChanges, type MenuActor, type MenuChange } from './audit.ts';

/** The columns a console edit may change. */
export const EDITABLE_COLUMNS = ['price', 'special_price', 'special_from', 'special_to', 'stock', 'orderable', 'status'] as const;
export type EditableColumn = (typeof EDITABLE_COLUMNS)[number];
/** What a budtender may change (menu:stock): stock and whether it can be ordered online. */
export const STOCK_COLUMNS: readonly EditableColumn[] = ['stock', 'orderable'];

export type EditCells = Partial<Record<EditableColumn, string>>;

export interface VariantEdit {
  productId: number;
  /** The new cells, or a function of the variant's current row read inside the transaction (price ± %). */
  cells: EditCells | ((row: MenuRow) => EditCells);
  /** stock.version the editor saw; a different current version is a stale edit (409). */
  version?: number;
}

export type { MenuItem } from '@verdant/domain/console-api';

export class EditProblems extends Error {
  constructor(readonly problems: (Problem & { productId: number; sku: string })[]) {
    super(problems[0]?.reason ?? 'invalid edit');
  }
}

export class StaleEdit extends Error {
  constructor(
    readonly productId: number,
    readonly current: MenuItem | null,
  ) {
    super('stale edit');
  }
}

export class UnknownVariant extends Error {
  constructor(readonly productId: number) {
    super(`variant ${productId} is not on this store's menu`);
  }
}

type Db = Kysely<Database>;

/** Extra per-variant facts (stock version, image) for menu rows. */
export async function itemsOf(
  db: Db | Transaction<Database>,
  variants: readonly CurrentVariant[],
  now: Date = new Date(),
): Promise<MenuItem[]> {
  const ids = variants.flatMap((v) => (v.parentId ? [v.productId, v.parentId] : [v.productId]));
  const versions = new Map<number, number>();
  const images = new Map<number, string | null>();
  const lastStock = new Map<number, { before: string | null; after: string | null }>();
  const soldOut = variants.filter((v) => v.row.stock === 0).map((v) => v.productId);
  for (let i = 0; i < soldOut.length; i += 500)
    for (const c of await db
      .selectFrom('menu_changes')
      .select(['product_id', 'before', 'after'])
      .where('product_id', 'in', soldOut.slice(i, i + 500))
      .where('field', '=', 'stock')
      .orderBy('id', 'desc')
      .execute())
      if (c.product_id != null && !lastStock.has(c.product_id)) lastStock.set(c.product_id, c);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const s of await db.selectFrom('stock').select(['product_id', 'version']).where('product_id', 'in', chunk).execute())
      versions.set(s.product_id, Number(s.version));
    for (const p of await db.selectFrom('products').select(['id', 'image']).where('id', 'in', chunk).execute()) images.set(p.id, p.image);
  }
  return variants.map((v) => {
    const image = images.get(v.productId) || (v.parentId ? images.get(v.parentId) : null) || null;
    const last = lastStock.get(v.productId);
    const before = last && last.after === '0' ? Number(last.before) : NaN;
    const restore = Number.isInteger(before) && before > 0 ? before : null;
    return toItem(v, versions.get(v.productId) ?? 0, image && image !== 'no_selection' ? image : null, now, restore);
  });
}

function specialStateOf(r: CurrentVariant['row'], now: Date): MenuItem['specialState'] {
  if (r.special_price == null) return null;
  const t = now.getTime();
  if (r.special_from && Date.parse(r.special_from) > t) return 'scheduled';
  if (r.special_to && Date.parse(r.special_to) <= t) return 'expired';
  return 'current';
}

function toItem(v: CurrentVariant, version: number, image: string | null, now: Date, restoreStock: number | null): MenuItem {
  const r = v.row;
  return {
    productId: v.productId,
    parentId: v.parentId,
    externalId: r.external_id,
    sku: r.sku,
    name: r.parent_external_id && r.weight_g != null ? `${r.name} ${r.weight_g} g` : r.name,
    brand: r.brand,
    category: r.category,
    unit: r.unit,
    weightG: r.weight_g,
    licenseType: r.license_type,
    price: cellOf(r, 'price'),
    specialPrice: cellOf(r, 'special_price'),
    specialFrom: cellOf(r, 'special_from'),
    specialTo: cellOf(r, 'special_to'),
    stock: r.stock,
    orderable: r.orderable,
    status: r.status,
    version,
    thumbnail: image ? `/img/150/150/${image.replace(/^\/+/, '')}` : null,
    specialState: specialStateOf(r, now),
    restoreStock,
  };
}

export interface EditOptions {
  storeId: number;
  edits: readonly VariantEdit[];
  actor: MenuActor;
  at: Date;
  /** One action, one history batch. */
  batchId?: string;
}

export interface EditResult {
  /** Product ids written (variants and their parents): tell the catalogue. */
  productIds: number[];
  /** Variants whose cells changed. */
  changed: number;
  /** History rows written. */
  changes: number;
  batchId: string | null;
  /** The edited variants as listed after the edit (read in the transaction: no second read of the menu). */
  items: MenuItem[];
}

/**
 * Apply cell edits to variants of one store in one transaction, with the import's validation.
 * Throws UnknownVariant (404), StaleEdit (409) or EditProblems (400); then nothing is written.
 */
export async function editVariants(db: Db, opts: EditOptions): Promise<EditResult> {
  return db.transaction().execute(async (trx) => {
    // Optimistic concurrency: claim each variant's stock row at the version the editor saw. The
    // conditional UPDATE also locks the row (PostgreSQL), so of two simultaneous edits of one
    // version only the first passes; the loser re-reads the row and matches nothing.
    for (const e of opts.edits) {
      if (e.version === undefined) continue;
      const claimed = await trx
        .updateTable('stock')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('product_id', '=', e.productId)
        .where('version', '=', e.version)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) {
        const menu = await readStoreMenu(trx, opts.storeId);
        const v = menu.variants.find((x) => x.productId === e.productId);
        if (!v) throw new UnknownVariant(e.productId);
        throw new StaleEdit(e.productId, (await itemsOf(trx, [v], opts.at))[0]);
      }
    }
    const menu = await readStoreMenu(trx, opts.storeId);
    const byId = new Map(menu.variants.map((v) => [v.productId, v]));
    const rows: ParsedRow[] = [];
    const problems: (Problem & { productId: number; sku: string })[] = [];
    opts.edits.forEach((e, i) => {
      const current = byId.get(e.productId);
      if (!current) throw new UnknownVariant(e.productId);
      const values: Partial<MenuRow> = { external_id: current.row.external_id, sku: current.row.sku };
      const present: ColumnName[] = ['external_id', 'sku'];
      const cells = typeof e.cells === 'function' ? e.cells(current.row) : e.cells;
      for (const [column, cell] of Object.entries(cells) as [EditableColumn, string][]) {
        const parsed = COLUMN_BY_NAME.get(column)!.parse(cell);
        if ('error' in parsed)
          problems.push({
            row: i + 1,
            column,
            value: cell,
            reason: `${column} ${parsed.error}`,
            productId: e.productId,
            sku: current.row.sku,
          });
        else {
          (values as Record<string, unknown>)[column] = parsed.value;
          present.push(column);
        }
      }
      rows.push({ row: i + 1, values, present });
    });
    if (problems.length) throw new EditProblems(problems);
    const plan = planImport(menu, { rows, problems: [], problemCount: 0 }, false);
    if (plan.problemCount > 0)
      throw new EditProblems(
        plan.problems.map((p) => {
          const e = opts.edits[p.row - 1];
          return { ...p, productId: e?.productId ?? 0, sku: (e && byId.get(e.productId)?.row.sku) ?? '' };
        }),
      );
    const productIds = await applyPlan(trx, menu, plan, opts.at);
    const skuToId = new Map(menu.variants.map((v) => [v.row.sku, v]));
    const changes: MenuChange[] = plan.updated.flatMap((u) =>
      (u.changes ?? []).map((c) => ({
        productId: skuToId.get(u.sku)?.productId ?? null,
        sku: u.sku,
        externalId: u.external_id,
        field: c.column,
        before: c.before,
        after: c.after,
      })),
    );
    const batchId = changes.length
      ? await recordMenuChanges(trx, {
          storeId: opts.storeId,
          source: 'console',
          actor: opts.actor,
          at: opts.at,
          changes,
          batchId: opts.batchId,
        })
      : null;
    const merged = new Map(plan.writes.map((w) => [w.row.sku, w.row]));
    const edited = opts.edits.map((e) => byId.get(e.productId)!).map((v) => ({ ...v, row: merged.get(v.row.sku) ?? v.row }));
    const items = await itemsOf(trx, edited, opts.at);
    return { productIds, changed: plan.updated.length, changes: changes.length, batchId, items };
  });
}

// ---------------------------------------------------------------- bulk

export { BULK_ACTIONS, MAX_BULK, type BulkAction } from '@verdant/domain/console-api';
/** Actions a budtender may run (menu:stock); the rest need menu:write. */
export const STOCK_ACTIONS: readonly BulkAction[] = ['sold_out', 'in_stock', 'orderable_on', 'orderable_off'];

/** The cells a bulk action sets on one variant (price ± %: rounded to the cent). */
export function bulkCells(action: BulkAction, row: MenuRow, opts: { qty?: number; percent?: number }): EditCells {
  switch (action) {
    case 'sold_out':
      return { stock: '0' };
    case 'in_stock':
      return { stock: String(opts.qty ?? 0) };
    case 'orderable_on':
      return { orderable: 'yes' };
    case 'orderable_off':
      return { orderable: 'no' };
    case 'enable':
      return { status: 'active' };
    case 'disable':
      return { status: 'disabled' };
    case 'price_percent':
      return { price: formatMoney(Math.round(row.price * (1 + (opts.percent ?? 0) / 100))) };
  }
}

/** A bulk action as edits (cells computed from each variant's row inside the transaction). */
export function bulkEdits(productIds: readonly number[], action: BulkAction, opts: { qty?: number; percent?: number }): VariantEdit[] {
  return [...new Set(productIds)].map((productId) => ({ productId, cells: (row: MenuRow) => bulkCells(action, row, opts) }));
}
