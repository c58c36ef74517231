/**
 * Purchase-limit presets, table-driven (issue 14 "Tests": for each bucket, exactly at the cap
 * accepted, one unit over refused, on the server, with the message naming the bucket), on SQLite and
 * PostgreSQL: for EVERY preset of packages/domain (LIMIT_PRESETS) and every bucket with a numeric cap
 * for a customer type (and, where the caps differ by residency, for each residency), a cart holding
 * exactly the cap is accepted at cart update and its order is saved, and one thousandth of the unit
 * more (the model's smallest step) is refused at cart update and again at order save, naming the
 * bucket and the excess.
 *
 * How a package is made to count exactly the cap: two products of the downtown store become plain
 * packages (no size, no flower equivalent of their own) whose menu fields (net weight, concentrate
 * grams, THC mg — what the menu import writes) carry one measure the bucket counts one to one: the
 * first holds the cap, the second 0.001. Each case is a guest (counted on its own order only), so
 * earlier cases never count toward later ones. One app per database, every case in it.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  LICENSE_TYPES,
  LIMIT_PRESETS,
  limitPreset,
  type LicenseType,
  type LimitBucket,
  type LimitMeasure,
  type LimitPresetId,
  type Residency,
} from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { catalogChanged, commerceApp, orderBody, pin } from '../../test-support/cart/testing.ts';
import { LIMITS } from './section.ts';

const AT_CAP = 'CN-JACK-HERER-LIVE-ROSIN-1-G';
const STEP = 'ED-POMEGRANATE-GUMMIES-500-MG';
const ACTOR = { type: 'cli' as const, name: 'limit presets test' };
const FIELD: Record<LimitMeasure, string> = { flower_g: 'net_weight', concentrate_g: 'concentrate_grams', thc_mg: 'thc_mg' };
const MENU_FIELDS = ['concentrate_grams', 'thc_mg', 'thc_mg_per_piece', 'pieces', 'net_weight'];

interface Case {
  preset: LimitPresetId;
  bucket: LimitBucket;
  customerType: LicenseType;
  /** null where both residencies have the same cap (the shopper is not asked). */
  residency: Residency | null;
  /** The cap, in the bucket's unit. */
  cap: number;
  /** A measure the bucket counts one to one. */
  measure: LimitMeasure;
}

/** Every capped bucket of every preset, per customer type and (where it matters) residency. */
function cases(): Case[] {
  const out: Case[] = [];
  for (const preset of Object.keys(LIMIT_PRESETS) as LimitPresetId[]) {
    for (const bucket of limitPreset(preset).buckets) {
      const measure = (Object.keys(bucket.counts) as LimitMeasure[]).find((m) => bucket.counts[m]!.amount === bucket.counts[m]!.countsAs);
      if (!measure) throw new Error(`${preset} ${bucket.id}: no measure counts one to one; the table needs another way in`);
      for (const customerType of LICENSE_TYPES) {
        const { resident, non_resident } = bucket.caps[customerType];
        const same =
          resident.kind === non_resident.kind && (resident.kind !== 'cap' || resident.max === (non_resident as typeof resident).max);
        const residencies: (Residency | null)[] = same ? [null] : ['resident', 'non_resident'];
        for (const residency of residencies) {
          const cap = bucket.caps[customerType][residency ?? 'resident'];
          if (cap.kind === 'cap') out.push({ preset, bucket, customerType, residency, cap: cap.max / 1000, measure });
        }
      }
    }
  }
  return out;
}

const CASES = cases();

/** "Flower" → "flower" inside the message, as the domain words it ("THC in infused products" stays). */
const inSentence = (label: string) => (/^[A-Z][A-Z]/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1));

it('covers every preset and every capped bucket', () => {
  expect(new Set(CASES.map((c) => c.preset))).toEqual(new Set(Object.keys(LIMIT_PRESETS)));
  for (const preset of Object.keys(LIMIT_PRESETS) as LimitPresetId[]) {
    const capped = limitPreset(preset).buckets.filter((b) =>
      LICENSE_TYPES.some((t) => Object.values(b.caps[t]).some((c) => c.kind === 'cap')),
    );
    expect(new Set(CASES.filter((c) => c.preset === preset).map((c) => c.bucket.id))).toEqual(new Set(capped.map((b) => b.id)));
  }
  // Illinois' buckets are tested for residents and non-residents apart.
  expect(CASES.filter((c) => c.preset === 'IL' && c.residency === 'non_resident').map((c) => c.bucket.id)).toEqual([
    'flower',
    'concentrate',
    'infused',
  ]);
});

