/**
 * What merging two profiles of one person does to every table (issue 31): the merge rules, beside
 * the personal-data registry (./personal-data.ts) and keyed the same way — a `Record` over every
 * table, so a new table does not compile without deciding what a merge does to it, and
 * `customers/merge.test.ts` reads the live schema of both databases and fails when a table with a
 * `customer_id` column has a rule that re-points nothing.
 *
 *   - none:   holds nothing about a profile, or is reached through another table (an order's items,
 *             an order's timeline follows the order's row); `why` says which;
 *   - move:   every row of the merged profile is re-pointed at the survivor (`refs` names the column);
 *   - custom: `apply` moves the rows and settles the clashes of a unique key (each rule says how).
 *
 * Every write goes through the `MergeLog`, which records what it changed; undoing a merge replays
 * the log backwards (customers/merge.ts). Rows the merge takes away (a clash) are kept whole in the
 * log and inserted back with their ids on undo.
 */
import type { Database, TableName } from '../db/schema.ts';
import { recomputeStats } from '../reviews/service.ts';
import type { Db } from './subject.ts';

type Key = Record<string, number | string>;
type Values = Record<string, unknown>;

/** One recorded change; undo applies the opposite, newest first. */
export type Change =
  /** Rows (by `key` column values) whose `column` went from `from` to `to`. */
  | { op: 'move'; table: TableName; column: string; keyColumn: string; keys: (number | string)[]; from: number | string; to: number | string; extra?: { column: string; from: string; to: string } }
  /** One row's columns changed: `before` → `after` (undo writes `before` where `after` still holds). */
  | { op: 'set'; table: TableName; key: Key; before: Values; after: Values }
  /** A number column went up by `amount` (undo takes it off; refused if that would go below 0). */
  | { op: 'add_to'; table: TableName; key: Key; column: string; amount: number }
  /** A row taken away whole (undo inserts it back, with its id). */
  | { op: 'remove'; table: TableName; row: Values }
  /** A row the merge made (undo deletes it). */
  | { op: 'insert'; table: TableName; key: Key }
  /** A product whose review counts must be recomputed (after the merge and after undo). */
  | { op: 'stats'; table: 'review_product_stats'; productId: number };

export class MergeLog {
  readonly changes: Change[] = [];
  readonly counts: Partial<Record<TableName, number>> = {};
  count(table: TableName, n: number) {
    if (n > 0) this.counts[table] = (this.counts[table] ?? 0) + n;
  }
}

export interface MergeContext {
  trx: Db;
  storeId: number;
  survivorId: number;
  mergedId: number;
  iso: string;
  log: MergeLog;
}

export interface MergeRule {
  kind: 'none' | 'move' | 'custom';
  /** What the merge does here, and why (docs/operators/customers.md says the same). */
  why: string;
  /** Columns that name a customer, which the merge re-points (the scan test checks each). */
  refs?: readonly { column: string; value?: (id: number) => string; where?: Record<string, string> }[];
  apply?: (ctx: MergeContext) => Promise<void>;
}

const NONE = (why: string): MergeRule => ({ kind: 'none', why });
const NOTHING = NONE('Holds nothing about a customer.');

/** `UPDATE table SET column = survivor WHERE column = merged [AND where…]`, recorded by id. */
export async function moveRows(ctx: MergeContext, table: TableName, column = 'customer_id', where: Record<string, string> = {}, keyColumn = 'id'): Promise<number> {
  const db = ctx.trx as unknown as import('kysely').Kysely<any>;
  let q = db.selectFrom(table).select(keyColumn).where(column, '=', ctx.mergedId);
  for (const [c, v] of Object.entries(where)) q = q.where(c, '=', v);
  const keys = (await q.execute()).map((r: any) => r[keyColumn] as number);
  if (!keys.length) return 0;
  await db.updateTable(table).set({ [column]: ctx.survivorId }).where(keyColumn, 'in', keys).where(column, '=', ctx.mergedId).execute();
  ctx.log.changes.push({ op: 'move', table, column, keyColumn, keys, from: ctx.mergedId, to: ctx.survivorId });
  ctx.log.count(table, keys.length);
  return keys.length;
}

const move = (why: string, table: TableName): MergeRule => ({
  kind: 'move',
  why,
  refs: [{ column: 'customer_id' }],
  apply: async (ctx) => {
    await moveRows(ctx, table);
  },
});

