/**
 * Issue 11: the delivery page said "Delivery costs $4.00" while checkout charged "$5.00 incl.
 * tax". One figure from one place (the domain's DELIVERY_FEE): the store's delivery page and
 * delivery banner quote what the shipping methods and the totals charge, in every demo store.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DELIVERY_FEE, formatMoney } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { commerceApp, Shopper } from '../../test-support/cart/testing.ts';

const ROSIN = 'CN-JACK-HERER-LIVE-ROSIN-1-G';
const segments = (r: { total_segments: { code: string; value: number }[] }) => Object.fromEntries(r.total_segments.map((s) => [s.code, s.value]));

describeEachDatabase('the delivery fee: one figure on the delivery page and in the totals', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await commerceApp(getDb());
  });
  afterAll(async () => app?.close());

  it('the delivery page and banner quote the fee the checkout charges', async () => {
    const s = new Shopper(app);
    await s.createCart();
    const methods = (await s.call('GET', `/api/cart/shipping-methods?cartId=${s.token}`)).result as { method_code: string; price_incl_tax: number }[];
    const charged = methods.find((m) => m.method_code === 'delivery')!.price_incl_tax;
    expect(charged).toBe(DELIVERY_FEE.inclTax);
    expect((await s.update({ sku: ROSIN, qty: 1 })).status).toBe(200);
    const totals = await s.call('POST', `/api/cart/collect-totals?cartId=${s.token}`, { methods: { shippingMethodCode: 'delivery', shippingCarrierCode: 'delivery' } });
    expect(segments(totals.result).shipping).toBe(charged);

    for (const host of ['downtown.localhost', 'eastside.localhost', 'harbor.localhost']) {
      const page = await new Shopper(app, host).call('GET', '/api/cms/page?identifier=delivery');
      const text = JSON.stringify(page.result);
      expect(text, host).toContain(`Delivery costs ${formatMoney(charged)} including tax`);
      expect(text, host).not.toContain(formatMoney(DELIVERY_FEE.beforeTax));
      const banner = await new Shopper(app, host).call('GET', '/api/cms/block?identifier=delivery-banner');
      expect(banner.status, host).toBe(200);
      expect(JSON.stringify(banner.result), host).toContain(formatMoney(charged));
    }
  });
});
