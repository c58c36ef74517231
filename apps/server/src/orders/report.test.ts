/**
 * The daily report, both databases (issue 26): a store's own text (a tax line's title) can never
 * reach a CSV cell as a spreadsheet formula; and every row and the total line add up from their
 * columns (gross − discounts + excise + sales tax + delivery fee = total), in the JSON and the CSV,
 * over a table of orders with and without delivery fees and coupons.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TaxLineInput } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { EIGHTH, JAR, lifecycleHarness, readyIn, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';

const SECTION = '/api/console/stores/1/settings/sections/tax';
const EVIL = '=HYPERLINK("http://evil.example/t","tax")';

describeEachDatabase('daily report CSV', (getDb) => {
  let h: LifecycleHarness;
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
  });
  afterAll(async () => h?.app.close());

  const complete = async (id: number, type: 'pickup' | 'delivery') => {
    expect((await h.move(id, { action: 'confirm', readyBy: readyIn(h.clock, 0.5) })).status).toBe(200);
    expect((await h.move(id, { action: type === 'pickup' ? 'mark_ready' : 'send_out' })).status).toBe(200);
    expect((await h.move(id, { action: 'complete', idChecked: true })).status).toBe(200);
  };

  it('escapes a tax line titled like a formula in the header cell', async () => {
    const lines: TaxLineInput[] = [
      { code: 'ca-excise', title: 'CA cannabis excise', kind: 'excise', rate: 15, base: 'price', applies_to: { tax_class_ids: [2] } },
      { code: 'sales', title: EVIL, kind: 'sales', rate: 8.75, base: 'price_plus_earlier', applies_to: { tax_class_ids: [2, 4] } },
    ];
    expect((await h.console('PUT', SECTION, { value: { lines }, version: 0 })).status).toBe(200);
    await h.at('2026-06-15T19:00:00.000Z');
    const o = await h.place({ sku: EIGHTH });
    await complete(o.id, 'pickup');
    const csv = await h.get('/api/console/stores/1/reports/daily.csv?from=2026-06-15&to=2026-06-15');
    expect(csv.status).toBe(200);
    const text = String(csv.body);
    const [header, ...rows] = parse(text) as string[][];
    expect(header.at(-1)).toBe(`'${EVIL} (8.75%)`);
    // No cell of the file starts like a formula, unless it is a plain number.
    for (const cell of [header, ...rows].flat()) {
      if (/^-?\d+(\.\d+)?$/.test(cell)) continue;
      expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
    expect(text).not.toMatch(/(^|,)"?=HYPERLINK/m);
  });

  /** The orders of the table: placed and completed on the given store-local day (UTC−7 in June). */
  const CASES: { name: string; day: string; type: 'pickup' | 'delivery'; sku: string; qty: number; coupon?: string; cancel?: boolean }[] = [
    { name: 'pickup, no discount', day: '2026-06-22', type: 'pickup', sku: EIGHTH, qty: 1 },
    { name: 'delivery with its fee', day: '2026-06-22', type: 'delivery', sku: EIGHTH, qty: 2 },
    { name: 'delivery, $5 coupon', day: '2026-06-22', type: 'delivery', sku: JAR, qty: 3, coupon: 'GREEN5' },
    { name: 'pickup, 10 % coupon', day: '2026-06-23', type: 'pickup', sku: EIGHTH, qty: 1, coupon: 'WELCOME10' },
    { name: 'delivery, 10 % coupon', day: '2026-06-23', type: 'delivery', sku: EIGHTH, qty: 1, coupon: 'WELCOME10' },
    { name: 'cancelled delivery (not a sale)', day: '2026-06-23', type: 'delivery', sku: EIGHTH, qty: 1, cancel: true },
    { name: 'pickup on the last day', day: '2026-06-24', type: 'pickup', sku: JAR, qty: 1 },
  ];

  it('adds up every row and the total line from its columns, in the JSON and the CSV', async () => {
    const placed: { day: string; result: any }[] = [];
    for (const c of CASES) {
      await h.at(`${c.day}T18:00:00.000Z`);
      const o = await h.place({ type: c.type, sku: c.sku, qty: c.qty, body: c.coupon ? { coupon: c.coupon } : {} });
      if (c.cancel) {
        expect((await h.move(o.id, { action: 'cancel', reason: 'customer_request' })).status).toBe(200);
        continue;
      }
      await complete(o.id, c.type);
      placed.push({ day: c.day, result: o.result });
    }
    // The table exercises what the report must add: fees and discounts are really there.
    expect(placed.filter((p) => p.result.shipping > 0).length).toBeGreaterThanOrEqual(3);
    expect(placed.filter((p) => p.result.discount > 0).length).toBeGreaterThanOrEqual(3);

    const range = 'from=2026-06-21&to=2026-06-24';
    const json = await h.get(`/api/console/stores/1/reports/daily?${range}`);
    expect(json.status).toBe(200);
    const rows: Record<string, any>[] = json.body.result.rows;
    expect(rows.map((r) => r.date)).toEqual(['2026-06-21', '2026-06-22', '2026-06-23', '2026-06-24']);
    for (const r of rows) {
      const mine = placed.filter((p) => p.day === r.date).map((p) => p.result);
      const sum = (k: string) => mine.reduce((s, o) => s + o[k], 0);
      expect(r).toEqual({
        date: r.date,
        orders: mine.length,
        gross_cents: sum('subtotal'),
        discount_cents: sum('discount'),
        excise_tax_cents: sum('excise_taxes'),
        sales_tax_cents: sum('sales_taxes'),
        delivery_fee_cents: sum('shipping'),
        total_cents: sum('total'),
      });
      expect(r.gross_cents - r.discount_cents + r.excise_tax_cents + r.sales_tax_cents + r.delivery_fee_cents, r.date).toBe(r.total_cents);
    }

    const csv = await h.get(`/api/console/stores/1/reports/daily.csv?${range}`);
    const [header, ...lines] = parse(String(csv.body)) as string[][];
    expect(header.slice(0, 8)).toEqual(['Date', 'Orders', 'Gross', 'Discounts', 'Excise tax', 'Sales tax', 'Delivery fee', 'Total']);
    expect(lines.map((l) => l[0])).toEqual([...rows.map((r) => r.date), 'Total']);
    const cents = (cell: string) => {
      expect(cell).toMatch(/^-?\d+\.\d{2}$/);
      return Math.round(Number(cell) * 100);
    };
    const columnTotals = Array.from({ length: header.length }, () => 0);
    for (const [i, line] of lines.entries()) {
      const money = line.slice(2).map(cents);
      const [gross, discounts, excise, sales, fee, total, ...taxLines] = money;
      // Every money column before Total adds up to Total; a discount is written negative.
      expect(gross + discounts + excise + sales + fee, line[0]).toBe(total);
      expect(discounts).toBeLessThanOrEqual(0);
      // The tax-line columns after Total break excise + sales down.
      expect(taxLines.reduce((a, b) => a + b, 0), line[0]).toBe(excise + sales);
      if (i < rows.length) {
        const r = rows[i];
        expect([gross, 0 - discounts || 0, excise, sales, fee, total]).toEqual([
          r.gross_cents,
          r.discount_cents,
          r.excise_tax_cents,
          r.sales_tax_cents,
          r.delivery_fee_cents,
          r.total_cents,
        ]);
        money.forEach((m, k) => (columnTotals[k] += m));
        columnTotals[header.length - 1] += Number(line[1]);
      } else {
        // The total line is the sum of each column.
        expect(money).toEqual(columnTotals.slice(0, money.length));
        expect(Number(line[1])).toBe(placed.length);
      }
    }
  });
});
