/**
 * The shopper's data rights (issue 31), on both databases: two customers with data in every table
 * the registry knows; the export of one holds all of theirs and nothing of the other; deleting one
 * leaves none of their name, phone, e-mail, address or upload path in any text column of any table
 * (schema introspection) except in what the registry keeps, which is anonymised; no row points at
 * a deleted row; the other customer is untouched; a burst of deletes deletes once.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { unzipSync, strFromU8 } from 'fflate';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Shopper, bearer, commerceApp, loginCustomer, orderBody, pin } from '../../test-support/cart/testing.ts';
import { describeEachDatabase, ownTables, type TestDatabase } from '../../test-support/databases.ts';
import { PERSONAL_DATA } from './personal-data.ts';
import { mergeCustomers } from '../customers/merge.ts';
import { customerRow } from '../../test-support/customers/rows.ts';

const HOST = 'downtown.localhost';
const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);

interface Person {
  token: string;
  id: number;
  phone: string;
  e164: string;
  first: string;
  last: string;
  email: string;
  street: string;
  uploadPath: string;
  orderIds: number[];
}

function upload(app: FastifyInstance, token: string) {
  const boundary = 'RBOUNDARY';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="my-licence.png"\r\nContent-Type: image/png\r\n\r\n`),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app.inject({ method: 'POST', url: '/api/user/upload?kind=id', headers: { host: HOST, ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
}

/** A customer with rows in every table the registry exports or erases. */
async function person(app: FastifyInstance, t: TestDatabase, tag: string, digits: string): Promise<Person> {
  const { db } = t;
  const { token, customerId: id } = await loginCustomer(app, digits);
  const first = `Quillon${tag}`;
  const last = `Marrowby${tag}`;
  const email = `quill.${tag.toLowerCase()}@example.org`;
  const street = `${tag}77 Hollyhock Lane`;
  const me = await app.inject({
    method: 'POST',
    url: '/api/user/me',
    headers: { host: HOST, ...bearer(token) },
    payload: { firstname: first, lastname: last, email, addresses: [{ title: 'Home', street, city: 'Sacramento', postcode: '95814', phone: digits }] },
  });
  expect(me.statusCode, me.body).toBe(200);
  expect((await upload(app, token)).statusCode).toBe(200);
  const { e164, store_id } = await db.selectFrom('customers').select(['phone as e164', 'store_id']).where('id', '=', id).executeTakeFirstOrThrow();
  const uploadPath = (await db.selectFrom('uploads').select('stored_path').where('customer_id', '=', id).executeTakeFirstOrThrow()).stored_path;

  const shopper = new Shopper(app);
  await shopper.createCart();
  const added = await shopper.update({ sku: JAR, qty: 1 });
  expect(added.status, JSON.stringify(added.result)).toBe(200);
  await db.updateTable('carts').set({ customer_id: id, delivery_zip: '95814' }).where('token', '=', shopper.token).execute();
  const orderIds: number[] = [];
  for (let i = 0; i < 2; i++) {
    const saved = await shopper.saveOrder(
      orderBody({ products: [{ sku: JAR, qty: 1 }], personal_details: { firstName: first, lastName: last, emailAddress: email, phone: digits } }),
      bearer(token),
    );
    expect(saved.status, JSON.stringify(saved.result)).toBe(200);
    const order = await db.selectFrom('orders').select('id').where('customer_id', '=', id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    orderIds.push(order.id);
  }
  await db.updateTable('orders').set({ status: 'completed' }).where('id', 'in', orderIds).execute();

  const iso = '2026-06-15T12:00:00.000Z';
  const product = await db.selectFrom('products').select('id').where('store_id', '=', store_id).where('sku', '=', JAR).executeTakeFirstOrThrow();
  await db.insertInto('newsletter_subscribers').values({ store_id, email, customer_id: id, subscribed: 1, created_at: iso, updated_at: iso }).execute();
  await db.insertInto('password_reset_tokens').values({ store_id, customer_id: id, token_hash: `h-${tag}`, expires_at: iso, used_at: null, created_at: iso }).execute();
  await db
    .insertInto('order_events')
    .values({ order_id: orderIds[0], store_id, at: iso, actor_type: 'customer', actor_id: id, actor_name: `${first} ${last}`, kind: 'note', from_status: null, to_status: null, data: JSON.stringify({ text: `call ${e164}`, phone: e164 }) })
    .execute();
  await db
    .insertInto('message_deliveries')
    .values({ event_id: `evt_${tag}`, store_id, order_id: orderIds[0], channel: 'sms', recipient: e164, template: 'order_ready', subject: null, body: `Hi ${first}, your order is ready`, status: 'sent', created_at: iso, updated_at: iso, customer_id: id })
    .execute();
  await db.insertInto('consent_events').values({ store_id, customer_id: id, contact: e164, channel: 'sms', purpose: 'marketing', action: 'granted', source: 'stock_alert_account', words: 'Text me', at: iso }).execute();
  await db
    .insertInto('stock_watches')
    .values({ store_id, product_id: product.id, variant_id: null, target_key: `p${product.id}`, customer_id: id, contact: e164, channel: 'sms', subscriber_key: `c${id}`, created_at: iso, removed_at: null, restocked_at: null, notified_at: null, outcome: null })
    .execute();
  const review = await db
    .insertInto('reviews')
    .values({ store_id, product_id: product.id, sku: JAR, customer_id: id, stars: 5, title: `Great says ${first}`, text: 'A sturdy jar.', status: 'approved', created_at: iso, updated_at: iso, moderated_at: null, moderated_by: null, reject_reason: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  // A helpful vote on another shopper's review of the same product (never one's own: a merge takes those away).
  const neighbour = await db
    .insertInto('customers')
    .values(customerRow({ store_id, phone: `+1${digits.slice(0, -1)}7`, email: `neighbour-${tag}@example.net`, firstname: 'Nia', lastname: 'Neighbour' }, iso))
    .returning('id')
    .executeTakeFirstOrThrow();
  const theirReview = await db
    .insertInto('reviews')
    .values({ store_id, product_id: product.id, sku: JAR, customer_id: neighbour.id, stars: 4, title: 'Fine jar', text: 'Holds a lot.', status: 'approved', created_at: iso, updated_at: iso, moderated_at: null, moderated_by: null, reject_reason: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('review_votes').values({ review_id: theirReview.id, customer_id: id, created_at: iso }).execute();
  // The sign-up bonus made the loyalty account already.
  if (!(await db.selectFrom('loyalty_accounts').select('id').where('customer_id', '=', id).executeTakeFirst()))
    await db.insertInto('loyalty_accounts').values({ customer_id: id, store_id, balance: 120, last_purchase_at: iso, bonus_at: iso, reminded_for: null, created_at: iso, updated_at: iso }).execute();
  await db.insertInto('loyalty_ledger').values({ customer_id: id, store_id, order_id: orderIds[0], kind: 'earn', points: 120, balance_after: 120, note: null, created_at: iso }).execute();
  const deal = await db
    .insertInto('deals')
    .values({ store_id, code: `D${tag}`, kind: 'percent', title: 'Deal', status: 'ended', record: '{}', created_at: iso, created_by: 'test', updated_at: iso, updated_by: 'test' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('deal_redemptions').values({ deal_id: deal.id, order_id: orderIds[0], store_id, customer_key: digits, discount_cents: 100, created_at: iso, released_at: null }).execute();
  const driver = await db.insertInto('drivers').values({ store_id, name: 'Dee Driver', employee_number: `E${tag}`, licence_number: `L${tag}`, staff_id: null, created_at: iso, updated_at: iso }).returning('id').executeTakeFirstOrThrow();
  const vehicle = await db.insertInto('vehicles').values({ store_id, make: 'Van', model: 'V', plate: `P${tag}`, created_at: iso, updated_at: iso }).returning('id').executeTakeFirstOrThrow();
  const trip = await db
    .insertInto('trips')
    .values({ store_id, ledger_number: `T${tag}`, driver_id: driver.id, vehicle_id: vehicle.id, status: 'ended', created_by: 'test', started_at: iso, ended_at: iso, goods_cents: null, weight_grams: null, ended_by: null, cash_expected_cents: null, cash_collected_cents: null, end_note: null, created_at: iso, updated_at: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('trip_stops')
    .values({ trip_id: trip.id, order_id: orderIds[1], position: 1, open: null, created_at: iso, outcome: 'delivered', outcome_at: iso, outcome_by: 'Dee Driver', failed_reason: null, failed_note: null, id_document: 'state_id', id_birth_date: '1990-01-01', id_name_matches: 1, id_checked_at: iso, signature_png: `data:image/png;base64,SIG${tag}`, cash_cents: 100, restocked_at: null, near_notified_at: null })
    .execute();
  await db
    .insertInto('driver_actions')
    .values({ store_id, action_id: `a-${tag}`, staff_id: null, device_id: null, trip_id: trip.id, kind: 'deliver', payload: JSON.stringify({ signature_png: `data:image/png;base64,SIG${tag}`, name: `${first} ${last}` }), answer_status: 200, answer: '{}', taken_at: iso, received_at: iso })
    .execute();
  // Issue 31's customer record: a staff note about the shopper (naming them) and a staff view of their ID image.
  await db.insertInto('customer_notes').values({ store_id, customer_id: id, staff_id: null, author_name: 'Olga Owner', text: `Asked for ${first} ${last}'s usual`, created_at: iso }).execute();
  const uploadId = (await db.selectFrom('uploads').select('id').where('customer_id', '=', id).executeTakeFirstOrThrow()).id;
  await db
    .insertInto('document_views')
    .values({ store_id, customer_id: id, upload_id: uploadId, document: 'id', order_id: orderIds[0], staff_id: null, staff_name: 'Olga Owner', staff_role: 'owner', viewed_at: iso })
    .execute();
  // A second profile of the same person, merged into this one (issue 31): the merge record is theirs,
  // and deleting the account deletes that profile too (it still names them).
  const twin = await db
    .insertInto('customers')
    .values(customerRow({ store_id, phone: `+1${digits.slice(0, -1)}9`, email: `twin.${email}`, firstname: first, lastname: last }, iso))
    .returning('id')
    .executeTakeFirstOrThrow();
  await mergeCustomers(db, store_id, id, twin.id, { id: null, name: 'Olga Owner' }, new Date(iso));
  return { token, id, phone: digits, e164, first, last, email, street, uploadPath, orderIds };
}

function exportOf(app: FastifyInstance, token: string) {
  return app.inject({ method: 'GET', url: '/api/user/data-export', headers: { host: HOST, ...bearer(token) } });
}
function deleteOf(app: FastifyInstance, token: string, payload: unknown = { confirm: true }) {
  return app.inject({ method: 'POST', url: '/api/user/delete', headers: { host: HOST, ...bearer(token) }, payload: payload as object });
}

/** Every text cell of every table (from the live schema) that contains one of the needles: `table.column = value`. */
async function scan(t: TestDatabase, needles: string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const table of await ownTables(t)) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(t.db)).rows;
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (typeof value !== 'string') continue;
        for (const n of needles) if (value.toLowerCase().includes(n.toLowerCase())) hits.push(`${table.name}.${column}: ${n}`);
      }
    }
  }
  return [...new Set(hits)].sort();
}

const needlesOf = (p: Person) => [p.first, p.last, p.email, p.e164, p.phone, p.street, p.uploadPath, `SIG${p.first.slice(-1)}`];

describeEachDatabase('data rights: export and deletion', (getDb) => {
  let app: FastifyInstance;
  let a: Person;
  let b: Person;
  beforeAll(async () => {
    const t = getDb();
    app = await commerceApp(t);
    await pin(t.db, 1, JAR, { stock: 100, price: 1000 });
    a = await person(app, t, 'A', '9165550611');
    b = await person(app, t, 'B', '9165550622');
  });
  afterAll(async () => app?.close());

  it("exports all of the customer's data from every registry table and nothing of another customer", async () => {
    const res = await exportOf(app, a.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="my-data-.+\.zip"$/);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const data = JSON.parse(strFromU8(files['data.json']));
    expect(data.format).toBe('verdant-personal-data/1');
    const exported = Object.entries(PERSONAL_DATA).filter(([, r]) => r.export).map(([table]) => table);
    for (const table of exported) expect(data.tables[table]?.length, `${table} has the customer's rows`).toBeGreaterThan(0);
    for (const table of exported) expect(Object.keys(files)).toContain(`csv/${table}.csv`);
    const all = Object.values(files).map((f) => strFromU8(f, true)).join('\n');
    for (const n of [a.first, a.email, a.street, a.e164]) expect(all).toContain(n);
    for (const n of [b.first, b.last, b.email, b.street, b.e164]) expect(all).not.toContain(n);
    expect(data.tables.customers[0]).not.toHaveProperty('password_hash');
    expect(data.uploads).toHaveLength(1);
    expect(Buffer.from(files[data.uploads[0].file]).equals(PNG)).toBe(true);
  });

  it('deletes once under a burst, leaves no personal data but the anonymised sales records, and no orphan', async () => {
    const t = getDb();
    expect(await scan(t, needlesOf(a))).not.toEqual([]);
    // Nothing deleted without the confirmation.
    expect((await deleteOf(app, a.token, {})).statusCode).toBe(400);

    const answers = await Promise.all(Array.from({ length: 8 }, () => deleteOf(app, a.token)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const results = answers.map((r) => r.json().result);
    expect(results.filter((r) => r.deleted)).toHaveLength(1);
    expect(results.find((r) => r.deleted)).toEqual({ deleted: true, orders_kept: 2, retention_years: 7 });
    expect(await t.db.selectFrom('data_deletions').selectAll().execute()).toHaveLength(1);

    // Not a single text cell anywhere names A.
    expect(await scan(t, needlesOf(a))).toEqual([]);
    // B is untouched.
    expect((await scan(t, needlesOf(b))).length).toBeGreaterThan(5);
    expect(existsSync(path.join(t.dataDir, a.uploadPath))).toBe(false);
    expect(existsSync(path.join(t.dataDir, b.uploadPath))).toBe(true);

    // Sales records kept: the orders and their lines, without who bought.
    const orders = await t.db.selectFrom('orders').selectAll().where('id', 'in', a.orderIds).execute();
    expect(orders).toHaveLength(2);
    for (const o of orders) {
      expect(o.customer_id).toBeNull();
      expect(o.birthday).toBeNull();
      expect(JSON.parse(o.personal_details)).toMatchObject({ firstName: 'Deleted', lastName: 'customer', phone: '', email: '' });
      expect(o.total_cents).toBeGreaterThan(0);
    }
    expect(await t.db.selectFrom('order_items').select('id').where('order_id', 'in', a.orderIds).execute()).toHaveLength(2);
    const stop = await t.db.selectFrom('trip_stops').selectAll().where('order_id', '=', a.orderIds[1]).executeTakeFirstOrThrow();
    expect([stop.signature_png, stop.id_birth_date, stop.outcome, stop.id_document]).toEqual([null, null, 'delivered', 'state_id']);
    // The consent ledger: rows kept, contact pseudonymised, ended by a withdrawal.
    const consent = await t.db.selectFrom('consent_events').selectAll().where('customer_id', 'is', null).orderBy('id').execute();
    expect(consent.map((c) => [c.action, c.source])).toEqual([
      ['granted', 'stock_alert_account'],
      ['withdrawn', 'account_deleted'],
    ]);
    expect(consent[0].contact).toMatch(/^hmac:[0-9a-f]{32}$/);
    expect(consent[1].contact).toBe(consent[0].contact);

    // No orphan: nothing points at a row that is gone.
    const orphans: string[] = [];
    const parents: Record<string, string> = { customer_id: 'customers', cart_id: 'carts', order_id: 'orders', review_id: 'reviews', trip_id: 'trips' };
    for (const table of await ownTables(t)) {
      for (const col of table.columns) {
        const parent = parents[col.name];
        if (!parent || parent === table.name) continue;
        const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table.name)} c where c.${sql.ref(col.name)} is not null and not exists (select 1 from ${sql.table(parent)} p where p.id = c.${sql.ref(col.name)})`.execute(t.db);
        if (Number(r.rows[0].n) > 0) orphans.push(`${table.name}.${col.name}`);
      }
    }
    expect(orphans).toEqual([]);

    // Sessions ended: the token reads nothing; the route answers "already deleted" again.
    expect((await app.inject({ method: 'GET', url: '/api/user/me', headers: { host: HOST, ...bearer(a.token) } })).statusCode).toBe(401);
    expect((await deleteOf(app, a.token)).json().result.deleted).toBe(false);
    expect((await exportOf(app, a.token)).statusCode).toBe(401);

    // The same phone logs in again as a new, empty account.
    const again = await loginCustomer(app, a.phone);
    expect(again.customerId).not.toBe(a.id);
    const fresh = await app.inject({ method: 'GET', url: '/api/user/order-history', headers: { host: HOST, ...bearer(again.token) } });
    expect(fresh.json().result.items ?? fresh.json().result.orders ?? []).toEqual([]);
  });

  it('refuses while an order is open and deletes nothing', async () => {
    const t = getDb();
    await t.db.updateTable('orders').set({ status: 'submitted' }).where('id', '=', b.orderIds[0]).execute();
    const res = await deleteOf(app, b.token);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ errorCode: 'open_orders' });
    expect(await t.db.selectFrom('customers').select('id').where('id', '=', b.id).execute()).toHaveLength(1);
    expect(await t.db.selectFrom('uploads').select('id').where('customer_id', '=', b.id).execute()).toHaveLength(1);
  });
});
