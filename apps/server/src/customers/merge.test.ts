/**
 * Merging two profiles of one person (issue 31), both databases, through the real console routes:
 *  - every table of the live schema has a merge rule, and a table with a customer_id column has one
 *    that re-points it (a table added later without a rule fails here);
 *  - a merge moves orders, points, consents, reviews, votes, alerts, notes, documents, addresses and
 *    sessions to the survivor, settles each unique-key clash by its rule (one review per product, one
 *    vote per review and none on one's own, one alert per product, one sign-up bonus, never a wider
 *    consent — checked as a message reads it), and then a scan of every table finds no row pointing
 *    at the merged profile and no orphan; logging in with the merged phone lands on the survivor;
 *  - the purchase-limit window counts both profiles' orders once merged (a real order refused);
 *  - a profile with others merged into it, merged again: they follow it (and back on undo);
 *  - undo puts every row back exactly (every personal table compared row by row with the picture
 *    taken before the merge), points balance and tier included; after 24 h undo is refused;
 *  - the clear refusals (same profile, other store, merged already, open order, budtender);
 *  - bursts: the same merge twice and the reverse merge at once, then undo twice with a merge at
 *    once, leave one consistent state;
 *  - deleting the survivor deletes the profile merged into it: nothing of either is left.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { describeEachDatabase, ownTables, tableNames, type TestDatabase } from '../../test-support/databases.ts';
import { loginCustomer } from '../../test-support/cart/testing.ts';
import { lifecycleHarness, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { customerRow } from '../../test-support/customers/rows.ts';
import type { Database, TableName } from '../db/schema.ts';
import { MERGE_RULES } from '../privacy/merge-rules.ts';
import { PERSONAL_DATA } from '../privacy/personal-data.ts';
import { deleteAccount } from '../privacy/rights.ts';
import { recomputeStats } from '../reviews/service.ts';
import { mayMessage } from '../notifications/consent.ts';
import { LIMITS } from '../limits/section.ts';
import { LIMIT_PRESETS } from '@verdant/domain';
import { EIGHTH } from '../../test-support/orders/lifecycle/testing.ts';

const BASE = '/api/console/stores/1/customers';
type AnyDb = Kysely<any>;

type Tables = Awaited<ReturnType<typeof ownTables>>;
/** The live schema, read once per database (its own schema only: test-support/databases.ts ownTables). */
const schemas = new WeakMap<TestDatabase, Promise<Tables>>();
function liveTables(t: TestDatabase): Promise<Tables> {
  if (!schemas.has(t))
    schemas.set(t, ownTables(t));
  return schemas.get(t)!;
}

/** Every (table, column, value) that names customer `id`: the rules' refs and every customer_id column of the live schema. */
async function refsTo(t: TestDatabase, id: number): Promise<string[]> {
  const db = t.db as unknown as AnyDb;
  const found: string[] = [];
  for (const table of await liveTables(t)) {
    if (table.name === 'customer_merges') continue;
    const rule = MERGE_RULES[table.name as TableName];
    const refs = [...(rule.refs ?? [])];
    if (table.columns.some((c) => c.name === 'customer_id') && !refs.some((r) => r.column === 'customer_id')) refs.push({ column: 'customer_id' });
    for (const r of refs) {
      let q = db.selectFrom(table.name).select((eb: any) => eb.fn.countAll().as('n')).where(r.column, '=', r.value ? r.value(id) : id);
      for (const [c, v] of Object.entries(r.where ?? {})) q = q.where(c, '=', v);
      const n = Number(((await q.executeTakeFirstOrThrow()) as { n: number | string }).n);
      if (n) found.push(`${table.name}.${r.column}: ${n}`);
    }
  }
  return found;
}

