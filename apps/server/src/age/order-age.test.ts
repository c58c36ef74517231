/**
 * Age on every order (issue 14), both databases, through the real order route: a guest order
 * without a date of birth is refused with the spec's words, the age counts on the order date in the
 * store's time zone (America/Los_Angeles for the demo stores), a store may let 18-year-olds place
 * medical orders, a customer's account birthday is the one that counts, the order keeps what it was
 * checked with and the console's order detail shows the check. Nothing is written by a refusal.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, loginCustomer } from '../../test-support/cart/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { JAR, lifecycleHarness, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';

// 03:00 UTC on June 16 is 20:00 on June 15 in Los Angeles: the store's date is the 15th.
const EVENING_LA = '2026-06-16T03:00:00.000Z';
const REFUSED_21 = 'Sorry, you must be 21 years old or older to continue.';

describeEachDatabase('age on every order', (getDb) => {
  let h: LifecycleHarness;
  const orderCount = async () =>
    Number(
      (
        await h.db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** POST /api/order/save straight (the harness's place() throws on a refusal). */
  const save = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/order/save',
      headers: { host: 'downtown.localhost', ...headers },
      payload: {
        idempotency_key: crypto.randomUUID(),
        order_type: 'pickup',
        personal_details: { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0101' },
        payment_method: 'cashondelivery',
        products: [{ sku: JAR, qty: 1 }],
        ...body,
      },
    });
    return { status: res.statusCode, body: res.json() };
  };

  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    await h.at(EVENING_LA);
  });
  afterAll(async () => h?.app.close());

  it('refuses a guest order without a date of birth, or with one that is not a date, and writes nothing', async () => {
    const before = await orderCount();
    expect(await save({})).toMatchObject({ status: 400, body: { code: 400, result: 'Please enter your birthday' } });
    expect(await save({ birthday: null })).toMatchObject({ status: 400, body: { result: 'Please enter your birthday' } });
    expect(await save({ birthday: '' })).toMatchObject({ status: 400, body: { result: 'Please enter your birthday' } });
    for (const bad of ['2000-02-30', '06/15/2000', '2026-06-16', '1890-01-01'])
      expect(await save({ birthday: bad }), bad).toMatchObject({ status: 400, body: { result: 'Please enter a valid date' } });
    expect(await save({ birthday: 19900101 })).toMatchObject({ status: 400 });
    // An age-gate cookie is no age statement.
    expect(await save({}, { cookie: 'age_verified=1; verdant_age=21' })).toMatchObject({
      status: 400,
      body: { result: 'Please enter your birthday' },
    });
    expect(await orderCount()).toBe(before);
  });

  it('refuses a guest of 20 years 364 days in the store’s zone and takes one who turns 21 there today', async () => {
    const before = await orderCount();
    // 2005-06-16: 21 on the UTC date (June 16), still 20 on the store's date (June 15).
    expect(await save({ birthday: '2005-06-16' })).toMatchObject({ status: 400, body: { result: REFUSED_21, errorCode: 'under_age' } });
    expect(await orderCount()).toBe(before);
    const placed = await save({ birthday: '2005-06-15' });
    expect(placed.status).toBe(200);
    const row = await h.db
      .selectFrom('orders')
      .select(['birthday', 'minimum_age', 'license_type'])
      .where('id', '=', placed.body.result.order_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ birthday: '2005-06-15', minimum_age: 21, license_type: 'recreational' });
    // The console's order detail shows the check as it was made.
    const detail = await h.get(`/api/console/stores/1/orders/${placed.body.result.order_id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.result.age_check).toEqual({
      birthday: '2005-06-15',
      order_date: '2026-06-15',
      age: 21,
      minimum_age: 21,
      passed: true,
    });
    expect(detail.body.result.customer).toMatchObject({ birthday: '2005-06-15', age_on_order_date: 21 });
  });

  it('takes a medical order of an 18-year-old only where the store allows it, never a recreational one', async () => {
    const eighteen = '2008-06-15';
    const medical = { license_type: 'medical', birthday: eighteen };
    expect(await save(medical)).toMatchObject({ status: 400, body: { result: REFUSED_21 } });
    const put = await h.console('PUT', '/api/console/stores/1/settings/sections/age', { value: { medicalMinimumAge: 18 }, version: 0 });
    expect(put.status).toBe(200);
    try {
      const placed = await save(medical);
      expect(placed.status).toBe(200);
      expect(placed.body.result.license_type).toBe('medical');
      const detail = await h.get(`/api/console/stores/1/orders/${placed.body.result.order_id}`);
      expect(detail.body.result.age_check).toEqual({
        birthday: eighteen,
        order_date: '2026-06-15',
        age: 18,
        minimum_age: 18,
        passed: true,
      });
      expect(await save({ birthday: eighteen })).toMatchObject({ status: 400, body: { result: REFUSED_21 } });
      expect(await save({ license_type: 'medical', birthday: '2008-06-16' })).toMatchObject({
        status: 400,
        body: { result: 'Sorry, you must be 18 years old or older to continue.' },
      });
      // The setting is 18 to 21 only.
      expect(
        (
          await h.console('PUT', '/api/console/stores/1/settings/sections/age', {
            value: { medicalMinimumAge: 16 },
            version: put.body.result.version,
          })
        ).status,
      ).toBe(400);
    } finally {
      const current = await h.get('/api/console/stores/1/settings/sections/age');
      await h.console('PUT', '/api/console/stores/1/settings/sections/age', {
        value: { medicalMinimumAge: 21 },
        version: current.body.result.version,
      });
    }
  });

  it('judges a customer by the account’s birthday, whatever the order says', async () => {
    const { token, customerId } = await loginCustomer(h.app, '(916) 555-0142');
    // No birthday sent: the account's (1990-01-01) counts and is kept on the order.
    const placed = await save({}, bearer(token));
    expect(placed.status).toBe(200);
    expect(
      await h.db.selectFrom('orders').select('birthday').where('id', '=', placed.body.result.order_id).executeTakeFirstOrThrow(),
    ).toEqual({
      birthday: '1990-01-01',
    });
    // An account that says 20: an adult's date in the order does not help.
    await h.db.updateTable('customers').set({ birthday: '2005-06-16' }).where('id', '=', customerId).execute();
    expect(await save({ birthday: '1980-01-01' }, bearer(token))).toMatchObject({ status: 400, body: { result: REFUSED_21 } });
    // An account without a birthday (made before they were asked) gives it with the order.
    await h.db.updateTable('customers').set({ birthday: null }).where('id', '=', customerId).execute();
    expect(await save({}, bearer(token))).toMatchObject({ status: 400, body: { result: 'Please enter your birthday' } });
    expect((await save({ birthday: '1980-01-01' }, bearer(token))).status).toBe(200);
  });
});
