/**
 * Issue 26 on SQLite and PostgreSQL: every product counts toward the right bucket whatever the menu
 * says or omits, over the demo catalogue's real products (the domain's table, kinds.test.ts, read
 * back from the seeded database: the same products, and the server counts them as the table says for
 * every preset); California's concentrate cap holds for wax whose menu row gives only a net weight
 * (28 g of flower + 1 g of wax accepted; 8 g of wax + a 0.5 g cart refused; 6 g then 3 g the same
 * day refused); a store in a state with a preset and no limits in the stores file starts on it
 * (Harbor: California) while downtown keeps the spec's per-order limit, and the console's
 * in-force answer says which model and why, and lists the products that rely on a derivation.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LIMIT_PRESETS, limitPreset, packageContributions, type LimitPresetId } from '@verdant/domain';
import { DEMO } from '../../../../packages/domain/test-support/limits/demo-catalogue.fixture.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { bearer, catalogChanged, commerceApp, loginCustomer, orderBody, pin } from '../../test-support/cart/testing.ts';
import { factsOf } from './enforce.ts';
import { MENU_FACT_ATTRIBUTES } from './in-force.ts';
import { LIMITS } from './section.ts';
import { storefrontOptions } from '../store-settings/storefront.ts';

const WAX = 'CN-DO-SI-DOS-SUGAR-WAX-1-G';
const CART = 'VP-ICE-CREAM-CAKE-DISTILLATE-CART-0-5-G';
const OZ = 'FL-BLUE-DREAM-OZ';
const ACTOR = { type: 'cli' as const, name: 'limit kinds test' };

describeEachDatabase('purchase limits count every product by its kind (issue 26)', (getDb) => {
  let app: FastifyInstance;
  let now = new Date('2026-07-01T18:00:00.000Z');
  let manager: StaffTestSession;
  const db = () => getDb().db;

  async function call(
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
    host = 'downtown.localhost',
  ) {
    const res = await app.inject({
      method,
      url,
      headers: { host, ...headers },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    return { status: res.statusCode, ...(res.json() as { code: number; result: any; errorCode?: string; meta?: any }) };
  }
  async function shopper(token: string | null, host = 'downtown.localhost') {
    const auth = token ? bearer(token) : {};
    const cart = await call('POST', '/api/cart/create', { license_type: 'recreational' }, auth, host);
    const id = cart.result as string;
    return {
      add: (sku: string, qty: number) => call('POST', `/api/cart/update?cartId=${id}`, { cartItem: { quoteId: id, sku, qty } }, auth, host),
      order: () => call('POST', '/api/order/save', orderBody({ cart_id: id, license_type: 'recreational' }), auth, host),
      limits: () => call('GET', `/api/cart/limits?cartId=${id}&residency=resident`, undefined, auth, host),
    };
  }
  async function setLimits(storeId: number, preset: LimitPresetId) {
    const current = await app.storeSettings.get(storeId, LIMITS);
    await app.storeSettings.save(
      storeId,
      LIMITS,
      { preset, model: LIMIT_PRESETS[preset].model, licence_holder: null },
      current.version,
      ACTOR,
    );
  }

  beforeAll(async () => {
    app = await commerceApp(getDb(), () => now);
    for (const [storeId, skus] of [
      [1, [WAX, CART, OZ]],
      [4, [WAX, OZ]],
      [2, [OZ]],
    ] as const) {
      const ids: number[] = [];
      for (const sku of skus)
        ids.push(await pin(db(), storeId, sku, { price: 1000, special: null, tiers: [], stock: 5000, manageStock: true }));
      await db().updateTable('products').set({ license_type: 'both' }).where('id', 'in', ids).execute();
      await catalogChanged(db(), storeId, ids);
    }
    await addStaff(db(), { email: 'manager@kinds.test', role: 'manager', storeIds: [1, 4], name: 'Kim Kinds' });
    manager = await loginStaff(app, 'manager@kinds.test', { ip: '10.241.9.1' });
  });
  afterAll(async () => app?.close());

  it('the demo products of the table are the seeded ones, and the server counts them as the table says under every preset', async () => {
    const rows = await db()
      .selectFrom('products')
      .select(['id', 'sku', 'name', 'canna_type', 'size', 'unit_weight_grams_equivelent'])
      .where('store_id', '=', 1)
      .where(
        'sku',
        'in',
        DEMO.map((d) => d.sku),
      )
      .execute();
    expect(rows.map((r) => r.sku).sort()).toEqual(DEMO.map((d) => d.sku).sort());
    const attrs = await db()
      .selectFrom('product_attribute_values')
      .select(['product_id', 'attribute_code', 'value'])
      .where(
        'product_id',
        'in',
        rows.map((r) => r.id),
      )
      .where('attribute_code', 'in', [...MENU_FACT_ATTRIBUTES])
      .execute();
    for (const d of DEMO) {
      const row = rows.find((r) => r.sku === d.sku)!;
      const a = Object.fromEntries(attrs.filter((x) => x.product_id === row.id).map((x) => [x.attribute_code, x.value]));
      const fixtureAttrs = Object.fromEntries(
        Object.entries(d.attrs).filter(([k]) => (MENU_FACT_ATTRIBUTES as readonly string[]).includes(k)),
      );
      expect({ ...row, id: 0, attrs: a }, d.sku).toEqual({
        id: 0,
        sku: d.sku,
        name: d.name,
        canna_type: d.canna_type,
        size: d.size,
        unit_weight_grams_equivelent: d.unit_weight_grams_equivelent,
        attrs: fixtureAttrs,
      });
      for (const preset of Object.keys(LIMIT_PRESETS) as LimitPresetId[]) {
        const server = packageContributions(limitPreset(preset).buckets, factsOf(row, a, true));
        const domain = packageContributions(limitPreset(preset).buckets, factsOf(d, d.attrs, true));
        expect(server, `${preset} ${d.sku}`).toEqual(domain);
        // A cannabis product always counts toward some bucket of every preset.
        if (d.canna_type !== 4 && d.canna_type !== 6) expect(server.length, `${preset} ${d.sku}`).toBeGreaterThan(0);
      }
    }
  });

  it('California (picked in the console): wax whose menu row gives only its net weight counts as concentrate', async () => {
    await setLimits(1, 'CA');
    // 28 g of flower + 1 g of wax: within 28.5 g of flower and 8 g of concentrate.
    const a = await shopper(null);
    expect(await a.add(OZ, 1)).toMatchObject({ status: 200 });
    expect(await a.add(WAX, 1)).toMatchObject({ status: 200 });
    expect((await a.limits()).result.meters.map((m: { text: string }) => m.text)).toEqual(['28 g of 28.5 g per day', '1 g of 8 g per day']);
    expect(await a.order()).toMatchObject({ status: 200 });
    // 8 g of wax + a 0.5 g cart: 8.5 g of concentrate, refused at cart update and at order save.
    const b = await shopper(null);
    expect(await b.add(WAX, 8)).toMatchObject({ status: 200 });
    expect(await b.add(CART, 1)).toMatchObject({
      status: 400,
      errorCode: 'purchase_limit',
      meta: { violations: [{ bucket: 'concentrate', excess: 0.5 }] },
    });
    const offline = await call(
      'POST',
      '/api/order/save',
      orderBody({
        license_type: 'recreational',
        products: [
          { sku: WAX, qty: 8 },
          { sku: CART, qty: 1 },
        ],
      }),
    );
    expect(offline).toMatchObject({
      status: 400,
      errorCode: 'purchase_limit',
      meta: { violations: [{ bucket: 'concentrate', excess: 0.5 }] },
    });
    // 6 g, then 3 g the same day: 9 g.
    const { token } = await loginCustomer(app, '(916) 555-3201');
    const first = await shopper(token);
    expect(await first.add(WAX, 6)).toMatchObject({ status: 200 });
    expect(await first.order()).toMatchObject({ status: 200 });
    const second = await shopper(token);
    expect(await second.add(WAX, 3)).toMatchObject({ status: 400, meta: { violations: [{ bucket: 'concentrate', excess: 1 }] } });
    const direct = await call(
      'POST',
      '/api/order/save',
      orderBody({ license_type: 'recreational', products: [{ sku: WAX, qty: 3 }] }),
      bearer(token),
    );
    expect(direct).toMatchObject({ status: 400, meta: { violations: [{ bucket: 'concentrate', excess: 1 }] } });
    expect(await second.add(WAX, 2)).toMatchObject({ status: 200 });
  });

  it('the console says which model is in force and why, and lists the products counted by a derivation', async () => {
    const get = (storeId: number) =>
      call('GET', `/api/console/stores/${storeId}/limits/in-force`, undefined, manager.headers, 'downtown.localhost');
    // Harbor: a California store with no limits in the stores file starts on the California preset.
    const harbor = await get(4);
    expect(harbor).toMatchObject({
      status: 200,
      result: {
        model: 'preset',
        preset: 'CA',
        state: 'CA',
        state_preset: 'CA',
        source: 'default',
        counting: 'menu',
        reason: 'The California preset: the store is in California (CA) and the stores file gives it no limits of its own.',
      },
    });
    const derived = harbor.result.derived_products as { sku: string; kind: string; derived: string[] }[];
    expect(derived.find((p) => p.sku === WAX)).toMatchObject({ kind: 'concentrate', derived: ['concentrate 1 g: its net weight'] });
    expect(derived.find((p) => p.sku === 'BDL-NIGHT-IN-DARK-CHOCOLATE')).toMatchObject({ kind: 'infused' });
    expect(derived.some((p) => p.sku === OZ || p.sku === 'ED-STRAWBERRY-GUMMIES-100-MG')).toBe(false);
    // Downtown was put on California in the console above; eastside keeps the spec's per-order limit from the stores file.
    expect((await get(1)).result).toMatchObject({ model: 'preset', preset: 'CA', source: 'saved' });
    expect((await get(1)).result.reason).toMatch(/^The California preset, saved in the console \(\d{4}-\d{2}-\d{2}\)\.$/);
    await addStaff(db(), { email: 'east@kinds.test', role: 'manager', storeIds: [2], name: 'Eve East' });
    const east = await loginStaff(app, 'east@kinds.test', { ip: '10.241.9.2' });
    expect(await call('GET', '/api/console/stores/2/limits/in-force', undefined, east.headers)).toMatchObject({
      status: 200,
      result: {
        model: 'per_order',
        source: 'stores-file',
        counting: 'spec',
        derived_products: [],
        reason: 'The spec’s per-order limit, set for this store in the stores file.',
      },
    });
    // Another store's answer is refused (403), as every console route.
    expect((await call('GET', '/api/console/stores/4/limits/in-force', undefined, east.headers)).status).toBe(403);
  });

  it('Harbor enforces the California preset it starts on; eastside keeps the spec’s per-order message', async () => {
    const h = await shopper(null, 'harbor.localhost');
    expect(await h.add(WAX, 8)).toMatchObject({ status: 200 });
    expect(await h.add(WAX, 1)).toMatchObject({
      status: 400,
      result: 'Your cart contains 1 g more concentrate than the concentrate limit of 8 g per day allows. To stay within it, remove 1 of the 9 Do-Si-Dos Sugar Wax 1 g from your cart.',
    });
    expect((await app.storeSettings.get(2, LIMITS)).source).toBe('stores-file');
    // Two 28 g jars: the message says which package to take out, not "remove 27.5 g".
    const jars = await shopper(null, 'harbor.localhost');
    expect(await jars.add(OZ, 1)).toMatchObject({ status: 200 });
    expect(await jars.add(OZ, 1)).toMatchObject({
      status: 400,
      result:
        'Your cart contains 27.5 g more flower than the flower limit of 28.5 g per day allows. To stay within it, remove 1 of the 2 Blue Dream 28 g (1 oz) from your cart.',
      meta: { remove: [{ sku: OZ, qty: 1 }] },
    });
    // Eastside's per-order limit keeps spec §8's message word for word.
    const east = await shopper(null, 'eastside.localhost');
    expect(await east.add('FL-BLUE-DREAM-OZ', 1)).toMatchObject({ status: 200 });
    expect(await east.add('FL-BLUE-DREAM-OZ', 1)).toMatchObject({
      status: 400,
      result: 'Your cart contains 27.5 g more cannabis than can be in a single order. Please remove 27.5 g from your cart.',
    });
    // The storefront's instant per-order check runs only where the model is the spec's per-order limit.
    expect((await storefrontOptions(app.storeSettings, 4)).perOrderLimit).toBe(false);
    expect((await storefrontOptions(app.storeSettings, 2)).perOrderLimit).toBe(true);
  });
});