/** Rows whose customer reference names no customer (FKs cover most; `c{id}` keys and actor ids do not). */
async function orphans(t: TestDatabase): Promise<string[]> {
  const db = t.db as unknown as AnyDb;
  const ids = new Set((await db.selectFrom('customers').select('id').execute()).map((r: { id: number }) => r.id));
  const out: string[] = [];
  for (const table of await liveTables(t)) {
    const rule = MERGE_RULES[table.name as TableName];
    const refs = [...(rule.refs ?? [])];
    if (table.columns.some((c) => c.name === 'customer_id') && !refs.some((r) => r.column === 'customer_id')) refs.push({ column: 'customer_id' });
    for (const r of refs) {
      let q = db.selectFrom(table.name).select(r.column).where(r.column, 'is not', null);
      for (const [c, v] of Object.entries(r.where ?? {})) q = q.where(c, '=', v);
      for (const row of await q.execute()) {
        const v = row[r.column];
        const id = typeof v === 'string' ? (/^c(\d+)$/.exec(v)?.[1] ?? null) : v;
        if (id != null && !ids.has(Number(id))) out.push(`${table.name}.${r.column} = ${v}`);
      }
    }
  }
  return out;
}

/** Every row of every table that holds something about a person (and the review counts), sorted. */
async function picture(t: TestDatabase): Promise<Record<string, string[]>> {
  const db = t.db as unknown as AnyDb;
  const out: Record<string, string[]> = {};
  const tables = (Object.keys(PERSONAL_DATA) as TableName[]).filter((n) => (PERSONAL_DATA[n].holds != null || n === 'review_product_stats') && n !== 'customer_merges');
  for (const table of tables) {
    const rows = await db.selectFrom(table).selectAll().execute();
    out[table] = rows.map((r: Record<string, unknown>) => JSON.stringify(Object.entries(r).filter(([k]) => !(table === 'review_product_stats' && k === 'updated_at')).sort(([a], [b]) => a.localeCompare(b)), (_k, v) => (typeof v === 'bigint' ? Number(v) : v))).sort();
  }
  return out;
}

