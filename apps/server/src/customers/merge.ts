/**
 * Merging two profiles of one person, and undoing it within 24 h (issue 31). A member with
 * `customers:merge` asks for it; the platform never merges by itself.
 *
 * One transaction: both customer rows are locked (lockPair; SQLite runs one transaction at a
 * time), both are read
 * again and the rules checked, then every table's merge rule (privacy/merge-rules.ts) moves the
 * merged profile's rows to the survivor through a log that is stored with the merge
 * (customer_merges.changes). Undo takes the same locks and plays the log backwards. A repeated
 * merge of the same pair answers the standing merge; a repeated undo answers the undone merge.
 */
import { CUSTOMER_MESSAGES, MERGE_UNDO_HOURS, type CustomerMerge, type CustomerMergePreview, type CustomerMergeSide } from '@verdant/domain/console-api';
import { isFinalStatus, type OrderStatus } from '@verdant/domain';
import type { Kysely } from 'kysely';
import { locksRows } from '../cart/repository.ts';
import type { Database, Row, TableName } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { MERGE_ORDER, MERGE_RULES, MergeLog, type Change } from '../privacy/merge-rules.ts';
import type { Db } from '../privacy/subject.ts';
import { recomputeStats } from '../reviews/service.ts';
import { customerName, lastFour } from './directory.ts';

type AnyDb = Kysely<any>;

export interface Actor {
  id: number | null;
  name: string;
}

class DryRun extends Error {
  constructor(readonly log: MergeLog) {
    super('dry run');
  }
}

/**
 * PostgreSQL, lower id first (so A→B and B→A at once cannot deadlock): the merged profile FOR
 * UPDATE — a row being written that refers to it (an order being placed) holds a key-share lock
 * that makes the merge wait and then see that row; the survivor FOR NO KEY UPDATE, which still
 * serialises merges and undos of the pair but lets the survivor's own orders and points go on.
 */
async function lockPair(trx: Db, survivorId: number, mergedId: number): Promise<void> {
  if (!locksRows(trx)) return;
  for (const id of [survivorId, mergedId].sort((x, y) => x - y)) {
    const q = trx.selectFrom('customers').select('id').where('id', '=', id);
    await (id === mergedId ? q.forUpdate() : q.forNoKeyUpdate()).execute();
  }
}

function refuse(status: number, message: string, errorCode: string): never {
  throw new ApiError(status, message, { errorCode });
}

/** The two profiles, or the reason they cannot be merged (thrown). Null: already merged this way (the standing merge). */
async function checkPair(trx: Db, storeId: number, survivorId: number, mergedId: number): Promise<{ survivor: Row<'customers'>; merged: Row<'customers'> } | { standing: number }> {
  if (survivorId === mergedId) refuse(400, CUSTOMER_MESSAGES.mergeSame, 'merge_same_profile');
  const rows = await trx.selectFrom('customers').selectAll().where('id', 'in', [survivorId, mergedId]).execute();
  const survivor = rows.find((r) => r.id === survivorId);
  const merged = rows.find((r) => r.id === mergedId);
  if (!survivor || survivor.store_id !== storeId) refuse(404, CUSTOMER_MESSAGES.notFound, 'customer_not_found');
  if (!merged) refuse(404, CUSTOMER_MESSAGES.notFound, 'customer_not_found');
  if (merged.store_id !== storeId) refuse(409, CUSTOMER_MESSAGES.mergeOtherStore, 'merge_other_store');
  if (merged.merged_into === survivorId) {
    const m = await trx.selectFrom('customer_merges').select('id').where('merged_id', '=', mergedId).where('undone_at', 'is', null).executeTakeFirst();
    if (m) return { standing: m.id };
  }
  if (survivor.merged_into != null) refuse(409, CUSTOMER_MESSAGES.mergeSurvivorMerged, 'merge_survivor_merged');
  if (merged.merged_into != null) refuse(409, CUSTOMER_MESSAGES.mergeAlreadyMerged, 'merge_already_merged');
  const open = await trx.selectFrom('orders').select(['increment_id', 'status']).where('customer_id', '=', mergedId).execute();
  if (open.some((o) => !isFinalStatus(o.status as OrderStatus))) refuse(409, CUSTOMER_MESSAGES.mergeOpenOrder, 'merge_open_order');
  return { survivor, merged };
}

async function applyRules(trx: Db, storeId: number, survivorId: number, mergedId: number, iso: string): Promise<MergeLog> {
  const log = new MergeLog();
  const ctx = { trx, storeId, survivorId, mergedId, iso, log };
  for (const table of MERGE_ORDER) await MERGE_RULES[table].apply?.(ctx);
  return log;
}

