/**
 * Issue 31 customer records, both databases, through the real routes: the directory finds a
 * customer by name (first, last, "first last", any case), e-mail (prefix, any case) and phone in
 * any spelling; pages hold 20; another store's customer is neither found nor opened (404); the
 * profile carries orders, spend, points and tier, verification, consents, notes and reviews for a
 * manager, and the counter view (phone masked, no spend, consents or notes) for a budtender; a
 * budtender cannot write a note, a driver cannot look anyone up; 25 parallel notes are all kept.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { loginCustomer } from '../../test-support/cart/testing.ts';
import { lifecycleHarness, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { planSearch, prefixEnd } from './directory.ts';
import { customerRow } from '../../test-support/customers/rows.ts';

const BASE = '/api/console/stores/1/customers';

it('reads a search as a phone, an e-mail or a name', () => {
  expect(planSearch('')).toEqual({ matched_by: 'all' });
  for (const typed of ['916-555-0142', '(916) 555 0142', '+1 916 555 0142', '9165550142', '1.916.555.0142'])
    expect(planSearch(typed)).toEqual({ matched_by: 'phone', phone: '+19165550142' });
  expect(planSearch('Jane.Doe@Ex')).toEqual({ matched_by: 'email', email: 'jane.doe@ex' });
  expect(planSearch('  Jane   DOE ')).toEqual({ matched_by: 'name', words: ['jane', 'doe'] });
  // Too few digits for a number: read as a name (finds nobody), never as a phone.
  expect(planSearch('0142').matched_by).toBe('name');
  expect(prefixEnd('jan')).toBe('jao');
  expect(prefixEnd('zé')).toBe('zê');
  expect(prefixEnd('a\u{10FFFF}')).toBe('b');
});

describeEachDatabase('customer records', (getDb) => {
  let h: LifecycleHarness;
  let manager: StaffTestSession;
  let budtender: StaffTestSession;
  let driver: StaffTestSession;
  let jane: { token: string; customerId: number };
  let otherStore: number;
  const tag = `${process.pid}${Date.now() % 100000}`;

  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    const db = h.db;
    for (const role of ['manager', 'budtender', 'driver'] as const) await addStaff(db, { email: `${role}-${tag}@customers.test`, role, storeIds: [1], name: `${role} ${tag}` });
    manager = await loginStaff(h.app, `manager-${tag}@customers.test`, { ip: '10.231.0.1' });
    budtender = await loginStaff(h.app, `budtender-${tag}@customers.test`, { ip: '10.231.0.2' });
    driver = await loginStaff(h.app, `driver-${tag}@customers.test`, { ip: '10.231.0.3' });
    jane = await loginCustomer(h.app, '(916) 555-0142');
    await db.updateTable('customers').set({ firstname: 'Zelda', lastname: 'Quillfeather', email: 'zelda.quill@customers.test' }).where('id', '=', jane.customerId).execute();
    const janet = await loginCustomer(h.app, '(916) 555-0143');
    await db.updateTable('customers').set({ firstname: 'Zeldana', lastname: 'Ray', email: 'zr@customers.test' }).where('id', '=', janet.customerId).execute();
    // Another store's customer with the same name and number.
    const iso = h.clock.now.toISOString();
    const other = await db
      .insertInto('customers')
      .values(customerRow({ store_id: 2, phone: '+19165550144', email: 'zelda.other@customers.test', firstname: 'Zelda', lastname: 'Quillfeather' }, iso))
      .returning('id')
      .executeTakeFirstOrThrow();
    otherStore = other.id;
  });
  afterAll(async () => h?.app.close());

  const get = (url: string, session: StaffTestSession) => h.get(url, session);
  const search = async (q: string, session = manager, page = 1) => {
    const res = await get(`${BASE}?q=${encodeURIComponent(q)}&page=${page}`, session);
    expect(res.status).toBe(200);
    return res.body.result;
  };
  const names = async (q: string) => ((await search(q)).items as { name: string }[]).map((i) => i.name);

  it('finds a customer by first name, last name, "first last", e-mail and a phone in any spelling; not another store\'s', async () => {
    expect(await names('zeld')).toEqual(['Zelda Quillfeather', 'Zeldana Ray']);
    expect(await names('QUILLF')).toEqual(['Zelda Quillfeather']);
    expect(await names('zelda quill')).toEqual(['Zelda Quillfeather']);
    expect(await names('Zelda.Quill@CUSTOMERS')).toEqual(['Zelda Quillfeather']);
    expect((await search('zelda.quill@')).matched_by).toBe('email');
    for (const typed of ['916-555-0142', '(916) 555 0142', '+1 916 555 0142', '9165550142']) {
      const found = await search(typed);
      expect(found.matched_by).toBe('phone');
      expect(found.items.map((i: { id: number }) => i.id)).toEqual([jane.customerId]);
    }
    // Store 2's Zelda: same name, her number — not in store 1's directory.
    expect((await search('916-555-0144')).items).toEqual([]);
    expect((await names('zelda q')).length).toBe(1);
    // Nothing at all: no error, an empty page.
    expect(await search('qqqqqq-nobody')).toMatchObject({ total: 0, items: [] });
    // Bad input is a 400, never a 500.
    expect((await get(`${BASE}?q=${'x'.repeat(101)}`, manager)).status).toBe(400);
    expect((await get(`${BASE}?page=0`, manager)).status).toBe(400);
    expect((await get(`${BASE}?page=abc`, manager)).status).toBe(400);
    // The last code point there is, and a lone surrogate: an answer, not a 500.
    expect((await get(`${BASE}?q=${encodeURIComponent('z\u{10FFFF}')}`, manager)).status).toBe(200);
    expect((await get(`${BASE}?q=%ED%A0%80`, manager)).status).toBeLessThan(500);
    expect((await get(`${BASE}?q=ab%00c`, manager)).status).toBeLessThan(500);
    expect((await get(`${BASE}?q=ab%00c%40x`, manager)).status).toBeLessThan(500);
  });

  it('pages 20 at a time, in name order, with the total', async () => {
    const iso = h.clock.now.toISOString();
    await h.db
      .insertInto('customers')
      .values(
        Array.from({ length: 45 }, (_, i) =>
          customerRow(
            { store_id: 1, phone: `+1916555${String(7000 + i).padStart(4, '0')}`, email: null, firstname: 'Pat', lastname: `Pagetester${String(i).padStart(2, '0')}` },
            iso,
          ),
        ),
      )
      .execute();
    const first = await search('pagetester');
    expect(first).toMatchObject({ total: 45, page: 1, page_size: 20 });
    expect(first.items.map((i: { name: string }) => i.name).slice(0, 2)).toEqual(['Pat Pagetester00', 'Pat Pagetester01']);
    const third = await search('pagetester', manager, 3);
    expect(third.items.map((i: { name: string }) => i.name)).toEqual(Array.from({ length: 5 }, (_, i) => `Pat Pagetester${40 + i}`));
    // No query: everyone of the store, newest first.
    const all = await search('');
    expect(all.matched_by).toBe('all');
    expect(all.total).toBeGreaterThanOrEqual(47);
    expect(all.items[0].id).toBeGreaterThan(all.items[1].id);
  });

  it('shows a manager the whole profile: orders, spend, points and tier, verification, consents, notes, reviews', async () => {
    const placed = await h.place({ token: jane.token });
    await h.setStatus(placed.id, 'completed');
    const open = await h.place({ token: jane.token });
    await h.db
      .insertInto('consent_events')
      .values([
        { store_id: 1, customer_id: jane.customerId, contact: '+19165550142', channel: 'sms', purpose: 'marketing', action: 'granted', source: 'stock_alert_form', words: 'Text me', at: '2026-01-01T10:00:00.000Z' },
        { store_id: 1, customer_id: null, contact: '+19165550142', channel: 'sms', purpose: 'marketing', action: 'withdrawn', source: 'sms_stop', words: null, at: '2026-01-02T10:00:00.000Z' },
        // Another store's row about the same number does not count here.
        { store_id: 2, customer_id: null, contact: '+19165550142', channel: 'email', purpose: 'marketing', action: 'granted', source: 'x', words: null, at: '2026-01-03T10:00:00.000Z' },
      ])
      .execute();
    const listed = (await search('916 555 0142')).items[0];
    expect(listed).toMatchObject({ phone: '+19165550142', phone_last4: '0142', orders_count: 2 });
    expect(listed.last_order_at).toBeTruthy();

    const res = await get(`${BASE}/${jane.customerId}`, manager);
    expect(res.status).toBe(200);
    const p = res.body.result;
    expect(p).toMatchObject({ id: jane.customerId, name: 'Zelda Quillfeather', phone: '+19165550142', full: true, can_note: true });
    expect(p.orders.count).toBe(2);
    expect(p.orders.recent.map((o: { id: number }) => o.id).sort()).toEqual([placed.id, open.id].sort());
    expect(p.orders.recent[0]).toMatchObject({ item_count: 1 });
    expect(p.spend.completed_count).toBe(1);
    expect(p.spend.total_cents).toBeGreaterThan(0);
    expect(p.loyalty).toMatchObject({ tier: { name: expect.any(String) } });
    expect(typeof p.loyalty.balance).toBe('number');
    expect(p.verification).toMatchObject({ id_status: expect.any(String), documents: [] });
    const smsMarketing = p.consents.current.find((c: { channel: string; purpose: string }) => c.channel === 'sms' && c.purpose === 'marketing');
    expect(smsMarketing).toMatchObject({ state: 'withdrawn', source: 'sms_stop' });
    expect(p.consents.current.find((c: { channel: string; purpose: string }) => c.channel === 'email' && c.purpose === 'marketing').state).toBe('none');
    expect(p.consents.history.map((e: { source: string }) => e.source)).toEqual(['sms_stop', 'stock_alert_form']);
    expect(p.notes).toEqual([]);
    expect(p.reviews).toEqual([]);
  });

  it('gives a budtender the counter view, refuses a budtender\'s note and a driver\'s lookup', async () => {
    const found = await search('zelda quill', budtender);
    expect(found.full).toBe(false);
    expect(found.items[0]).toMatchObject({ phone: null, phone_last4: '0142' });
    expect(JSON.stringify(found)).not.toContain('5550142');
    const res = await get(`${BASE}/${jane.customerId}`, budtender);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ full: false, can_note: false, phone: null, phone_last4: '0142', spend: null, consents: null, notes: null });
    expect(res.body.result.orders.count).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(res.body.result)).not.toContain('+19165550142');
    const refused = await h.console('POST', `${BASE}/${jane.customerId}/notes`, { text: 'Hello' }, budtender);
    expect(refused.status).toBe(403);
    expect((await get(BASE, driver)).status).toBe(403);
    expect((await get(`${BASE}/${jane.customerId}`, driver)).status).toBe(403);
    expect(await h.db.selectFrom('customer_notes').select('id').where('customer_id', '=', jane.customerId).execute()).toEqual([]);
  });

  it('answers 404 for another store\'s customer and for no customer at all', async () => {
    for (const url of [`${BASE}/${otherStore}`, `${BASE}/987654`]) {
      const res = await get(url, manager);
      expect(res.status).toBe(404);
      expect(res.body.errorCode).toBe('customer_not_found');
    }
    const note = await h.console('POST', `${BASE}/${otherStore}/notes`, { text: 'Not ours' }, manager);
    expect(note.status).toBe(404);
    expect(await h.db.selectFrom('customer_notes').select('id').where('customer_id', '=', otherStore).execute()).toEqual([]);
  });

  it('keeps every note of a burst of 25 parallel posts, with author and time, newest first; refuses empty and too long', async () => {
    expect((await h.console('POST', `${BASE}/${jane.customerId}/notes`, { text: '   ' }, manager)).status).toBe(400);
    expect((await h.console('POST', `${BASE}/${jane.customerId}/notes`, { text: 'x'.repeat(2001) }, manager)).status).toBe(400);
    expect((await h.console('POST', `${BASE}/${jane.customerId}/notes`, {}, manager)).status).toBe(400);
    // A NUL (PostgreSQL cannot store one in text): a 4xx, never a 500.
    expect((await h.console('POST', `${BASE}/${jane.customerId}/notes`, { text: 'a\u0000b' }, manager)).status).toBe(400);
    const max = await h.console('POST', `${BASE}/${jane.customerId}/notes`, { text: 'y'.repeat(2000) }, manager);
    expect(max.status).toBe(200);
    const posts = await Promise.all(
      Array.from({ length: 25 }, (_, i) => h.console('POST', `${BASE}/${jane.customerId}/notes`, { text: `  Burst note ${i}  ` }, i % 2 ? manager : h.owner)),
    );
    expect(posts.map((p) => p.status)).toEqual(Array(25).fill(200));
    expect(posts[0].body.result).toMatchObject({ text: 'Burst note 0', author_name: 'Olga Owner', created_at: h.clock.now.toISOString() });
    const rows = await h.db.selectFrom('customer_notes').selectAll().where('customer_id', '=', jane.customerId).execute();
    expect(rows).toHaveLength(26);
    expect(new Set(rows.map((r) => r.text)).size).toBe(26);
    const profile = (await get(`${BASE}/${jane.customerId}`, manager)).body.result;
    expect(profile.notes).toHaveLength(26);
    expect(profile.notes[0].id).toBeGreaterThan(profile.notes[25].id);
    expect(profile.notes.find((n: { text: string }) => n.text === 'Burst note 1').author_name).toBe(`manager ${tag}`);
  });
});