describeEachDatabase('purchase-limit presets, every capped bucket', (getDb) => {
  let app: FastifyInstance;
  const now = new Date('2026-07-01T19:00:00.000Z'); // noon in the store's zone
  const db = () => getDb().db;
  const ids = new Map<string, number>();

  async function call(method: 'GET' | 'POST', url: string, body?: unknown) {
    const res = await app.inject({
      method,
      url,
      headers: { host: 'downtown.localhost' },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    return { status: res.statusCode, ...(res.json() as { code: number; result: any; errorCode?: string; meta?: any }) };
  }

  /** One package of `sku` counts `amount` of `measure` (and nothing else). */
  async function setMeasure(sku: string, measure: LimitMeasure, amount: number) {
    const id = ids.get(sku)!;
    await db().deleteFrom('product_attribute_values').where('product_id', '=', id).where('attribute_code', 'in', MENU_FIELDS).execute();
    await db()
      .insertInto('product_attribute_values')
      .values({ product_id: id, attribute_code: FIELD[measure], value: String(amount) })
      .execute();
  }

  async function setPreset(preset: LimitPresetId) {
    const current = await app.storeSettings.get(1, LIMITS);
    await app.storeSettings.save(1, LIMITS, { preset, model: LIMIT_PRESETS[preset].model, licence_holder: null }, current.version, ACTOR);
  }

  beforeAll(async () => {
    app = await commerceApp(getDb(), () => now);
    for (const sku of [AT_CAP, STEP]) {
      const id = await pin(db(), 1, sku, { price: 1000, special: null, tiers: [], stock: 100_000, manageStock: true });
      ids.set(sku, id);
    }
    // Plain packages sold to both licence types: what they count comes from the menu fields alone.
    await db()
      .updateTable('products')
      .set({ license_type: 'both', size: null, unit_weight_grams_equivelent: null, canna_type: 1 })
      .where('id', 'in', [...ids.values()])
      .execute();
    await catalogChanged(db(), 1, [...ids.values()]);
  });
  afterAll(async () => app?.close());

  it('at the cap accepted, one thousandth over refused naming the bucket, at cart update and at order save', async () => {
    let preset: LimitPresetId | null = null;
    const checked: string[] = [];
    for (const c of CASES) {
      const name = `${c.preset} ${c.bucket.id} ${c.customerType}${c.residency ? ` ${c.residency}` : ''} (cap ${c.cap})`;
      if (preset !== c.preset) await setPreset((preset = c.preset));
      await setMeasure(AT_CAP, c.measure, c.cap);
      await setMeasure(STEP, c.measure, 0.001);
      const residency = c.residency ? { residency: c.residency } : {};
      const cart = await call('POST', '/api/cart/create', { license_type: c.customerType });
      expect(cart.status, name).toBe(200);
      const id = cart.result as string;
      const add = (sku: string) => call('POST', `/api/cart/update?cartId=${id}`, { cartItem: { quoteId: id, sku, qty: 1 }, ...residency });

      // Exactly the cap: accepted at cart update, and the meter says it is reached.
      expect(await add(AT_CAP), name).toMatchObject({ status: 200 });
      const meters = await call('GET', `/api/cart/limits?cartId=${id}${c.residency ? `&residency=${c.residency}` : ''}`);
      expect(meters.result.ok, name).toBe(true);
      expect(
        meters.result.meters.find((m: { bucket: string }) => m.bucket === c.bucket.id),
        name,
      ).toMatchObject({ cap: c.cap, in_cart: c.cap, remaining: 0, over: false });

      // One thousandth more: refused at cart update, naming the bucket and the excess.
      const over = await add(STEP);
      expect(over, name).toMatchObject({
        status: 400,
        errorCode: 'purchase_limit',
        meta: { violations: [{ bucket: c.bucket.id, label: c.bucket.label, excess: 0.001 }] },
      });
      expect(over.result, name).toContain(`0.001 ${c.bucket.unit === 'thc_mg' ? 'mg' : 'g'} more ${inSentence(c.bucket.label)}`);

      // Order save: the lines in the order itself (the offline path) meet the same check in the transaction.
      const refused = await call(
        'POST',
        '/api/order/save',
        orderBody({
          license_type: c.customerType,
          ...residency,
          products: [
            { sku: AT_CAP, qty: 1 },
            { sku: STEP, qty: 1 },
          ],
        }),
      );
      expect(refused, name).toMatchObject({
        status: 400,
        errorCode: 'purchase_limit',
        meta: { violations: [{ bucket: c.bucket.id, excess: 0.001 }] },
      });
      expect(refused.result, name).toContain(inSentence(c.bucket.label));
      // The cart at the cap is saved as an order.
      const placed = await call('POST', '/api/order/save', orderBody({ cart_id: id, license_type: c.customerType, ...residency }));
      expect(placed, name).toMatchObject({ status: 200 });
      checked.push(name);
    }
    expect(checked).toHaveLength(CASES.length);
  });

  it('a resident’s statement at cart update lifts Illinois’ non-resident caps; a non-resident is held to them', async () => {
    await setPreset('IL');
    await setMeasure(AT_CAP, 'concentrate_g', 1);
    const cart = async () => {
      const created = await call('POST', '/api/cart/create', { license_type: 'recreational' });
      const id = created.result as string;
      return (qty: number, residency?: Residency) =>
        call('POST', `/api/cart/update?cartId=${id}`, { cartItem: { quoteId: id, sku: AT_CAP, qty }, ...(residency ? { residency } : {}) });
    };
    // 3 g of concentrate: over the 2.5 g of a non-resident (and of a shopper who hasn't said), within a resident's 5 g.
    expect(await (await cart())(3)).toMatchObject({ status: 400, meta: { violations: [{ bucket: 'concentrate', excess: 0.5 }] } });
    expect(await (await cart())(3, 'non_resident')).toMatchObject({
      status: 400,
      meta: { violations: [{ bucket: 'concentrate', excess: 0.5 }] },
    });
    const resident = await cart();
    expect(await resident(3, 'resident')).toMatchObject({ status: 200 });
    expect(await resident(3, 'resident')).toMatchObject({ status: 400, meta: { violations: [{ bucket: 'concentrate', excess: 1 }] } });
    expect(await (await cart())(1, 'martian' as Residency)).toMatchObject({ status: 400 });
  });
});