/** Take a row away whole (kept in the log to be put back). */
async function removeRow(ctx: MergeContext, table: TableName, key: Key): Promise<void> {
  const db = ctx.trx as unknown as import('kysely').Kysely<any>;
  let q = db.selectFrom(table).selectAll();
  for (const [c, v] of Object.entries(key)) q = q.where(c, '=', v);
  const row = await q.executeTakeFirst();
  if (!row) return;
  let d = db.deleteFrom(table);
  for (const [c, v] of Object.entries(key)) d = d.where(c, '=', v);
  await d.execute();
  ctx.log.changes.push({ op: 'remove', table, row });
}

async function setRow(ctx: MergeContext, table: TableName, key: Key, before: Values, after: Values): Promise<void> {
  const db = ctx.trx as unknown as import('kysely').Kysely<any>;
  let u = db.updateTable(table).set(after);
  for (const [c, v] of Object.entries(key)) u = u.where(c, '=', v);
  await u.execute();
  ctx.log.changes.push({ op: 'set', table, key, before, after });
}

/** A review's helpful count one lower (never below 0), recorded when it moved. */
async function oneVoteLess(ctx: MergeContext, reviewId: number): Promise<void> {
  const res = await ctx.trx.updateTable('reviews').set((eb) => ({ helpful_count: eb('helpful_count', '-', 1) })).where('id', '=', reviewId).where('helpful_count', '>', 0).executeTakeFirst();
  if (Number(res.numUpdatedRows) > 0) ctx.log.changes.push({ op: 'add_to', table: 'reviews', key: { id: reviewId }, column: 'helpful_count', amount: -1 });
}

/** The verification the survivor takes over when the merged profile's is better (verified beats anything). */
const ID_FIELDS = ['id_status', 'id_review_reason', 'id_reviewed_by', 'id_reviewed_at', 'id_verified'] as const;
const MEDCARD_FIELDS = ['medcard_status', 'medcard_review_reason', 'medcard_reviewed_by', 'medcard_reviewed_at', 'medcard_number', 'medcard_expiry'] as const;

