/**
 * Stock levels from a POS (POST /api/integration/v1/stock). Each item carries the POS's sequence
 * (a number that only grows, or its clock in ms) and a late, stale update never overwrites a newer
 * one: the last applied sequence per variant is kept (integration_stock_sequences, migration 0014)
 * and moved forward by ONE guarded upsert per batch
 *
 *   INSERT … ON CONFLICT (product_id) DO UPDATE SET sequence = excluded.sequence
 *     WHERE integration_stock_sequences.sequence < excluded.sequence RETURNING product_id
 *
 * whose RETURNING names exactly the variants this batch may write. On PostgreSQL a concurrent batch
 * for the same variant waits on the row lock and, once the first commits, re-checks the condition
 * against the committed sequence (so it is skipped if it is older); SQLite runs one writer at a
 * time. The stock write, the menu history and the sequence are one transaction: nothing half-applied.
 *
 * Units: `stock` is packages on hand, as in the menu file (FORMAT.md); a gram variant keeps grams
 * (packages × its size), and the parent of gram sizes keeps the sum of its orderable sizes, as the
 * import writes it (menu-import/menu.ts).
 */
import { SIZE_WEIGHTS_GRAMS } from '@verdant/domain';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';
import { recordMenuChanges, type MenuActor, type MenuChange } from '../menu-admin/audit.ts';

export const MAX_STOCK_ITEMS = 1000;

const ident = z.string().trim().min(1).max(200);
export const stockItemSchema = z
  .strictObject({
    external_id: ident.optional(),
    sku: ident.optional(),
    stock: z.number().int('stock: packages on hand, a whole number').min(0, 'stock must not be negative').max(1_000_000),
    orderable: z.boolean().optional(),
    sequence: z.number().int('sequence: a whole number').min(0).max(Number.MAX_SAFE_INTEGER),
  })
  .refine(
    (i) => (i.external_id === undefined) !== (i.sku === undefined),
    'Each item names its variant by external_id or by sku (one of them).',
  );
export const stockBodySchema = z.strictObject({
  items: z
    .array(stockItemSchema)
    .min(1, 'Send at least one item.')
    .max(MAX_STOCK_ITEMS, `At most ${MAX_STOCK_ITEMS} items per request; send the rest in another.`),
});
export type StockItem = z.infer<typeof stockItemSchema>;

export interface StockOutcomeItem {
  /** The item's position in the request (0-based). */
  index: number;
  external_id: string | null;
  sku: string;
  sequence: number;
}
export interface StockReport {
  applied: (StockOutcomeItem & { stock: number; orderable: boolean })[];
  /** The sequence was newer but the values were already so (the sequence is recorded). */
  unchanged: StockOutcomeItem[];
  /** Stale: the variant already has this sequence or a newer one (or a later item of this request wins). */
  skipped: (StockOutcomeItem & { reason: string; last_sequence: number })[];
  unknown: { index: number; external_id?: string; sku?: string; reason: string }[];
}

interface Variant {
  id: number;
  sku: string;
  external_id: string | null;
  parent_id: number | null;
  uom: string;
  size: number | null;
  status: number;
  qty: number | null;
}

const CHUNK = 300;

export interface StockRequest {
  storeId: number;
  items: readonly StockItem[];
  actor: MenuActor;
  now: Date;
}

/** Apply a batch in a transaction of its own. */
export async function applyStock(db: Kysely<Database>, opts: StockRequest): Promise<{ report: StockReport; productIds: number[] }> {
  return db.transaction().execute((trx) => applyStockIn(trx, opts));
}