describeEachDatabase('merging two profiles of one person', (getDb) => {
  let h: LifecycleHarness;
  let manager: StaffTestSession;
  let budtender: StaffTestSession;
  const tag = `${process.pid}${Date.now() % 100000}`;
  let phoneSeq = 0;
  const nextPhone = () => `(916) 555-${String(3100 + ++phoneSeq + (process.pid % 40) * 100).padStart(4, '0')}`;

  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    for (const role of ['manager', 'budtender'] as const) await addStaff(h.db, { email: `${role}-${tag}@merge.test`, role, storeIds: [1], name: `${role} ${tag}` });
    manager = await loginStaff(h.app, `manager-${tag}@merge.test`, { ip: '10.232.0.1' });
    budtender = await loginStaff(h.app, `budtender-${tag}@merge.test`, { ip: '10.232.0.2' });
  });
  afterAll(async () => h?.app.close());

  const merge = (survivor: number, merged: number, session = manager) => h.console('POST', `${BASE}/${survivor}/merge`, { merged }, session);
  const undo = (mergeId: number, session = manager) => h.console('POST', `${BASE}/merges/${mergeId}/undo`, {}, session);
  const profile = async (id: number) => (await h.get(`${BASE}/${id}`, manager)).body.result;
  const person = async (first: string, last: string) => {
    const phone = nextPhone();
    const c = await loginCustomer(h.app, phone);
    await h.db.updateTable('customers').set({ firstname: first, lastname: last }).where('id', '=', c.customerId).execute();
    return { ...c, phone };
  };

  it('has a merge rule for every table, and one that re-points every customer_id column', async () => {
    const t = getDb();
    const names = (await tableNames(t)).filter((n) => !n.startsWith('kysely_'));
    expect(names.filter((n) => !(n in MERGE_RULES))).toEqual([]);
    const missing: string[] = [];
    for (const table of await liveTables(t)) {
      if (table.name === 'customer_merges') continue;
      const rule = MERGE_RULES[table.name as TableName];
      if (table.columns.some((c) => c.name === 'customer_id') && (rule.kind === 'none' || !rule.refs?.some((r) => r.column === 'customer_id'))) missing.push(table.name);
      if (rule.kind !== 'none' && !rule.apply) missing.push(`${table.name}: no apply`);
    }
    expect(missing).toEqual([]);
  });

  it('moves everything to the survivor, leaves nothing pointing at the merged profile, and undo puts every row back', async () => {
    const db = h.db;
    const iso = h.clock.now.toISOString();
    const a = await person('Mira', `Survivor${tag}`);
    const b = await person('Mira', `Second${tag}`);
    // B: two completed orders, a verified ID, points with a sign-up bonus, a newer marketing grant,
    // two reviews (one of a product A reviewed too), a vote, two alerts (one A has too), a note,
    // an upload with its view log, an address.
    const o1 = await h.place({ token: b.token });
    const o2 = await h.place({ token: b.token });
    await h.setStatus(o1.id, 'completed');
    await h.setStatus(o2.id, 'completed');
    await db.updateTable('orders').set({ status_changed_at: iso }).where('id', 'in', [o1.id, o2.id]).execute();
    const aOrder = await h.place({ token: a.token });
    await h.setStatus(aOrder.id, 'completed');
    await db.updateTable('customers').set({ id_status: 'verified', id_reviewed_at: iso, id_verified: 1 }).where('id', '=', b.customerId).execute();
    for (const [c, balance] of [[a.customerId, 40], [b.customerId, 125]] as const) {
      // Signing up made the account: give it a known balance and history.
      await db.deleteFrom('loyalty_ledger').where('customer_id', '=', c).execute();
      await db.deleteFrom('loyalty_accounts').where('customer_id', '=', c).execute();
      await db.insertInto('loyalty_accounts').values({ customer_id: c, store_id: 1, balance, last_purchase_at: iso, bonus_at: iso, reminded_for: null, created_at: iso, updated_at: iso }).execute();
      await db.insertInto('loyalty_ledger').values({ customer_id: c, store_id: 1, order_id: null, kind: 'bonus', points: 25, balance_after: 25, note: null, created_at: iso }).execute();
      await db.insertInto('loyalty_ledger').values({ customer_id: c, store_id: 1, order_id: null, kind: 'adjust', points: balance - 25, balance_after: balance, note: 'test', created_at: iso }).execute();
    }
    await db
      .insertInto('consent_events')
      .values([
        { store_id: 1, customer_id: a.customerId, contact: null, channel: 'sms', purpose: 'marketing', action: 'withdrawn', source: 'account', words: null, at: '2026-01-01T00:00:00.000Z' },
        { store_id: 1, customer_id: b.customerId, contact: `+1${b.phone.replace(/\D/g, '')}`, channel: 'sms', purpose: 'marketing', action: 'granted', source: 'stock_alert_account', words: 'Text me deals', at: '2026-02-01T00:00:00.000Z' },
        { store_id: 1, customer_id: b.customerId, contact: null, channel: 'email', purpose: 'transactional', action: 'granted', source: 'account', words: 'Mail me', at: '2026-02-01T00:00:00.000Z' },
      ])
      .execute();
    const products = await db.selectFrom('products').select(['id', 'sku']).where('type_id', '=', 'simple').orderBy('id').limit(2).execute();
    const review = (customer_id: number, p: { id: number; sku: string }, stars: number) =>
      db.insertInto('reviews').values({ store_id: 1, product_id: p.id, sku: p.sku, customer_id, stars, title: 'Nice', text: 'Really quite nice indeed.', status: 'approved', created_at: iso, updated_at: iso, moderated_at: null, moderated_by: null, reject_reason: null }).returning('id').executeTakeFirstOrThrow();
    const ra = await review(a.customerId, products[0], 5);
    const rb = await review(b.customerId, products[0], 2);
    await review(b.customerId, products[1], 4);
    await db.insertInto('review_votes').values([{ review_id: ra.id, customer_id: b.customerId, created_at: iso }, { review_id: rb.id, customer_id: a.customerId, created_at: iso }]).execute();
    await db.updateTable('reviews').set({ helpful_count: 1 }).where('id', 'in', [ra.id, rb.id]).execute();
    for (const pr of products) await recomputeStats(db, 1, pr.id, iso);
    const watch = (customerId: number, p: { id: number }) =>
      db.insertInto('stock_watches').values({ store_id: 1, product_id: p.id, variant_id: null, target_key: `p${p.id}`, customer_id: customerId, contact: null, channel: 'sms', subscriber_key: `c${customerId}`, created_at: iso, removed_at: null, restocked_at: null, notified_at: null, outcome: null }).execute();
    await watch(a.customerId, products[0]);
    await watch(b.customerId, products[0]);
    await watch(b.customerId, products[1]);
    await db.insertInto('customer_notes').values({ store_id: 1, customer_id: b.customerId, staff_id: null, author_name: 'Olga Owner', text: 'Same person as Mira S.', created_at: iso }).execute();
    const up = await db.insertInto('uploads').values({ store_id: 1, customer_id: b.customerId, kind: 'id', stored_path: `private/uploads/${b.customerId}/id.png`, original_name: 'id.png', mime: 'image/png', size_bytes: 10, sha256: 'x', created_at: iso, reviewed_at: null, purged_at: null }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('document_views').values({ store_id: 1, customer_id: b.customerId, upload_id: up.id, document: 'id', order_id: null, staff_id: null, staff_name: 'Olga Owner', staff_role: 'owner', viewed_at: iso }).execute();
    await db.insertInto('customer_addresses').values({ customer_id: b.customerId, title: null, firstname: 'Mira', lastname: 'S', street: '1 K St', house_number: null, apt_ste: null, city: 'Sacramento', region: 'CA', postcode: '95814', phone: null, lat: null, lng: null, created_at: iso, updated_at: iso }).execute();

    const before = await picture(getDb());
    const lastToken = (await db.selectFrom('refresh_tokens').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow()).id as number;
    const tierBefore = (await profile(a.customerId)).loyalty;

    // The preview is a dry run: it says what would move and changes nothing.
    const preview = await h.get(`${BASE}/${a.customerId}/merge-preview?merged=${b.customerId}`, manager);
    expect(preview.status).toBe(200);
    expect(preview.body.result).toMatchObject({ refusal: null, survivor: { id: a.customerId, orders: 1, points: 40 }, merged: { id: b.customerId, orders: 2, points: 125 } });
    expect(preview.body.result.moves).toMatchObject({ orders: 2, customer_notes: 1, uploads: 1, reviews: 1 });
    expect(await picture(getDb())).toEqual(before);

    const res = await merge(a.customerId, b.customerId);
    expect(res.status).toBe(200);
    const m = res.body.result;
    expect(m).toMatchObject({ survivor: { id: a.customerId }, merged: { id: b.customerId }, merged_by: `manager ${tag}`, can_undo: true, undone_at: null });
    expect(m.moved).toMatchObject({ orders: 2 });

    // Nothing points at the merged profile; no orphans anywhere.
    expect(await refsTo(getDb(), b.customerId)).toEqual([]);
    expect(await orphans(getDb())).toEqual([]);
    const p = await profile(a.customerId);
    expect(p.orders.count).toBe(3);
    expect(p.loyalty.balance).toBe(165);
    expect(p.loyalty.tier_spend_cents).toBeGreaterThan(tierBefore.tier_spend_cents);
    expect(p.verification.id_status).toBe('verified');
    expect(p.verification.documents).toHaveLength(1);
    expect(p.notes.map((n: { text: string }) => n.text)).toContain('Same person as Mira S.');
    // One review per product: A's stays, B's other review moved.
    expect(p.reviews).toHaveLength(2);
    expect(p.merges.map((x: { id: number }) => x.id)).toEqual([m.id]);
    // A merge never widens consent: A had withdrawn SMS marketing; B's later grant does not switch it on.
    const sms = p.consents.current.find((c: { channel: string; purpose: string }) => c.channel === 'sms' && c.purpose === 'marketing');
    expect(sms.state).toBe('withdrawn');
    // …and as a message reads it at send time.
    const asked = { storeId: 1, customerId: a.customerId, contact: p.phone, channel: 'sms' as const, now: h.clock.now, timeZone: 'America/Los_Angeles' };
    expect(await mayMessage(db, { ...asked, purpose: 'marketing' })).toMatchObject({ send: false, reason: 'withdrawn' });
    expect(p.consents.current.find((c: { channel: string; purpose: string }) => c.channel === 'email' && c.purpose === 'transactional').state).toBe('withdrawn');
    // No one votes for their own review: B's vote on A's review went, and its count with it.
    const selfVotes = await db.selectFrom('review_votes').innerJoin('reviews', 'reviews.id', 'review_votes.review_id').select('review_votes.review_id').whereRef('reviews.customer_id', '=', 'review_votes.customer_id').execute();
    expect(selfVotes).toEqual([]);
    expect((await db.selectFrom('reviews').select('helpful_count').where('id', '=', ra.id).executeTakeFirstOrThrow()).helpful_count).toBe(0);
    // The loyalty history sums to the balance; one bonus per profile.
    const ledger = await db.selectFrom('loyalty_ledger').select(['kind', 'points']).where('customer_id', '=', a.customerId).execute();
    expect(ledger.reduce((s, r) => s + Number(r.points), 0)).toBe(165);
    expect(ledger.filter((r) => r.kind === 'bonus')).toHaveLength(1);
    // The merged profile's page says where it went; its sessions ended; its phone logs into the survivor.
    const gone = await profile(b.customerId);
    expect(gone.merged_into).toEqual({ id: a.customerId, name: `Mira Survivor${tag}`, merge_id: m.id });
    expect((await h.app.inject({ method: 'GET', url: '/api/user/me', headers: { host: 'downtown.localhost', authorization: `Bearer ${b.token}` } })).statusCode).toBe(401);
    expect((await loginCustomer(h.app, b.phone)).customerId).toBe(a.customerId);
    // The purchase-limit window reads orders by customer: the survivor's now holds all three.
    const counted = await db.selectFrom('orders').select('id').where('customer_id', '=', a.customerId).execute();
    expect(counted.map((o) => o.id).sort()).toEqual([aOrder.id, o1.id, o2.id].sort());
    // Repeating the merge answers the same merge.
    const again = await merge(a.customerId, b.customerId);
    expect(again.status).toBe(200);
    expect(again.body.result.id).toBe(m.id);

    const undone = await undo(m.id);
    expect(undone.status).toBe(200);
    expect(undone.body.result).toMatchObject({ id: m.id, can_undo: false, undone_by: `manager ${tag}` });
    // The login above made a new session on A: drop it, then every row is as before the merge.
    await db.deleteFrom('refresh_tokens').where('customer_id', '=', a.customerId).where('id', '>', lastToken).execute();
    const after = await picture(getDb());
    // The login code sent meanwhile is the only addition (a code and its text); every other table is as it was.
    for (const table of Object.keys(before)) {
      if (table === 'auth_codes' || table === 'message_deliveries') expect(after[table].filter((r) => !before[table].includes(r)).length).toBeLessThanOrEqual(1);
      else expect({ table, rows: after[table] }).toEqual({ table, rows: before[table] });
    }
    expect(await orphans(getDb())).toEqual([]);
    expect((await profile(a.customerId)).loyalty).toEqual(tierBefore);
    expect((await profile(b.customerId)).merged_into).toBeNull();
    expect((await undo(m.id)).body.result.undone_at).toBe(undone.body.result.undone_at);
  });

  it('refuses the clear cases, and undo after 24 hours', async () => {
    const a = await person('Ref', `Usal${tag}`);
    const b = await person('Ref', `Other${tag}`);
    const same = await merge(a.customerId, a.customerId);
    expect(same).toMatchObject({ status: 400, body: { errorCode: 'merge_same_profile' } });
    const iso = h.clock.now.toISOString();
    const other = await h.db.insertInto('customers').values(customerRow({ store_id: 2, phone: '+19165559876', email: null, firstname: 'X', lastname: 'Y' }, iso)).returning('id').executeTakeFirstOrThrow();
    expect((await merge(a.customerId, other.id)).body.errorCode).toBe('merge_other_store');
    expect((await merge(other.id, a.customerId)).status).toBe(404);
    expect((await merge(a.customerId, b.customerId, budtender)).status).toBe(403);
    const open = await h.place({ token: b.token });
    expect((await merge(a.customerId, b.customerId)).body).toMatchObject({ errorCode: 'merge_open_order' });
    expect((await h.get(`${BASE}/${a.customerId}/merge-preview?merged=${b.customerId}`, manager)).body.result.refusal).toMatch(/open order/);
    await h.setStatus(open.id, 'cancelled');
    const done = await merge(a.customerId, b.customerId);
    expect(done.status).toBe(200);
    // The merged profile owns nothing: a note goes on the survivor; its still-valid access token shops as the survivor.
    expect((await h.console('POST', `${BASE}/${b.customerId}/notes`, { text: 'Hi' }, manager)).body.errorCode).toBe('customer_merged');
    expect((await profile(b.customerId)).can_note).toBe(false);
    const stale = await h.place({ token: b.token });
    expect((await h.db.selectFrom('orders').select('customer_id').where('id', '=', stale.id).executeTakeFirstOrThrow()).customer_id).toBe(a.customerId);
    await h.setStatus(stale.id, 'cancelled');
    const c = await person('Ref', `Third${tag}`);
    expect((await merge(c.customerId, b.customerId)).body.errorCode).toBe('merge_already_merged');
    expect((await merge(b.customerId, c.customerId)).body.errorCode).toBe('merge_survivor_merged');
    expect((await merge(a.customerId, c.customerId, manager)).status).toBe(200);
    // A profile with others merged into it goes into a fourth: they follow it there, and nothing names it.
    const d = await person('Ref', `Fourth${tag}`);
    const chain = await merge(d.customerId, a.customerId);
    expect(chain.status).toBe(200);
    expect(chain.body.result.moved).toMatchObject({ customers: 2 });
    expect(await refsTo(getDb(), a.customerId)).toEqual([]);
    expect((await loginCustomer(h.app, b.phone)).customerId).toBe(d.customerId);
    expect((await undo(chain.body.result.id)).status).toBe(200);
    const back = await h.db.selectFrom('customers').select(['id', 'merged_into']).where('id', 'in', [b.customerId, c.customerId, a.customerId]).orderBy('id').execute();
    expect(back.map((r) => r.merged_into)).toEqual([null, a.customerId, a.customerId]);
    const later = new Date(h.clock.now.getTime() + 25 * 3_600_000).toISOString();
    const saved = h.clock.now.toISOString();
    await h.at(later);
    manager = await loginStaff(h.app, `manager-${tag}@merge.test`, { ip: '10.232.0.3' });
    const late = await undo(done.body.result.id);
    expect(late).toMatchObject({ status: 409, body: { errorCode: 'merge_undo_expired' } });
    expect(late.body.result).toMatch(/24 hours/);
    await h.at(saved);
    manager = await loginStaff(h.app, `manager-${tag}@merge.test`, { ip: '10.232.0.4' });
  });

  it('keeps one consistent state under bursts: the same merge twice and the reverse at once, then undo twice and a merge at once', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await person('Burst', `A${round}${tag}`);
      const b = await person('Burst', `B${round}${tag}`);
      await h.place({ token: b.token }).then((o) => h.setStatus(o.id, 'completed'));
      const results = await Promise.all([merge(a.customerId, b.customerId), merge(a.customerId, b.customerId), merge(b.customerId, a.customerId)]);
      expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
      const standing = await h.db.selectFrom('customer_merges').selectAll().where('undone_at', 'is', null).where((eb) => eb.or([eb('merged_id', 'in', [a.customerId, b.customerId])])).execute();
      expect(standing).toHaveLength(1);
      const [s] = standing;
      const ok = results.filter((r) => r.status === 200);
      expect(new Set(ok.map((r) => r.body.result.id))).toEqual(new Set([s.id]));
      expect(await refsTo(getDb(), s.merged_id)).toEqual([]);
      const rows = await h.db.selectFrom('customers').select(['id', 'merged_into']).where('id', 'in', [a.customerId, b.customerId]).execute();
      expect(rows.find((r) => r.id === s.merged_id)!.merged_into).toBe(s.survivor_id);
      expect(rows.find((r) => r.id === s.survivor_id)!.merged_into).toBeNull();

      const second = await Promise.all([undo(s.id), undo(s.id), merge(s.survivor_id, s.merged_id)]);
      expect(second.every((r) => r.status === 200 || r.status === 409)).toBe(true);
      const merges = await h.db.selectFrom('customer_merges').selectAll().where('merged_id', '=', s.merged_id).where('undone_at', 'is', null).execute();
      expect(merges.length).toBeLessThanOrEqual(1);
      const mergedRow = await h.db.selectFrom('customers').select('merged_into').where('id', '=', s.merged_id).executeTakeFirstOrThrow();
      expect(mergedRow.merged_into).toBe(merges.length ? s.survivor_id : null);
      expect(await refsTo(getDb(), merges.length ? s.merged_id : -1)).toEqual([]);
      const orders = await h.db.selectFrom('orders').select('customer_id').where('customer_id', 'in', [a.customerId, b.customerId]).execute();
      expect(orders.every((o) => o.customer_id === (merges.length ? s.survivor_id : b.customerId))).toBe(true);
      expect(await orphans(getDb())).toEqual([]);
    }
  });

  it('deleting the survivor deletes the profile merged into it: nothing of either is left', async () => {
    const a = await person('Del', `Survivor${tag}`);
    const b = await person('Del', `Merged${tag}`);
    await h.db.updateTable('customers').set({ email: `del-${tag}@merge.test` }).where('id', '=', b.customerId).execute();
    await h.place({ token: b.token }).then((o) => h.setStatus(o.id, 'completed'));
    expect((await merge(a.customerId, b.customerId)).status).toBe(200);
    const t = getDb();
    const out = await deleteAccount({ db: h.db as Kysely<Database>, dataDir: t.dataDir, secret: new Uint8Array(32), now: () => h.clock.now }, 1, a.customerId);
    expect(out).toMatchObject({ deleted: true, orders_kept: 1 });
    expect(await h.db.selectFrom('customers').select('id').where('id', 'in', [a.customerId, b.customerId]).execute()).toEqual([]);
    expect(await h.db.selectFrom('customer_merges').select('id').where((eb) => eb.or([eb('merged_id', '=', b.customerId), eb('survivor_id', '=', a.customerId)])).execute()).toEqual([]);
    expect(await refsTo(t, a.customerId)).toEqual([]);
    expect(await refsTo(t, b.customerId)).toEqual([]);
    expect(await orphans(t)).toEqual([]);
    // No text anywhere in the personal tables still carries either phone or the e-mail.
    const text = JSON.stringify(await picture(t));
    for (const needle of [a.phone.replace(/\D/g, ''), b.phone.replace(/\D/g, ''), `del-${tag}@merge.test`]) expect(text).not.toContain(needle);
  });

  it("counts both profiles' orders in the purchase-limit window once merged, and only its own again after undo", async () => {
    const actor = { type: 'cli' as const, name: 'merge test' };
    const settings = h.app.storeSettings!;
    const kept = await settings.get(1, LIMITS);
    await settings.save(1, LIMITS, { preset: 'CA', model: LIMIT_PRESETS.CA.model, licence_holder: 'Verdant Holdings' }, kept.version, actor);
    try {
      const a = await person('Lim', `Survivor${tag}`);
      const b = await person('Lim', `Merged${tag}`);
      // 28.5 g of flower a day: B bought 24.5 g (7 eighths) today, A 3.5 g.
      await h.place({ token: b.token, sku: EIGHTH, qty: 7 }).then((o) => h.setStatus(o.id, 'completed'));
      await h.place({ token: a.token, sku: EIGHTH, qty: 1 }).then((o) => h.setStatus(o.id, 'completed'));
      const m = await merge(a.customerId, b.customerId);
      expect(m.status).toBe(200);
      // One more eighth makes 31.5 g for the one person: refused.
      await expect(h.place({ token: a.token, sku: EIGHTH, qty: 1 })).rejects.toThrow(/flower limit of 28\.5 g per day/);
      expect((await undo(m.body.result.id)).status).toBe(200);
      // Undone: A's own 3.5 g only, so the eighth goes through.
      const ok = await h.place({ token: a.token, sku: EIGHTH, qty: 1 });
      await h.setStatus(ok.id, 'completed');
    } finally {
      const now = await settings.get(1, LIMITS);
      await settings.save(1, LIMITS, kept.value, now.version, actor);
    }
  });
});
