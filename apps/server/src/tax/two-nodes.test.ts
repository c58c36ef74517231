/**
 * A tax-line save reaches the other nodes (issue 14), both databases: two apps over one database
 * and one Redis (two nodes of a deployment); the owner saves the store's lines on one, and the
 * other's `taxrule` view, offline snapshot and price list answer the new lines within the
 * catalogue's 2 s promise (the save's catalogue notice on the change bus; the price list reads the
 * saved lines on each request).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { californiaTaxLines } from '@verdant/domain';
import { REFERENCE_DATE } from '../../test-support/cart/testing.ts';
import type { StaffTestSession } from '../../test-support/staff/testing.ts';
import { twoSeededNodes, type TwoNodes } from '../../test-support/multinode/in-process.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';

const HOST = 'downtown.localhost';
const REACH_MS = 2000;

describeEachDatabase('a tax-line save reaches another node', (getDb) => {
  let nodes: TwoNodes;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let owner: StaffTestSession;

  beforeAll(async () => {
    nodes = await twoSeededNodes(getDb(), 'tax', { clock: () => REFERENCE_DATE });
    ({ a, b, ownerA: owner } = nodes);
  });
  afterAll(() => nodes?.close());

  const ratesOn = async (app: FastifyInstance) => {
    const r = await app.inject({
      method: 'POST',
      url: '/api/catalog/search',
      headers: { host: HOST },
      payload: { entity: 'taxrule', query: { size: 100 } },
    });
    return (r.json().result.items as { rates: { code: string; rate: number }[] }[]).flatMap((x) => x.rates.map((y) => [y.code, y.rate]));
  };
  const etagOn = async (app: FastifyInstance) =>
    String((await app.inject({ url: '/api/catalog/snapshot', headers: { host: HOST } })).headers.etag);
  const eighthTaxOn = async (app: FastifyInstance) => {
    const r = await app.inject({
      url: '/api/products/render-list?skus=FL-BLUE-DREAM-8TH&currencyCode=USD&storeId=1',
      headers: { host: HOST },
    });
    const [item] = r.json().result.items as { price: number; excise_tax: number }[];
    return item.excise_tax / item.price;
  };

  it('the other node’s taxrule view, snapshot and price list answer the saved lines within 2 s', async () => {
    expect(await ratesOn(b)).toEqual([
      ['ca-excise', 15],
      ['sales', 8.75],
    ]);
    const etag = await etagOn(b);
    expect(await eighthTaxOn(b)).toBeCloseTo(0.15, 3);

    const lines = californiaTaxLines({ city: 'Sacramento', salesPercent: 8.75, medicalCardExempt: false }).lines.map((l) =>
      l.code === 'ca-excise' ? { ...l, rate: 19 } : l,
    );
    const started = Date.now();
    const saved = await a.inject({
      method: 'PUT',
      url: '/api/console/stores/1/settings/sections/tax',
      headers: owner.headers,
      payload: { value: { lines }, version: 0 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await expect
      .poll(() => ratesOn(b), { timeout: REACH_MS, interval: 20 })
      .toEqual([
        ['ca-excise', 19],
        ['sales', 8.75],
      ]);
    await expect.poll(() => etagOn(b), { timeout: REACH_MS, interval: 20 }).not.toBe(etag);
    expect(await eighthTaxOn(b)).toBeCloseTo(0.19, 3);
    expect(Date.now() - started).toBeLessThan(REACH_MS);
  });
});