/** Apply a batch inside the caller's transaction (the route's, which also holds its idempotency key). */
export async function applyStockIn(trx: Kysely<Database>, opts: StockRequest): Promise<{ report: StockReport; productIds: number[] }> {
  const { storeId, items } = opts;
  const iso = opts.now.toISOString();
  {
    // The sellable variants the items name (a product with sizes is not itself a stock line).
    const byExt = new Map<string, Variant>();
    const bySku = new Map<string, Variant>();
    const exts = [...new Set(items.flatMap((i) => (i.external_id !== undefined ? [i.external_id] : [])))];
    const skus = [...new Set(items.flatMap((i) => (i.sku !== undefined ? [i.sku] : [])))];
    const select = () =>
      trx
        .selectFrom('products')
        .leftJoin('stock', 'stock.product_id', 'products.id')
        .select([
          'products.id',
          'products.sku',
          'products.external_id',
          'products.parent_id',
          'products.uom',
          'products.size',
          'products.status',
          'stock.qty',
        ])
        .where('products.store_id', '=', storeId)
        .where('products.type_id', 'in', ['simple', 'virtual']);
    for (let i = 0; i < exts.length; i += CHUNK)
      for (const v of await select()
        .where('products.external_id', 'in', exts.slice(i, i + CHUNK))
        .execute())
        byExt.set(v.external_id!, v);
    for (let i = 0; i < skus.length; i += CHUNK)
      for (const v of await select()
        .where('products.sku', 'in', skus.slice(i, i + CHUNK))
        .execute())
        bySku.set(v.sku, v);

    const report: StockReport = { applied: [], unchanged: [], skipped: [], unknown: [] };
    // Per variant, the item with the highest sequence of this request is the candidate; the others are stale.
    const best = new Map<number, { item: StockItem; index: number; variant: Variant }>();
    const stale: { item: StockItem; index: number; variant: Variant; by: number }[] = [];
    items.forEach((item, index) => {
      const variant = item.external_id !== undefined ? byExt.get(item.external_id) : bySku.get(item.sku!);
      if (!variant) {
        report.unknown.push({
          index,
          ...(item.external_id !== undefined ? { external_id: item.external_id } : { sku: item.sku }),
          reason: 'No variant of this store has this id.',
        });
        return;
      }
      const seen = best.get(variant.id);
      if (!seen) best.set(variant.id, { item, index, variant });
      else if (item.sequence > seen.item.sequence) {
        stale.push({ ...seen, by: item.sequence });
        best.set(variant.id, { item, index, variant });
      } else stale.push({ item, index, variant, by: seen.item.sequence });
    });
    for (const s of stale)
      report.skipped.push({
        ...outcome(s),
        reason: `A later item of this request for the same variant has sequence ${s.by}.`,
        last_sequence: s.by,
      });

    // Move the sequences forward where this batch is newer (sorted: concurrent batches lock rows in one order).
    const candidates = [...best.values()].sort((a, b) => a.variant.id - b.variant.id);
    const won = new Set<number>();
    for (let i = 0; i < candidates.length; i += CHUNK) {
      const rows = await trx
        .insertInto('integration_stock_sequences')
        .values(candidates.slice(i, i + CHUNK).map((c) => ({ product_id: c.variant.id, sequence: c.item.sequence, updated_at: iso })))
        .onConflict((oc) =>
          oc
            .column('product_id')
            .doUpdateSet((eb) => ({ sequence: eb.ref('excluded.sequence'), updated_at: eb.ref('excluded.updated_at') }))
            .where('integration_stock_sequences.sequence', '<', (eb) => eb.ref('excluded.sequence')),
        )
        .returning('product_id')
        .execute();
      for (const r of rows) won.add(r.product_id);
    }
    const lost = candidates.filter((c) => !won.has(c.variant.id));
    if (lost.length) {
      const last = new Map<number, number>();
      for (let i = 0; i < lost.length; i += CHUNK)
        for (const r of await trx
          .selectFrom('integration_stock_sequences')
          .select(['product_id', 'sequence'])
          .where(
            'product_id',
            'in',
            lost.slice(i, i + CHUNK).map((c) => c.variant.id),
          )
          .execute())
          last.set(r.product_id, Number(r.sequence));
      for (const c of lost) {
        const seq = last.get(c.variant.id) ?? c.item.sequence;
        report.skipped.push({
          ...outcome(c),
          reason: `Stale: sequence ${c.item.sequence} is not newer than the last applied (${seq}).`,
          last_sequence: seq,
        });
      }
    }

    // Write what changed, in the same product order.
    const changes: MenuChange[] = [];
    const touched = new Set<number>();
    const parents = new Set<number>();
    for (const c of candidates) {
      if (!won.has(c.variant.id)) continue;
      const v = c.variant;
      const weight = v.uom === 'g' ? (v.size != null ? (SIZE_WEIGHTS_GRAMS[v.size] ?? 1) : 1) : 1;
      const qty = c.item.stock * weight;
      const beforePackages = Math.round((v.qty ?? 0) / weight);
      const orderableBefore = v.parent_id !== null ? v.status === 1 || v.status === 3 : v.status <= 1;
      const orderable = c.item.orderable ?? orderableBefore;
      const status =
        orderable === orderableBefore
          ? v.status
          : v.parent_id !== null
            ? v.status >= 3
              ? orderable
                ? 3
                : 4
              : orderable
                ? 1
                : 2
            : orderable
              ? 1
              : 2;
      const qtyChanged = v.qty === null || v.qty !== qty;
      if (!qtyChanged && status === v.status) {
        report.unchanged.push(outcome(c));
        continue;
      }
      if (qtyChanged) {
        const updated = await trx
          .updateTable('stock')
          .set((eb) => ({ qty, is_in_stock: qty > 0 ? 1 : 0, version: eb('version', '+', 1), updated_at: iso }))
          .where('product_id', '=', v.id)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0)
          await trx
            .insertInto('stock')
            .values({ product_id: v.id, qty, is_in_stock: qty > 0 ? 1 : 0, manage_stock: 1, updated_at: iso })
            .execute();
        changes.push({
          productId: v.id,
          sku: v.sku,
          externalId: v.external_id,
          field: 'stock',
          before: String(beforePackages),
          after: String(c.item.stock),
        });
      }
      if (status !== v.status) {
        await trx.updateTable('products').set({ status, updated_at: iso }).where('id', '=', v.id).execute();
        changes.push({
          productId: v.id,
          sku: v.sku,
          externalId: v.external_id,
          field: 'orderable',
          before: orderableBefore ? 'yes' : 'no',
          after: orderable ? 'yes' : 'no',
        });
      }
      touched.add(v.id);
      if (v.parent_id !== null) parents.add(v.parent_id);
      report.applied.push({ ...outcome(c), stock: c.item.stock, orderable });
    }

    // A product with sizes shows the grams of its orderable sizes (as the import keeps it).
    for (const parentId of [...parents].sort((a, b) => a - b)) {
      const children = await trx
        .selectFrom('products')
        .innerJoin('stock', 'stock.product_id', 'products.id')
        .select(['products.status', 'stock.qty'])
        .where('products.parent_id', '=', parentId)
        .execute();
      const grams = children.filter((ch) => ch.status <= 2).reduce((s, ch) => s + ch.qty, 0);
      await trx
        .updateTable('stock')
        .set((eb) => ({ qty: grams, is_in_stock: grams > 0 ? 1 : 0, version: eb('version', '+', 1), updated_at: iso }))
        .where('product_id', '=', parentId)
        .execute();
      touched.add(parentId);
    }
    if (changes.length) await recordMenuChanges(trx, { storeId, source: 'api', actor: opts.actor, at: opts.now, changes });
    report.skipped.sort((a, b) => a.index - b.index);
    return { report, productIds: [...touched] };
  }
}

function outcome(c: { item: StockItem; index: number; variant: Variant }): StockOutcomeItem {
  return { index: c.index, external_id: c.variant.external_id, sku: c.variant.sku, sequence: c.item.sequence };
}