export async function mergeCustomers(db: Kysely<Database>, storeId: number, survivorId: number, mergedId: number, actor: Actor, now: Date): Promise<CustomerMerge> {
  const id = await db.transaction().execute(async (trx) => {
    await lockPair(trx, survivorId, mergedId);
    const pair = await checkPair(trx, storeId, survivorId, mergedId);
    if ('standing' in pair) return pair.standing;
    const iso = now.toISOString();
    const log = await applyRules(trx, storeId, survivorId, mergedId, iso);
    const row = await trx
      .insertInto('customer_merges')
      .values({
        store_id: storeId,
        survivor_id: survivorId,
        merged_id: mergedId,
        staff_id: actor.id,
        staff_name: actor.name,
        merged_at: iso,
        undo_until: new Date(now.getTime() + MERGE_UNDO_HOURS * 3_600_000).toISOString(),
        undone_at: null,
        undone_by: null,
        summary: JSON.stringify(log.counts),
        changes: JSON.stringify(log.changes),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  return (await readMerge(db, storeId, id, now))!;
}

/** What a merge would move, from a real run of the rules rolled back; or why it would be refused. */
export async function previewMerge(db: Kysely<Database>, storeId: number, survivorId: number, mergedId: number, now: Date): Promise<CustomerMergePreview> {
  const sides = await db.selectFrom('customers').selectAll().where('id', 'in', [survivorId, mergedId]).where('store_id', '=', storeId).execute();
  const survivor = sides.find((s) => s.id === survivorId);
  const merged = sides.find((s) => s.id === mergedId);
  if (!survivor || !merged) refuse(404, CUSTOMER_MESSAGES.notFound, 'customer_not_found');
  let refusal: string | null = null;
  let moves: Record<string, number> = {};
  try {
    await db.transaction().execute(async (trx) => {
      const pair = await checkPair(trx, storeId, survivorId, mergedId);
      if ('standing' in pair) refuse(409, CUSTOMER_MESSAGES.mergeAlreadyMerged, 'merge_already_merged');
      throw new DryRun(await applyRules(trx, storeId, survivorId, mergedId, now.toISOString()));
    });
  } catch (error) {
    if (error instanceof DryRun) moves = error.log.counts as Record<string, number>;
    else if (error instanceof ApiError && error.statusCode !== 404) refusal = error.message;
    else throw error;
  }
  const side = async (c: Row<'customers'>): Promise<CustomerMergeSide> => {
    const [o, p] = await Promise.all([
      db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).where('customer_id', '=', c.id).executeTakeFirstOrThrow(),
      db.selectFrom('loyalty_accounts').select('balance').where('customer_id', '=', c.id).where('store_id', '=', storeId).executeTakeFirst(),
    ]);
    return { id: c.id, name: customerName(c), email: c.email, phone_last4: lastFour(c.phone), created_at: c.created_at, orders: Number(o.n), points: Number(p?.balance ?? 0) };
  };
  return { survivor: await side(survivor), merged: await side(merged), moves, refusal };
}

export async function undoMerge(db: Kysely<Database>, storeId: number, mergeId: number, actor: Actor, now: Date): Promise<CustomerMerge> {
  await db.transaction().execute(async (trx) => {
    const head = await trx.selectFrom('customer_merges').select(['survivor_id', 'merged_id']).where('id', '=', mergeId).where('store_id', '=', storeId).executeTakeFirst();
    if (!head) refuse(404, CUSTOMER_MESSAGES.mergeNotFound, 'merge_not_found');
    await lockPair(trx, head.survivor_id, head.merged_id);
    const m = await trx.selectFrom('customer_merges').selectAll().where('id', '=', mergeId).executeTakeFirstOrThrow();
    if (m.undone_at != null) return;
    if (now.toISOString() > m.undo_until) refuse(409, CUSTOMER_MESSAGES.undoExpired, 'merge_undo_expired');
    const survivor = await trx.selectFrom('customers').select('merged_into').where('id', '=', m.survivor_id).executeTakeFirstOrThrow();
    if (survivor.merged_into != null) refuse(409, CUSTOMER_MESSAGES.undoLaterMerge, 'merge_undo_later_merge');
    const changes = JSON.parse(m.changes) as Change[];
    const products = new Set<number>();
    for (const c of [...changes].reverse()) {
      if (c.op === 'stats') products.add(c.productId);
      else await revert(trx as unknown as AnyDb, c);
    }
    for (const p of products) await recomputeStats(trx, storeId, p, now.toISOString());
    await trx.updateTable('customer_merges').set({ undone_at: now.toISOString(), undone_by: actor.name }).where('id', '=', mergeId).where('undone_at', 'is', null).execute();
  });
  return (await readMerge(db, storeId, mergeId, now))!;
}

function whereKey<Q extends { where: (...a: any[]) => Q }>(q: Q, key: Record<string, unknown>): Q {
  for (const [c, v] of Object.entries(key)) q = v === null ? q.where(c, 'is', null) : q.where(c, '=', v);
  return q;
}

async function revert(trx: AnyDb, c: Exclude<Change, { op: 'stats' }>): Promise<void> {
  switch (c.op) {
    case 'move':
      await trx.updateTable(c.table).set({ [c.column]: c.from }).where(c.keyColumn, 'in', c.keys).where(c.column, '=', c.to).execute();
      return;
    case 'set': {
      // Written back where the merge's values still hold (updated_at aside: other writes move it).
      const guard = Object.fromEntries(Object.entries(c.after).filter(([k]) => k !== 'updated_at'));
      await whereKey(whereKey(trx.updateTable(c.table).set(c.before), c.key), guard).execute();
      return;
    }
    case 'add_to': {
      const res = await whereKey(trx.updateTable(c.table).set((eb: any) => ({ [c.column]: eb(c.column, '-', c.amount) })), c.key)
        .where((eb: any) => eb(eb(c.column, '-', c.amount), '>=', 0))
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) {
        const exists = await whereKey(trx.selectFrom(c.table).select(c.column), c.key).executeTakeFirst();
        if (exists) refuse(409, CUSTOMER_MESSAGES.undoPointsSpent, 'merge_undo_points_spent');
      }
      return;
    }
    case 'remove':
      await trx.insertInto(c.table).values(c.row).execute();
      return;
    case 'insert':
      await whereKey(trx.deleteFrom(c.table), c.key).execute();
      return;
  }
}

function viewOf(m: Row<'customer_merges'>, names: Map<number, string>, now: Date): CustomerMerge {
  return {
    id: m.id,
    survivor: { id: m.survivor_id, name: names.get(m.survivor_id) ?? '' },
    merged: { id: m.merged_id, name: names.get(m.merged_id) ?? '' },
    merged_at: m.merged_at,
    merged_by: m.staff_name,
    undo_until: m.undo_until,
    undone_at: m.undone_at,
    undone_by: m.undone_by,
    can_undo: m.undone_at == null && now.toISOString() <= m.undo_until,
    moved: JSON.parse(m.summary) as Record<string, number>,
  };
}

async function namesOf(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('customers').select(['id', 'firstname', 'lastname']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, customerName(r)]));
}

