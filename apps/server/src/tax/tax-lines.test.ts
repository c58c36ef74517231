/**
 * Tax lines per store (issue 14), both databases: the demo store's default lines give today's
 * totals, stated per line in the cart, on the order (order_tax_lines) and in the console's report;
 * a manager's saved lines (Illinois-style potency tiers) tax the next cart and order, to the cent;
 * invalid lines are refused naming the field and change nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { illinoisTaxLines } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { Shopper } from '../../test-support/cart/testing.ts';
import { EIGHTH, JAR, lifecycleHarness, readyIn, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { orderTaxLines } from './order-lines.ts';

const SECTION = '/api/console/stores/1/settings/sections/tax';

describeEachDatabase('tax lines per store', (getDb) => {
  let h: LifecycleHarness;
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
  });
  afterAll(async () => h?.app.close());

  const complete = async (id: number) => {
    expect((await h.move(id, { action: 'confirm', readyBy: readyIn(h.clock, 0.5) })).status).toBe(200);
    expect((await h.move(id, { action: 'mark_ready' })).status).toBe(200);
    expect((await h.move(id, { action: 'complete', idChecked: true })).status).toBe(200);
  };

  it('states the demo store’s default lines (today’s rates) in the cart, the order and the report, to the cent', async () => {
    const r = await h.get(SECTION);
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({ source: 'default', version: 0 });
    expect(
      r.body.result.value.lines.map((l: { code: string; title: string; rate: number; base: string }) => [l.code, l.title, l.rate, l.base]),
    ).toEqual([
      ['ca-excise', 'CA cannabis excise', 15, 'price'],
      ['sales', 'Sacramento sales tax', 8.75, 'price_plus_earlier'],
    ]);

    // Cart: $52.00 eighth + $26.99 jar. Excise 15 % of 5200 = 780; sales 8.75 % of 5980 = 523.25 → 523
    // on the eighth, 8.75 % of 2699 = 236.16 → 236 on the jar (general goods, no excise).
    const s = new Shopper(h.app);
    await s.createCart();
    await s.update({ sku: EIGHTH, qty: 1 });
    await s.update({ sku: JAR, qty: 1 });
    const t = (await s.totals()).result;
    expect(t).toMatchObject({ excise_tax_amount: 780, sales_tax_amount: 759, grand_total: 5200 + 2699 + 780 + 759 });
    expect(t.tax_lines).toEqual([
      { code: 'ca-excise', title: 'CA cannabis excise', kind: 'excise', rate: 15, amount: 780 },
      { code: 'sales', title: 'Sacramento sales tax', kind: 'sales', rate: 8.75, amount: 759 },
    ]);
    expect(t.items.map((i: { sku: string; tax_lines: unknown }) => [i.sku, i.tax_lines])).toEqual([
      [
        EIGHTH,
        [
          { code: 'ca-excise', amount: 780 },
          { code: 'sales', amount: 523 },
        ],
      ],
      [JAR, [{ code: 'sales', amount: 236 }]],
    ]);

    const o = await h.place({
      body: {
        products: [
          { sku: EIGHTH, qty: 1 },
          { sku: JAR, qty: 1 },
        ],
      },
    });
    expect(o.result).toMatchObject({ excise_taxes: 780, sales_taxes: 759, total: t.grand_total });
    expect(await orderTaxLines(h.db, o.id)).toEqual([
      { code: 'ca-excise', title: 'CA cannabis excise', kind: 'excise', rate: 15, taxable_cents: 5200, amount_cents: 780 },
      { code: 'sales', title: 'Sacramento sales tax', kind: 'sales', rate: 8.75, taxable_cents: 5200 + 780 + 2699, amount_cents: 759 },
    ]);

    // The console's order detail states the same lines.
    const detail = await h.get(`/api/console/stores/1/orders/${o.id}`);
    expect(detail.body.result.tax_lines).toEqual(await orderTaxLines(h.db, o.id));
    await complete(o.id);
    const day = h.clock.now.toISOString().slice(0, 10);
    const report = await h.get(`/api/console/stores/1/reports/daily?from=${day}&to=${day}`);
    expect(report.status).toBe(200);
    expect(report.body.result.tax_lines).toEqual([
      { code: 'ca-excise', title: 'CA cannabis excise', kind: 'excise', rate: 15, taxable_cents: 5200, amount_cents: 780, orders: 1 },
      { code: 'sales', title: 'Sacramento sales tax', kind: 'sales', rate: 8.75, taxable_cents: 8679, amount_cents: 759, orders: 1 },
    ]);
    // The report's lines add up to its daily tax columns.
    const row = report.body.result.rows[0];
    expect(row.excise_tax_cents + row.sales_tax_cents).toBe(780 + 759);
  });

  it('refuses invalid lines naming the field, and saves nothing', async () => {
    const bad = await h.console('PUT', SECTION, {
      value: { lines: [{ code: 'il-excise', title: 'IL excise', kind: 'excise', rate: 125 }] },
      version: 0,
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('at most 100');
    expect((await h.get(SECTION)).body.result.source).toBe('default');
  });

  it('taxes the next cart and order by saved lines: Illinois potency tiers, the excise not compounded', async () => {
    const saved = await h.console('PUT', SECTION, { value: illinoisTaxLines(), version: 0 });
    expect(saved.status).toBe(200);
    // The eighth (flower) at 40 % THC is in the 25 % tier; the jar (accessory) pays the 6.25 % only.
    await h.db.updateTable('products').set({ thc_percent: 40 }).where('store_id', '=', 1).where('sku', '=', EIGHTH).execute();
    // A save drops this node's cached lines (other nodes keep theirs up to 1 s); the order reads them in its transaction.
    const s = new Shopper(h.app);
    await s.createCart();
    await s.update({ sku: EIGHTH, qty: 1 });
    await s.update({ sku: JAR, qty: 1 });
    const t = (await s.totals()).result;
    // 25 % of 5200 = 1300; 6.25 % of 5200 = 325 (on the price, not the excise); 6.25 % of 2699 = 168.69 → 169.
    expect(t.tax_lines).toEqual([
      { code: 'il-excise-25', title: 'IL cannabis excise (THC > 35%)', kind: 'excise', rate: 25, amount: 1300 },
      { code: 'il-rot', title: 'IL retailers’ occupation tax', kind: 'sales', rate: 6.25, amount: 494 },
    ]);
    expect(t).toMatchObject({ excise_tax_amount: 1300, sales_tax_amount: 494, grand_total: 7899 + 1300 + 494 });

    // At 35 % THC exactly, the 10 % tier.
    await h.db.updateTable('products').set({ thc_percent: 35 }).where('store_id', '=', 1).where('sku', '=', EIGHTH).execute();
    const o = await h.place({ body: { products: [{ sku: EIGHTH, qty: 2 }] } });
    expect(o.result).toMatchObject({ subtotal: 10400, excise_taxes: 1040, sales_taxes: 650, total: 10400 + 1040 + 650 });
    expect(await orderTaxLines(h.db, o.id)).toEqual([
      { code: 'il-excise-10', title: 'IL cannabis excise (THC ≤ 35%)', kind: 'excise', rate: 10, taxable_cents: 10400, amount_cents: 1040 },
      { code: 'il-rot', title: 'IL retailers’ occupation tax', kind: 'sales', rate: 6.25, taxable_cents: 10400, amount_cents: 650 },
    ]);
    const items = await h.db
      .selectFrom('order_items')
      .select(['excise_tax_cents', 'sales_tax_cents'])
      .where('order_id', '=', o.id)
      .execute();
    expect(items).toEqual([{ excise_tax_cents: 1040, sales_tax_cents: 650 }]);
  });

  it('taxes a cart by tax facts kept per catalogue version: a menu change is taxed at once, a stock change keeps them', async () => {
    // Illinois lines (the test before): the eighth's THC picks the excise tier.
    const { id } = await h.db
      .selectFrom('products')
      .select('id')
      .where('store_id', '=', 1)
      .where('sku', '=', EIGHTH)
      .executeTakeFirstOrThrow();
    const menuChange = async (thc: number) => {
      await h.db.updateTable('products').set({ thc_percent: thc }).where('id', '=', id).execute();
      await h.app.catalog.catalogChanged(1, [id]);
    };
    const s = new Shopper(h.app);
    await s.createCart();
    await s.update({ sku: EIGHTH, qty: 1 });
    const exciseLine = async () => (await s.totals()).result.tax_lines[0].code;

    await menuChange(40);
    expect(await exciseLine()).toBe('il-excise-25');
    const memo = h.app.catalog.find(1)!.taxFacts;
    expect(memo.size).toBeGreaterThan(0);
    // A sale (stock only) keeps what was read: a THC written but not announced is not read again.
    await h.db.updateTable('products').set({ thc_percent: 20 }).where('id', '=', id).execute();
    await h.app.catalog.catalogChanged(1, [id], { stockOnly: true });
    expect(h.app.catalog.find(1)!.taxFacts).toBe(memo);
    expect(memo.size).toBeGreaterThan(0);
    expect(await exciseLine()).toBe('il-excise-25');
    // Announced, the new THC is taxed on the next read.
    await menuChange(30);
    expect(await exciseLine()).toBe('il-excise-10');
    await menuChange(40);
    expect(await exciseLine()).toBe('il-excise-25');
  });
});
