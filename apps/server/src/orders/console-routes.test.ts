/**
 * The console's order routes, both databases: the queue (newest first, status/type/store-local date
 * filters, search by number, name and phone however typed, keyset pages that neither skip nor
 * repeat, counts per status), the detail (lines, totals, customer age on the order date, history,
 * offered moves), the daily report (completed orders by store-local day, to the cent, JSON and CSV)
 * and the order settings.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatAddress, mapLink } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { loginCustomer } from '../../test-support/cart/testing.ts';
import { EIGHTH, HOUR, JAR, lifecycleHarness, readyIn, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { orderSearchKeys } from './console/search-keys.ts';

const person = (firstName: string, lastName: string, phone: string) => ({
  personal_details: { firstName, lastName, emailAddress: `${firstName.toLowerCase()}@example.com`, phone },
});

describeEachDatabase('console order routes', (getDb) => {
  let h: LifecycleHarness;
  const placed: { id: number; increment_id: string; result: any; name: string }[] = [];
  const list = async (query = '') => h.get(`/api/console/stores/1/orders${query}`);
  let customerOrder = 0;

  const at = (iso: string) => h.at(iso);

  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    // Store-local (America/Los_Angeles, UTC−7 in June) days: 14th, 14th (23:00 local), 15th, 15th, 16th.
    const plan = [
      { at: '2026-06-14T18:00:00.000Z', type: 'pickup' as const, who: person('Ana', 'Reyes', '(916) 555-0101'), sku: JAR, qty: 1 },
      { at: '2026-06-15T06:00:00.000Z', type: 'delivery' as const, who: person('Bob', 'Stone', '916-555-0202'), sku: EIGHTH, qty: 1 },
      { at: '2026-06-15T08:00:00.000Z', type: 'pickup' as const, who: person('Cara', 'Diaz', '9165550303'), sku: JAR, qty: 3 },
      { at: '2026-06-15T20:00:00.000Z', type: 'pickup' as const, who: person('Dan', 'Reyes', '+1 916 555 0404'), sku: EIGHTH, qty: 2 },
      { at: '2026-06-16T17:00:00.000Z', type: 'pickup' as const, who: person('Eve', 'Moss', '916.555.0505'), sku: JAR, qty: 2 },
    ];
    for (const p of plan) {
      await at(p.at);
      const o = await h.place({ type: p.type, sku: p.sku, qty: p.qty, body: p.who });
      placed.push({ ...o, name: `${p.who.personal_details.firstName} ${p.who.personal_details.lastName}` });
    }
    // A logged-in customer's order (birthday 1990-01-01 from loginCustomer).
    await at('2026-06-16T18:00:00.000Z');
    const c = await loginCustomer(h.app, '9165550606');
    const o = await h.place({ token: c.token, body: person('Fay', 'Lane', '(916) 555-0606') });
    placed.push({ ...o, name: 'Fay Lane' });
    customerOrder = o.id;
  });
  afterAll(async () => h?.app.close());

  it('lists the store’s orders newest first with their summary and counts per status', async () => {
    const r = await list();
    expect(r.status).toBe(200);
    const { items, nextCursor, counts } = r.body.result;
    expect(items.map((i: { id: number }) => i.id)).toEqual(placed.map((p) => p.id).reverse());
    expect(nextCursor).toBeNull();
    expect(counts).toEqual({
      submitted: 6,
      confirmed: 0,
      ready_for_pickup: 0,
      out_for_delivery: 0,
      completed: 0,
      cancelled: 0,
      no_show: 0,
    });
    const bob = items.find((i: { id: number }) => i.id === placed[1].id);
    expect(bob).toEqual({
      id: placed[1].id,
      increment_id: placed[1].increment_id,
      status: 'submitted',
      order_type: 'delivery',
      license_type: 'recreational',
      created_at: '2026-06-15T06:00:00.000Z',
      ready_by: null,
      // Placed at 11 PM (store zone), outside hours: taken for the first delivery slot on Monday 9 AM (issue 14, store setting `hours`).
      slot_start: '2026-06-15T16:00:00.000Z',
      slot_end: '2026-06-15T17:00:00.000Z',
      // The whole address (issue 26), with the server's ZIP and distance.
      shipping_address: { city: 'Sacramento', zip: '95814', address: '900 J St', apt_ste: '2B', distance: expect.any(Number) },
      // Nobody opened it yet: "New" in the console (issue 26).
      opened_at: null,
      // No curbside arrival (issue 29).
      curbside: null,
      customer_name: 'Bob Stone',
      phone: '916-555-0202',
      total_cents: placed[1].result.total,
      item_count: 1,
      // A guest's delivery order is not held (no account, nothing to review): the ID is checked at the door.
      hold: [],
      version: 1,
    });
    expect(items.find((i: { id: number }) => i.id === placed[2].id).item_count).toBe(3);
  });

  it('gives a delivery order’s whole address (street, apartment, city, ZIP) in the queue and the detail (issue 26)', async () => {
    const bob = placed[1];
    const row = (await list()).body.result.items.find((i: { id: number }) => i.id === bob.id);
    expect(row.order_type).toBe('delivery');
    expect(formatAddress(row.shipping_address)).toBe('900 J St, Apt 2B, Sacramento 95814');
    const detail = (await h.get(`/api/console/stores/1/orders/${bob.id}`)).body.result;
    expect(formatAddress(detail.shipping_address)).toBe('900 J St, Apt 2B, Sacramento 95814');
    expect(mapLink(detail.shipping_address)).toBe('https://www.google.com/maps/search/?api=1&query=900%20J%20St%2C%20Sacramento%2095814');
    // A pickup order has none.
    expect((await list()).body.result.items.find((i: { id: number }) => i.id === placed[0].id).shipping_address).toBeNull();
  });

  it('filters by status, type and store-local dates; searches number, name and phone however typed', async () => {
    const ids = async (query: string) => (await list(query)).body.result.items.map((i: { id: number }) => i.id);
    await at('2026-06-16T19:00:00.000Z');
    expect((await h.move(placed[0].id, { action: 'confirm', readyBy: readyIn(h.clock, 1) })).status).toBe(200);
    expect((await h.move(placed[2].id, { action: 'cancel', reason: 'sold_out' })).status).toBe(200);
    expect(await ids('?status=confirmed,cancelled')).toEqual([placed[2].id, placed[0].id]);
    expect((await list('?status=confirmed,cancelled')).body.result.counts).toMatchObject({ submitted: 4, confirmed: 1, cancelled: 1 });
    expect(await ids('?type=delivery')).toEqual([placed[1].id]);
    expect((await list('?type=delivery')).body.result.counts).toMatchObject({ submitted: 1, confirmed: 0 });
    // 06:00Z on the 15th is 23:00 on the 14th in Sacramento.
    expect(await ids('?from=2026-06-14&to=2026-06-14')).toEqual([placed[1].id, placed[0].id]);
    expect(await ids('?from=2026-06-15&to=2026-06-15')).toEqual([placed[3].id, placed[2].id]);
    expect(await ids('?from=2026-06-16')).toEqual([placed[5].id, placed[4].id]);
    expect(await ids(`?q=${placed[3].increment_id}`)).toEqual([placed[3].id]);
    expect(await ids(`?q=${placed[3].increment_id.toLowerCase()}`)).toEqual([placed[3].id]);
    expect(await ids('?q=reyes')).toEqual([placed[3].id, placed[0].id]);
    expect(await ids('?q=' + encodeURIComponent('Dan Reyes'))).toEqual([placed[3].id]);
    for (const phone of ['9165550202', '(916) 555-0202', '+1 916 555 0202', '555-0202'])
      expect(await ids('?q=' + encodeURIComponent(phone)), phone).toEqual([placed[1].id]);
    expect(await ids('?q=nobody')).toEqual([]);
    expect(await ids('?q=' + encodeURIComponent('%'))).toHaveLength(6);
    for (const bad of ['?status=lost', '?type=boat', '?from=2026-13-01', '?limit=0', '?cursor=bm9wZQ']) {
      expect((await list(bad)).body, bad).toMatchObject({ code: 400 });
    }
  });

  it('pages with a cursor that neither skips nor repeats, even across equal times', async () => {
    // Two more orders in the same millisecond as another: the id breaks the tie.
    await at('2026-06-16T17:00:00.000Z');
    const twins = [await h.place(), await h.place()];
    const all = (await list('?limit=200')).body.result.items.map((i: { id: number }) => i.id);
    expect(all).toHaveLength(8);
    expect(all).toEqual(expect.arrayContaining(twins.map((t) => t.id)));
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await list(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...r.body.result.items.map((i: { id: number }) => i.id));
      cursor = r.body.result.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(all);
  });

  it('shows an order’s detail: lines, totals, customer with age on the order date, history and moves', async () => {
    const r = await h.get(`/api/console/stores/1/orders/${customerOrder}`);
    expect(r.status).toBe(200);
    const d = r.body.result;
    const o = placed.find((p) => p.id === customerOrder)!.result;
    expect(d).toMatchObject({
      id: customerOrder,
      status: 'submitted',
      items: [{ sku: JAR, qty: 1, price_cents: 2699, row_total_cents: 2699 }],
      totals: {
        subtotal: o.subtotal,
        discount: o.discount,
        excise_taxes: o.excise_taxes,
        sales_taxes: o.sales_taxes,
        shipping: o.shipping,
        total: o.total,
        credits_used: 0,
      },
      // Earned when the order is completed (issue 30).
      points: { used: 0, earned: 0 },
      customer: {
        name: 'Fay Lane',
        phone: '(916) 555-0606',
        email: 'fay@example.com',
        birthday: '1990-01-01',
        age_on_order_date: 36,
        id_status: 'none',
      },
      uploads: [],
      hold: [],
      history: [{ kind: 'placed', actor_type: 'customer', actor_name: 'Fay Lane', to_status: 'submitted' }],
      actions: [
        { action: 'confirm', to: 'confirmed', blockedBy: null },
        { action: 'cancel', to: 'cancelled', blockedBy: null },
      ],
    });
    expect(d.items[0]).toEqual({
      sku: JAR,
      name: expect.any(String),
      qty: 1,
      size: null,
      uom: expect.any(String),
      price_cents: 2699,
      row_total_cents: 2699,
      discount_cents: 0,
      // No deal touched the jar (issue 28).
      deal_discount_cents: 0,
      deals: [],
      excise_tax_cents: expect.any(Number),
      sales_tax_cents: expect.any(Number),
      thc_equivalent_grams: 0,
    });
    expect((await h.get('/api/console/stores/1/orders/999999')).status).toBe(404);
    // Another store's order is not found under this store.
    expect((await h.get(`/api/console/stores/2/orders/${customerOrder}`)).status).toBe(404);
  });

  it('reports completed orders per store-local day to the cent, as JSON and CSV', async () => {
    // Complete three orders: two on the evening of the 17th local (one after midnight UTC), one on the 18th.
    const complete = async (id: number, when: string) => {
      await at(when);
      const row = await h.db.selectFrom('orders').select(['status', 'order_type']).where('id', '=', id).executeTakeFirstOrThrow();
      if (row.status === 'submitted') expect((await h.move(id, { action: 'confirm', readyBy: readyIn(h.clock, 0.5) })).status).toBe(200);
      expect((await h.move(id, { action: row.order_type === 'pickup' ? 'mark_ready' : 'send_out' })).status).toBe(200);
      expect((await h.move(id, { action: 'complete', idChecked: true })).status).toBe(200);
    };
    await complete(placed[0].id, '2026-06-17T20:00:00.000Z');
    await complete(placed[3].id, '2026-06-18T06:30:00.000Z'); // 23:30 on the 17th local
    await complete(placed[4].id, '2026-06-18T19:00:00.000Z');
    const sum = (orders: { result: any }[], k: string) => orders.reduce((s, o) => s + o.result[k], 0);
    const day17 = [placed[0], placed[3]];
    const day18 = [placed[4]];
    const r = await h.get('/api/console/stores/1/reports/daily?from=2026-06-16&to=2026-06-18');
    expect(r.status).toBe(200);
    const row = (orders: { result: any }[], date: string) => ({
      date,
      orders: orders.length,
      gross_cents: sum(orders, 'subtotal'),
      discount_cents: sum(orders, 'discount'),
      excise_tax_cents: sum(orders, 'excise_taxes'),
      sales_tax_cents: sum(orders, 'sales_taxes'),
      delivery_fee_cents: sum(orders, 'shipping'),
      total_cents: sum(orders, 'total'),
    });
    expect(r.body.result.rows).toEqual([row([], '2026-06-16'), row(day17, '2026-06-17'), row(day18, '2026-06-18')]);
    // Cancelled and open orders are not sales.
    expect(r.body.result.rows.reduce((s: number, x: { orders: number }) => s + x.orders, 0)).toBe(3);

    const csv = await h.get('/api/console/stores/1/reports/daily.csv?from=2026-06-17&to=2026-06-18');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="downtown-daily-2026-06-17-2026-06-18.csv"');
    const money = (c: number) => (c / 100).toFixed(2);
    const line = (x: ReturnType<typeof row>) =>
      [
        x.date,
        x.orders,
        money(x.gross_cents),
        money(-x.discount_cents),
        money(x.excise_tax_cents),
        money(x.sales_tax_cents),
        money(x.delivery_fee_cents),
        money(x.total_cents),
        // The store's named tax lines (issue 14), one column each after the total: with the default lines
        // the excise line is the excise sum and the sales line the sales sum.
        money(x.excise_tax_cents),
        money(x.sales_tax_cents),
      ].join(',');
    const both = row([...day17, ...day18], 'Total');
    expect(csv.body).toBe(
      [
        'Date,Orders,Gross,Discounts,Excise tax,Sales tax,Delivery fee,Total,CA cannabis excise (15%),Sacramento sales tax (8.75%)',
        line(row(day17, '2026-06-17')),
        line(row(day18, '2026-06-18')),
        line(both),
        '',
      ].join('\n'),
    );
    expect((await h.get('/api/console/stores/1/reports/daily?from=2026-06-18&to=2026-06-17')).status).toBe(400);
    expect((await h.get('/api/console/stores/1/reports/daily?from=2020-01-01&to=2026-06-17')).status).toBe(400);
  });

  it('reads and saves the order settings (partial saves keep the rest; bad values refused)', async () => {
    const url = '/api/console/stores/1/settings/orders';
    const notificationsOn = { sms: true, email: true };
    expect((await h.get(url)).body.result).toEqual({
      auto_confirm: false,
      auto_confirm_minutes: 20,
      pickup_window_hours: 24,
      notifications: {
        order_confirmed: notificationsOn,
        order_ready_for_pickup: notificationsOn,
        order_out_for_delivery: notificationsOn,
        order_cancelled: notificationsOn,
      },
      order_email: null,
    });
    const saved = await h.console('PUT', url, {
      pickup_window_hours: 48,
      notifications: { order_cancelled: { sms: false, email: true } },
      order_email: 'orders@downtown.test',
    });
    expect(saved.status).toBe(200);
    const again = await h.console('PUT', url, { auto_confirm_minutes: 45 });
    expect(again.body.result).toMatchObject({
      auto_confirm: false,
      auto_confirm_minutes: 45,
      pickup_window_hours: 48,
      notifications: { order_confirmed: notificationsOn, order_cancelled: { sms: false, email: true } },
      order_email: 'orders@downtown.test',
    });
    expect((await h.get(url)).body.result).toEqual(again.body.result);
    for (const bad of [
      { pickup_window_hours: 0 },
      { order_email: 'nope' },
      { notifications: { order_shipped: { sms: true, email: true } } },
      { extra: 1 },
    ]) {
      expect((await h.console('PUT', url, bad)).status, JSON.stringify(bad)).toBe(400);
    }
    // The window setting is what the no-show guard reads.
    await at('2026-06-20T12:00:00.000Z');
    const o = await h.place();
    await h.move(o.id, { action: 'confirm', readyBy: readyIn(h.clock, 1) });
    await h.move(o.id, { action: 'mark_ready' });
    await at(new Date(h.clock.now.getTime() + 30 * HOUR).toISOString());
    expect((await h.move(o.id, { action: 'mark_no_show' })).body).toMatchObject({
      code: 400,
      result: 'The pickup window has not passed yet.',
    });
    await at(new Date(h.clock.now.getTime() + 20 * HOUR).toISOString());
    expect((await h.move(o.id, { action: 'mark_no_show' })).status).toBe(200);
  });

  it('searches through its indexes: a phone however typed or its last digits, first/last/full name in any case and accents, in pages and with filters, never another store', async () => {
    const ids = async (query: string, store = 1) =>
      (await h.get(`/api/console/stores/${store}/orders${query}`)).body.result.items.map((i: { id: number }) => i.id);
    const q = (text: string, more = '') => `?q=${encodeURIComponent(text)}${more}`;
    await at('2026-06-21T17:00:00.000Z');
    const details = { firstName: 'José', lastName: 'Núñez-García', emailAddress: 'jose@example.com', phone: '530-555-0142' };
    const jose: number[] = [];
    for (let i = 0; i < 3; i++) {
      await at(`2026-06-21T1${7 + i}:00:00.000Z`);
      jose.unshift((await h.place({ body: { personal_details: { ...details, phone: '(530) 555-0142' } } })).id);
    }
    // Another store's order for the same person and number (its keys as placing writes them).
    const other = await h.db
      .insertInto('orders')
      .values({
        increment_id: 'UP-999001',
        store_id: 2,
        customer_id: null,
        idempotency_key: `other-store-${Math.random()}`,
        status: 'submitted',
        order_type: 'pickup',
        license_type: 'recreational',
        subtotal_cents: 1000,
        total_cents: 1000,
        personal_details: JSON.stringify(details),
        ...orderSearchKeys(details),
        created_at: '2026-06-21T20:00:00.000Z',
        updated_at: '2026-06-21T20:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    for (const phone of [
      '5305550142',
      '(530) 555-0142',
      '+15305550142',
      '+1 530 555 0142',
      '1-530-555-0142',
      '530.555.0142',
      '530 555',
      '530',
    ])
      expect(await ids(q(phone)), phone).toEqual(jose);
    for (const end of ['0142', '555-0142', '5550142']) expect(await ids(q(end)), end).toEqual(jose);
    for (const name of [
      'José',
      'jose',
      'JOSE',
      'Jos',
      'Núñez',
      'nunez',
      'NÚÑEZ-GARCÍA',
      'José Núñez-García',
      'jose nunez',
      'Núñez-García José',
      'nunez garcia',
    ])
      expect(await ids(q(name)), name).toEqual(jose);
    for (const miss of ['0143', '+2 530 555 0142', 'jose diaz', 'garcia jose', 'osé']) expect(await ids(q(miss)), miss).toEqual([]);
    // The other store's order is found there, never here.
    for (const text of ['0142', '(530) 555-0142', 'jose nunez', 'UP-999001']) {
      expect(await ids(q(text)), text).not.toContain(other.id);
      expect(await ids(q(text), 2), text).toEqual([other.id]);
    }
    // Keyset pages of a search, and a search with filters (counts follow the search).
    const first = (await list(q('0142', '&limit=2'))).body.result;
    expect(first.items.map((i: { id: number }) => i.id)).toEqual(jose.slice(0, 2));
    const second = (await list(q('0142', `&limit=2&cursor=${first.nextCursor}`))).body.result;
    expect(second.items.map((i: { id: number }) => i.id)).toEqual(jose.slice(2));
    expect(second.nextCursor).toBeNull();
    expect((await h.move(jose[1], { action: 'cancel', reason: 'customer_request' })).status).toBe(200);
    const cancelled = (await list(q('nunez', '&status=cancelled&type=pickup&from=2026-06-21&to=2026-06-21'))).body.result;
    expect(cancelled.items.map((i: { id: number }) => i.id)).toEqual([jose[1]]);
    expect(cancelled.counts).toMatchObject({ submitted: 2, cancelled: 1, confirmed: 0 });
  });
  it('sorts by when orders are due (slot start, else placed), earliest first, in pages that neither skip nor repeat (issue 26)', async () => {
    // Placed last but due first: a slot two days on, then an ASAP order (runs last: it adds orders).
    await at('2026-06-16T18:10:00.000Z');
    await h.place({ body: { ...person('Gus', 'Later', '(916) 555-0707'), slot: '2026-06-18T17:00:00.000Z' } });
    await at('2026-06-16T18:20:00.000Z');
    await h.place({ body: person('Hal', 'Now', '(916) 555-0808') });
    const all = (await list()).body.result.items as { id: number; slot_start: string | null; created_at: string }[];
    const due = (o: { slot_start: string | null; created_at: string }) => o.slot_start ?? o.created_at;
    const expected = [...all].sort((a, b) => (due(a) < due(b) ? -1 : due(a) > due(b) ? 1 : a.id - b.id)).map((o) => o.id);
    expect(expected).not.toEqual(all.map((o) => o.id).reverse());
    expect((await list('?sort=slot')).body.result.items.map((i: { id: number }) => i.id)).toEqual(expected);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: number }[]; nextCursor: string | null } = (
        await list(`?sort=slot&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      ).body.result;
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expected);
    expect((await list('?sort=oldest')).status).toBe(400);
  });
});
