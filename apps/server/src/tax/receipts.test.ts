/**
 * Each named tax line on the shopper's receipt and in the store's report (issue 14), both
 * databases: with three saved lines (two excise lines and the sales tax on top of both), the order
 * answer (thank-you page), the account's order detail, the confirmation e-mail and the console's
 * daily CSV state every line as charged, and the amounts reconcile to the cent with the two sums.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TaxLineInput } from '@verdant/domain';
import { storesFile } from '../../test-support/catalog/test-app.ts';
import { bearer, loginCustomer } from '../../test-support/cart/testing.ts';
import { planMessages } from '../notifications/plan.ts';
import { EIGHTH, JAR, lifecycleHarness, readyIn, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { orderTaxLines } from './order-lines.ts';

const SECTION = '/api/console/stores/1/settings/sections/tax';

const LINES: TaxLineInput[] = [
  { code: 'ca-excise', title: 'CA cannabis excise', kind: 'excise', rate: 15, base: 'price', applies_to: { tax_class_ids: [2] } },
  {
    code: 'city-cannabis',
    title: 'Sacramento cannabis business tax',
    kind: 'excise',
    rate: 4,
    base: 'price',
    applies_to: { tax_class_ids: [2] },
  },
  {
    code: 'sales',
    title: 'Sacramento sales tax',
    kind: 'sales',
    rate: 8.75,
    base: 'price_plus_earlier',
    applies_to: { tax_class_ids: [2, 4] },
  },
];

describeEachDatabase('tax lines on receipts and in the report', (getDb) => {
  let h: LifecycleHarness;
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    expect((await h.console('PUT', SECTION, { value: { lines: LINES }, version: 0 })).status).toBe(200);
  });
  afterAll(async () => h?.app.close());

  it('states every line as charged on the order answer, the account’s order, the confirmation e-mail and the daily CSV', async () => {
    const customer = await loginCustomer(h.app, '9165550717');
    const o = await h.place({
      token: customer.token,
      body: {
        products: [
          { sku: EIGHTH, qty: 1 },
          { sku: JAR, qty: 1 },
        ],
      },
    });
    // Eighth $52.00 (cannabis): 15 % = 780, 4 % = 208, sales 8.75 % of 5200 + 780 + 208 = 6188 → 541.45 → 541.
    // Jar $26.99 (general goods): sales 8.75 % of 2699 → 236.16 → 236.
    const stated = [
      { code: 'ca-excise', title: 'CA cannabis excise', kind: 'excise', rate: 15, amount: 780 },
      { code: 'city-cannabis', title: 'Sacramento cannabis business tax', kind: 'excise', rate: 4, amount: 208 },
      { code: 'sales', title: 'Sacramento sales tax', kind: 'sales', rate: 8.75, amount: 777 },
    ];
    expect(o.result.tax_lines).toEqual(stated);
    expect(o.result).toMatchObject({ subtotal: 7899, excise_taxes: 988, sales_taxes: 777, total: 7899 + 988 + 777 });
    expect((await orderTaxLines(h.db, o.id)).map((l) => l.amount_cents)).toEqual([780, 208, 777]);

    // The account's order detail and history: the same lines, read back from order_tax_lines.
    const detail = await h.app.inject({
      url: `/api/user/order/${o.increment_id}`,
      headers: { host: 'downtown.localhost', ...bearer(customer.token) },
    });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().result.tax_lines).toEqual(stated);
    const history = await h.app.inject({
      url: '/api/user/order-history?pageSize=5&currentPage=1',
      headers: { host: 'downtown.localhost', ...bearer(customer.token) },
    });
    expect(history.json().result.items.find((x: { increment_id: string }) => x.increment_id === o.increment_id).tax_lines).toEqual(stated);

    // The confirmation e-mail's receipt.
    expect((await h.move(o.id, { action: 'confirm', readyBy: readyIn(h.clock, 0.5) })).status).toBe(200);
    const event = await h.db
      .selectFrom('outbox_events')
      .selectAll()
      .where('order_id', '=', o.id)
      .where('type', '=', 'order.status_changed')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const storeInfo = (id: number) => {
      const s = storesFile.stores.find((x) => x.storeId === id);
      return s && { name: s.name, timezone: s.dispensarySettings.place_info.timezone };
    };
    const planned = await planMessages(
      { db: h.db, storeInfo },
      { ...event, payload: JSON.parse(event.payload), created_at: event.created_at },
    );
    const mail = planned.find((m) => m.channel === 'email');
    expect(mail?.template).toBe('order_confirmed');
    expect(mail?.body).toContain(
      [
        'Subtotal: $78.99',
        'CA cannabis excise (15%): $7.80',
        'Sacramento cannabis business tax (4%): $2.08',
        'Sacramento sales tax (8.75%): $7.77',
        'Pickup: Free',
        'Total to pay: $96.64',
      ].join('\n'),
    );

    // The daily CSV: one column per line after the total; the line columns add up to excise + sales.
    expect((await h.move(o.id, { action: 'mark_ready' })).status).toBe(200);
    expect((await h.move(o.id, { action: 'complete', idChecked: true })).status).toBe(200);
    const day = '2026-06-15';
    const csv = await h.get(`/api/console/stores/1/reports/daily.csv?from=${day}&to=${day}`);
    expect(csv.status).toBe(200);
    const [header, row, total] = String(csv.body)
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    expect(header).toEqual([
      'Date',
      'Orders',
      'Gross',
      'Discounts',
      'Excise tax',
      'Sales tax',
      'Delivery fee',
      'Total',
      'CA cannabis excise (15%)',
      'Sacramento cannabis business tax (4%)',
      'Sacramento sales tax (8.75%)',
    ]);
    expect(row).toEqual([day, '1', '78.99', '0.00', '9.88', '7.77', '0.00', '96.64', '7.80', '2.08', '7.77']);
    expect(total).toEqual(['Total', ...row.slice(1)]);
    const cents = (s: string) => Math.round(Number(s) * 100);
    expect(row.slice(8).reduce((a, s) => a + cents(s), 0)).toBe(cents(row[4]) + cents(row[5]));
  });
});