export async function readMerge(db: Db, storeId: number, mergeId: number, now: Date): Promise<CustomerMerge | null> {
  const m = await db.selectFrom('customer_merges').selectAll().where('id', '=', mergeId).where('store_id', '=', storeId).executeTakeFirst();
  if (!m) return null;
  return viewOf(m, await namesOf(db, [m.survivor_id, m.merged_id]), now);
}

/** For the profile: the standing merge this profile went into, and merges into it that can still be undone. */
export async function mergesOfProfile(db: Db, storeId: number, customer: { id: number; merged_into: number | null }, now: Date): Promise<{ merged_into: { id: number; name: string; merge_id: number | null } | null; merges: CustomerMerge[] }> {
  const rows = await db
    .selectFrom('customer_merges')
    .selectAll()
    .where('store_id', '=', storeId)
    .where('survivor_id', '=', customer.id)
    .where('undone_at', 'is', null)
    .where('undo_until', '>=', now.toISOString())
    .orderBy('id', 'desc')
    .execute();
  const standing = customer.merged_into != null ? await db.selectFrom('customer_merges').select('id').where('merged_id', '=', customer.id).where('undone_at', 'is', null).executeTakeFirst() : undefined;
  const names = await namesOf(db, [...rows.flatMap((r) => [r.survivor_id, r.merged_id]), ...(customer.merged_into != null ? [customer.merged_into] : [])]);
  return {
    merged_into: customer.merged_into != null ? { id: customer.merged_into, name: names.get(customer.merged_into) ?? '', merge_id: standing?.id ?? null } : null,
    merges: rows.map((r) => viewOf(r, names, now)),
  };
}

export type { TableName };
