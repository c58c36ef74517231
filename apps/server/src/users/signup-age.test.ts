/**
 * The age rule of signing up (issue 14, "Age on every order"): registration and the licence step of
 * an SMS login judge the birthday on today's date in the store's time zone, with the order's own
 * minimum — 21, or the store's medical minimum (setting `age`, 18–21) for a medical customer — so
 * an 18-year-old patient of a store that takes 18 can make the account their orders need. Both
 * databases, through the real routes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { lifecycleHarness, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';

// 03:00 UTC on June 16 is 20:00 on June 15 in Los Angeles (the demo stores' zone).
const EVENING_LA = '2026-06-16T03:00:00.000Z';
const REFUSED_21 = 'Sorry, you must be 21 years old or older to continue.';
const REFUSED_18 = 'Sorry, you must be 18 years old or older to continue.';
const HOST = 'downtown.localhost';

describeEachDatabase('signing up: the age of the store’s date and its medical minimum', (getDb) => {
  let h: LifecycleHarness;
  let ipSeq = 0;
  let phoneSeq = 0;
  const post = async (url: string, payload: Record<string, unknown>) => {
    const res = await h.app.inject({ method: 'POST', url, headers: { host: HOST }, remoteAddress: `10.77.0.${++ipSeq}`, payload });
    return { status: res.statusCode, body: res.json() };
  };
  const register = (birthday: string, licenseType: 'recreational' | 'medical') =>
    post('/api/user/create', {
      firstname: 'Ana',
      lastname: 'Reyes',
      email: `ana.${++phoneSeq}@example.com`,
      phone: `(916) 555-${String(7100 + phoneSeq)}`,
      birthday,
      license_type: licenseType,
      ...(licenseType === 'medical' ? { medcard_number: 'MED-12345', medcard_expiry: '2027-06-30' } : {}),
    });
  /** An SMS login of a new phone up to its licence step, then that step. */
  const licenceStep = async (birthday: string, licenseType: 'recreational' | 'medical') => {
    const phone = `+1916555${String(7500 + ++phoneSeq)}`;
    const code = (await post('/api/user/login', { phone })).body.meta.demo_code;
    const pending = (await post('/api/user/login', { phone, code })).body.meta.pendingToken;
    const card = licenseType === 'medical' ? { medcard_number: 'MED-12345', medcard_expiry: '2027-06-30' } : {};
    return post('/api/user/login', { phone, license_type: licenseType, birthday, pendingToken: pending, ...card });
  };
  const setMedicalMinimum = async (age: number) => {
    const current = await h.get('/api/console/stores/1/settings/sections/age');
    const put = await h.console('PUT', '/api/console/stores/1/settings/sections/age', {
      value: { medicalMinimumAge: age },
      version: current.body.result.version,
    });
    expect(put.status).toBe(200);
  };

  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    await h.at(EVENING_LA);
  });
  afterAll(async () => h?.app.close());

  it('counts the age on the store’s date, not the UTC date', async () => {
    // 2005-06-16: 21 on the UTC date (June 16), still 20 on the store's date (June 15).
    expect(await register('2005-06-16', 'recreational')).toMatchObject({ status: 400, body: { result: REFUSED_21 } });
    expect(await register('2005-06-15', 'recreational')).toMatchObject({ status: 200, body: { result: 'sent' } });
    expect(await licenceStep('2005-06-16', 'recreational')).toMatchObject({ status: 400, body: { result: REFUSED_21 } });
    const made = await licenceStep('2005-06-15', 'recreational');
    expect(made.status).toBe(200);
    expect(made.body.meta.token).toEqual(expect.any(String));
  });

  it('lets an 18-year-old patient sign up where the store takes 18 for medical orders, never as recreational', async () => {
    const eighteen = '2008-06-15';
    // The store's default: 21 for every order, so for every account.
    expect(await register(eighteen, 'medical')).toMatchObject({ status: 400, body: { result: REFUSED_21 } });
    expect(await licenceStep(eighteen, 'medical')).toMatchObject({ status: 400, body: { result: REFUSED_21 } });
    await setMedicalMinimum(18);
    try {
      expect(await register(eighteen, 'medical')).toMatchObject({ status: 200, body: { result: 'sent' } });
      const made = await licenceStep(eighteen, 'medical');
      expect(made.status).toBe(200);
      const me = await h.app.inject({
        method: 'GET',
        url: '/api/user/me',
        headers: { host: HOST, authorization: `Bearer ${made.body.meta.token}` },
      });
      expect(me.json().result).toMatchObject({ birthday: eighteen, license_type: 'medical' });
      // Recreational stays 21; a day short of 18 is refused with the store's own minimum.
      expect(await register(eighteen, 'recreational')).toMatchObject({ status: 400, body: { result: REFUSED_21 } });
      expect(await licenceStep('2008-06-16', 'medical')).toMatchObject({ status: 400, body: { result: REFUSED_18 } });
    } finally {
      await setMedicalMinimum(21);
    }
  });
});