export const MERGE_RULES: Record<TableName, MergeRule> = {
  stores: NOTHING,
  catalog_sources: NOTHING,
  attributes: NOTHING,
  categories: NOTHING,
  products: NOTHING,
  product_categories: NOTHING,
  product_media: NOTHING,
  product_attribute_values: NOTHING,
  product_configurable_options: NOTHING,
  product_configurable_option_values: NOTHING,
  bundle_options: NOTHING,
  product_links: NOTHING,
  custom_options: NOTHING,
  custom_option_values: NOTHING,
  stock: NOTHING,
  product_prices: NOTHING,
  tier_prices: NOTHING,
  qty_discounts: NOTHING,
  tax_rules: NOTHING,
  tax_rates: NOTHING,
  cms_pages: NOTHING,
  cms_blocks: NOTHING,
  url_rewrites: NOTHING,

  customers: {
    kind: 'custom',
    why:
      'The merged profile stays, marked merged_into the survivor (its phone and e-mail still name it: logging in with them lands on the survivor). ' +
      "The survivor's own contact, name and licence are kept; it takes the merged profile's ID or medical card review when that one is verified and its own is not, and its birthday when it has none.",
    refs: [{ column: 'merged_into' }],
    apply: async (ctx) => {
      const db = ctx.trx;
      const [s, m] = await Promise.all([
        db.selectFrom('customers').selectAll().where('id', '=', ctx.survivorId).executeTakeFirstOrThrow(),
        db.selectFrom('customers').selectAll().where('id', '=', ctx.mergedId).executeTakeFirstOrThrow(),
      ]);
      const before: Values = {};
      const after: Values = {};
      const take = (fields: readonly (keyof typeof s)[]) => {
        for (const f of fields) {
          before[f] = s[f];
          after[f] = m[f];
        }
      };
      if (m.id_status === 'verified' && s.id_status !== 'verified') take(ID_FIELDS);
      if (m.medcard_status === 'verified' && s.medcard_status !== 'verified') take(MEDCARD_FIELDS);
      if (s.birthday == null && m.birthday != null) take(['birthday']);
      if (s.phone_verified_at == null && m.phone_verified_at != null) take(['phone_verified_at']);
      if (Object.keys(after).length) {
        before.updated_at = s.updated_at;
        after.updated_at = ctx.iso;
        await setRow(ctx, 'customers', { id: s.id }, before, after);
      }
      await setRow(ctx, 'customers', { id: m.id }, { merged_into: null, merged_at: null, updated_at: m.updated_at }, { merged_into: s.id, merged_at: ctx.iso, updated_at: ctx.iso });
      // Profiles merged into the merged one earlier now point at the survivor (undo points them back).
      await moveRows(ctx, 'customers', 'merged_into', {});
    },
  },
  customer_addresses: move('Saved addresses move to the survivor.', 'customer_addresses'),
  carts: move("Carts move (ordered ones with their orders); the survivor's newest open cart stays the one in use.", 'carts'),
  cart_items: NONE('Follow their cart.'),
  coupons: NOTHING,
  newsletter_subscribers: move('The subscription moves (it is kept by its e-mail).', 'newsletter_subscribers'),
  uploads: move('ID and medical card images move with the review they belong to.', 'uploads'),
  orders: move(
    "Orders move: the survivor's history, spend, tier and purchase-limit windows count them (limits/enforce.ts reads orders by customer). The order's own details (name and phone at the time) are the sales record and are not rewritten.",
    'orders',
  ),
  order_items: NONE('Follow their order.'),
  auth_codes: NONE('Keyed by phone: the merged profile keeps its phone, and a code for it logs into the survivor.'),
  refresh_tokens: {
    kind: 'custom',
    why: "The merged profile's sessions end (taken away; undo puts them back, so a session still valid resumes).",
    refs: [{ column: 'customer_id' }],
    apply: async (ctx) => {
      const rows = await ctx.trx.selectFrom('refresh_tokens').select(['id', 'replaced_by']).where('customer_id', '=', ctx.mergedId).execute();
      // replaced_by links the profile's own rows: cleared first (recorded), then the rows taken away;
      // undo inserts the rows back before it restores the links.
      for (const r of rows) if (r.replaced_by != null) await setRow(ctx, 'refresh_tokens', { id: r.id }, { replaced_by: r.replaced_by }, { replaced_by: null });
      for (const r of rows) await removeRow(ctx, 'refresh_tokens', { id: r.id });
      ctx.log.count('refresh_tokens', rows.length);
    },
  },
  password_reset_tokens: {
    kind: 'custom',
    why: "The merged profile's open password resets are taken away (it cannot log in itself); undo puts them back.",
    refs: [{ column: 'customer_id' }],
    apply: async (ctx) => {
      const rows = await ctx.trx.selectFrom('password_reset_tokens').select('id').where('customer_id', '=', ctx.mergedId).execute();
      for (const r of rows) await removeRow(ctx, 'password_reset_tokens', { id: r.id });
    },
  },
  idempotency_keys: NONE("Retry answers: keyed by the request, not the profile."),
  staff: NOTHING,
  staff_stores: NOTHING,
  staff_sessions: NOTHING,
  staff_password_resets: NOTHING,
  staff_login_throttle: NOTHING,
  staff_unlock_tokens: NOTHING,
  order_events: {
    kind: 'custom',
    why: 'Timeline entries the shopper made (actor customer) name the survivor as actor.',
    refs: [{ column: 'actor_id', where: { actor_type: 'customer' } }],
    apply: async (ctx) => {
      await moveRows(ctx, 'order_events', 'actor_id', { actor_type: 'customer' });
    },
  },
  store_order_settings: NOTHING,
  outbox_events: NONE('Events follow their order.'),
  message_deliveries: move('Messages sent to the merged profile show on the survivor (the recipient stays what it was).', 'message_deliveries'),
  webhook_endpoints: NOTHING,
  webhook_deliveries: NOTHING,
  webhook_attempts: NOTHING,
  menu_changes: NOTHING,
  store_settings: NOTHING,
  store_settings_history: NOTHING,
  order_tax_lines: NOTHING,
  slot_bookings: NOTHING,
  api_keys: NOTHING,
  api_idempotency: NONE('Retry answers of the integration API.'),
  integration_stock_sequences: NOTHING,
  deals: NOTHING,
  deal_changes: NOTHING,
  deal_redemptions: NONE("Keyed by the order and the phone the deal was used with (part of the sale); a deal's per-customer limit keeps counting by phone."),
  drivers: NOTHING,
  vehicles: NOTHING,
  trips: NOTHING,
  trip_stops: NONE('Follow their order.'),
  driver_actions: NONE('Follow their trip.'),
  driver_devices: NOTHING,
  loyalty_accounts: {
    kind: 'custom',
    why:
      "Points add up: the survivor's balance gains the merged balance (an account is made for the survivor if it had none), its last purchase is the later of the two and its sign-up bonus the earlier; the merged account row is taken away (undo puts it back and takes the points off the survivor — refused if they were spent since).",
    refs: [{ column: 'customer_id' }],
    apply: async (ctx) => {
      const db = ctx.trx;
      const m = await db.selectFrom('loyalty_accounts').selectAll().where('customer_id', '=', ctx.mergedId).where('store_id', '=', ctx.storeId).executeTakeFirst();
      if (!m) return;
      let s = await db.selectFrom('loyalty_accounts').selectAll().where('customer_id', '=', ctx.survivorId).where('store_id', '=', ctx.storeId).executeTakeFirst();
      if (!s) {
        s = await db
          .insertInto('loyalty_accounts')
          .values({ customer_id: ctx.survivorId, store_id: ctx.storeId, balance: 0, last_purchase_at: null, bonus_at: null, reminded_for: null, created_at: ctx.iso, updated_at: ctx.iso })
          .returningAll()
          .executeTakeFirstOrThrow();
        ctx.log.changes.push({ op: 'insert', table: 'loyalty_accounts', key: { id: s.id } });
      }
      const later = (a: string | null, b: string | null) => (a == null ? b : b == null ? a : a > b ? a : b);
      const earlier = (a: string | null, b: string | null) => (a == null ? b : b == null ? a : a < b ? a : b);
      await setRow(
        ctx,
        'loyalty_accounts',
        { id: s.id },
        { last_purchase_at: s.last_purchase_at, bonus_at: s.bonus_at },
        { last_purchase_at: later(s.last_purchase_at, m.last_purchase_at), bonus_at: earlier(s.bonus_at, m.bonus_at) },
      );
      const points = Number(m.balance);
      if (points > 0) {
        await db.updateTable('loyalty_accounts').set((eb) => ({ balance: eb('balance', '+', points) })).where('id', '=', s.id).execute();
        ctx.log.changes.push({ op: 'add_to', table: 'loyalty_accounts', key: { id: s.id }, column: 'balance', amount: points });
      }
      await removeRow(ctx, 'loyalty_accounts', { id: m.id });
      ctx.log.count('loyalty_accounts', 1);
    },
  },
  loyalty_ledger: {
    kind: 'custom',
    why:
      "The merged profile's entries move (their balance_after is the merged account's at the time), so the history sums to the new balance; one entry of 0 points notes the merge with the new balance. Both had a sign-up bonus: the merged one is kept as an adjustment (one bonus per profile).",
    refs: [{ column: 'customer_id' }],
    apply: async (ctx) => {
      const db = ctx.trx;
      const bonuses = await db.selectFrom('loyalty_ledger').select(['id', 'customer_id', 'note']).where('store_id', '=', ctx.storeId).where('kind', '=', 'bonus').where('customer_id', 'in', [ctx.survivorId, ctx.mergedId]).execute();
      const mergedBonus = bonuses.find((b) => b.customer_id === ctx.mergedId);
      if (mergedBonus && bonuses.some((b) => b.customer_id === ctx.survivorId))
        await setRow(ctx, 'loyalty_ledger', { id: mergedBonus.id }, { kind: 'bonus', note: mergedBonus.note }, { kind: 'adjust', note: 'Sign-up bonus of a merged profile' });
      const moved = await moveRows(ctx, 'loyalty_ledger');
      if (!moved) return;
      const account = await db.selectFrom('loyalty_accounts').select('balance').where('customer_id', '=', ctx.survivorId).where('store_id', '=', ctx.storeId).executeTakeFirst();
      const row = await db
        .insertInto('loyalty_ledger')
        .values({ customer_id: ctx.survivorId, store_id: ctx.storeId, order_id: null, kind: 'adjust', points: 0, balance_after: Number(account?.balance ?? 0), note: `Profile #${ctx.mergedId} merged in`, created_at: ctx.iso })
        .returning('id')
        .executeTakeFirstOrThrow();
      ctx.log.changes.push({ op: 'insert', table: 'loyalty_ledger', key: { id: row.id } });
    },
  },
  consent_events: {
    kind: 'custom',
    why:
      "The ledger rows move (it stays append-only proof). A merge never widens consent: where the merged profile's newer grant would become the survivor's standing answer over its own withdrawal (or no answer), a withdrawal is added (source profile_merge) so the survivor's answer stays what it was; undo removes it.",
    refs: [{ column: 'customer_id' }],
    apply: async (ctx) => {
      const db = ctx.trx;
      // The survivor's standing answers as messages read them at send time (notifications/consent.ts
      // consentRecords): its own rows (customer_id, whatever the contact) and rows of its phone or e-mail.
      const me = await db.selectFrom('customers').select(['phone', 'email']).where('id', '=', ctx.survivorId).executeTakeFirstOrThrow();
      const contacts = { sms: me.phone, email: me.email?.toLowerCase() ?? null } as const;
      const standing = async () => {
        const rows = await db
          .selectFrom('consent_events')
          .select(['channel', 'purpose', 'action', 'contact', 'customer_id'])
          .where('store_id', '=', ctx.storeId)
          .where((eb) => eb.or([eb('customer_id', '=', ctx.survivorId), eb('contact', 'in', [me.phone, ...(contacts.email ? [contacts.email] : [])])]))
          .orderBy('at')
          .orderBy('id')
          .execute();
        const last = new Map<string, string>();
        for (const r of rows) if (r.customer_id === ctx.survivorId || r.contact === contacts[r.channel]) last.set(`${r.channel}|${r.purpose}`, r.action);
        return last;
      };
      const before = await standing();
      const moved = await moveRows(ctx, 'consent_events');
      if (!moved) return;
      const after = await standing();
      for (const [k, action] of after) {
        if (action !== 'granted' || before.get(k) === 'granted') continue;
        const [channel, purpose] = k.split('|') as ['sms' | 'email', 'transactional' | 'marketing'];
        const row = await db
          .insertInto('consent_events')
          .values({ store_id: ctx.storeId, customer_id: ctx.survivorId, contact: null, channel, purpose, action: 'withdrawn', source: 'profile_merge', words: null, at: ctx.iso })
          .returning('id')
          .executeTakeFirstOrThrow();
        ctx.log.changes.push({ op: 'insert', table: 'consent_events', key: { id: row.id } });
      }
    },
  },
  stock_watches: {
    kind: 'custom',
    why: "Alerts move to the survivor; when both watch the same product or size, the survivor's alert stays and the merged one is taken away (undo puts it back).",
    refs: [{ column: 'customer_id' }, { column: 'subscriber_key', value: (id) => `c${id}` }],
    apply: async (ctx) => {
      const db = ctx.trx;
      const mine = await db.selectFrom('stock_watches').select(['id', 'target_key']).where('store_id', '=', ctx.storeId).where('subscriber_key', '=', `c${ctx.mergedId}`).execute();
      const theirs = new Set(
        (await db.selectFrom('stock_watches').select('target_key').where('store_id', '=', ctx.storeId).where('subscriber_key', '=', `c${ctx.survivorId}`).execute()).map((r) => r.target_key),
      );
      for (const w of mine.filter((w) => theirs.has(w.target_key))) await removeRow(ctx, 'stock_watches', { id: w.id });
      const keep = mine.filter((w) => !theirs.has(w.target_key)).map((w) => w.id);
      if (keep.length) {
        await db.updateTable('stock_watches').set({ subscriber_key: `c${ctx.survivorId}` }).where('id', 'in', keep).execute();
        ctx.log.changes.push({ op: 'move', table: 'stock_watches', column: 'subscriber_key', keyColumn: 'id', keys: keep, from: `c${ctx.mergedId}`, to: `c${ctx.survivorId}` });
      }
      await moveRows(ctx, 'stock_watches');
    },
  },
  reviews: {
    kind: 'custom',
    why: "Reviews move; when both reviewed the same product (one review per person and product), the survivor's review stays and the merged one is taken away with its votes (undo puts them back); the product's stars are recomputed.",
    refs: [{ column: 'customer_id' }],
    apply: async (ctx) => {
      const db = ctx.trx;
      const mine = await db.selectFrom('reviews').select(['id', 'product_id']).where('store_id', '=', ctx.storeId).where('customer_id', '=', ctx.mergedId).execute();
      if (!mine.length) return;
      const theirs = new Set((await db.selectFrom('reviews').select('product_id').where('store_id', '=', ctx.storeId).where('customer_id', '=', ctx.survivorId).execute()).map((r) => r.product_id));
      for (const r of mine.filter((r) => theirs.has(r.product_id))) {
        const votes = await db.selectFrom('review_votes').select(['review_id', 'customer_id']).where('review_id', '=', r.id).execute();
        for (const v of votes) await removeRow(ctx, 'review_votes', { review_id: v.review_id, customer_id: v.customer_id });
        await removeRow(ctx, 'reviews', { id: r.id });
        ctx.log.changes.push({ op: 'stats', table: 'review_product_stats', productId: r.product_id });
        await recomputeStats(db, ctx.storeId, r.product_id, ctx.iso);
      }
      await moveRows(ctx, 'reviews');
    },
  },
  review_votes: {
    kind: 'custom',
    why: "Votes move; a review both voted helpful keeps one vote, and a vote the person gave their own review (one profile's vote on the other's review) is taken away — the review's helpful count goes down by one each; undo puts them back.",
    refs: [{ column: 'customer_id' }],
    apply: async (ctx) => {
      const db = ctx.trx;
      // Runs after the reviews moved: a vote by either profile on a review now the survivor's is a vote on one's own review.
      const own = await db
        .selectFrom('review_votes')
        .innerJoin('reviews', 'reviews.id', 'review_votes.review_id')
        .select(['review_votes.review_id', 'review_votes.customer_id'])
        .where('reviews.customer_id', '=', ctx.survivorId)
        .where('review_votes.customer_id', 'in', [ctx.survivorId, ctx.mergedId])
        .execute();
      for (const v of own) {
        await removeRow(ctx, 'review_votes', { review_id: v.review_id, customer_id: v.customer_id });
        await oneVoteLess(ctx, v.review_id);
      }
      const mine = await db.selectFrom('review_votes').select('review_id').where('customer_id', '=', ctx.mergedId).execute();
      if (!mine.length) return;
      const theirs = new Set((await db.selectFrom('review_votes').select('review_id').where('customer_id', '=', ctx.survivorId).execute()).map((r) => r.review_id));
      for (const v of mine.filter((v) => theirs.has(v.review_id))) {
        await removeRow(ctx, 'review_votes', { review_id: v.review_id, customer_id: ctx.mergedId });
        await oneVoteLess(ctx, v.review_id);
      }
      const keep = mine.filter((v) => !theirs.has(v.review_id)).map((v) => v.review_id);
      if (keep.length) {
        await db.updateTable('review_votes').set({ customer_id: ctx.survivorId }).where('customer_id', '=', ctx.mergedId).where('review_id', 'in', keep).execute();
        ctx.log.changes.push({ op: 'move', table: 'review_votes', column: 'customer_id', keyColumn: 'review_id', keys: keep, from: ctx.mergedId, to: ctx.survivorId });
        ctx.log.count('review_votes', keep.length);
      }
    },
  },
  review_product_stats: NONE('Recomputed for a product whose review was taken away.'),
  customer_notes: move('Staff notes move to the survivor.', 'customer_notes'),
  document_views: move('The access log of the documents moves with them.', 'document_views'),
  retention_runs: NOTHING,
  data_deletions: NOTHING,
  // Issue 31's analytics: store totals by day, month and order (no person in them; an order's
  // new/returning classification stays as it was when counted, like any past report).
  analytics_daily: NOTHING,
  analytics_monthly: NOTHING,
  analytics_order_facts: NOTHING,
  analytics_funnel: NOTHING,
  customer_merges: NONE('The record of the merge itself (it names both profiles on purpose).'),
};

/** The order a merge walks the tables: rules that read other tables' state go before those tables move. */
export const MERGE_ORDER: readonly TableName[] = (() => {
  const first: TableName[] = ['customers', 'loyalty_accounts', 'loyalty_ledger', 'reviews', 'review_votes'];
  return [...first, ...(Object.keys(MERGE_RULES) as TableName[]).filter((t) => !first.includes(t))];
})();

export type { Database };
