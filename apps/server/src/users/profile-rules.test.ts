/**
 * Issue 11, both databases: the spec §5 rules of the account's own data on every endpoint that
 * takes them —
 *   - a birthday is a real date of a living adult (not in the future, at most 120 years ago:
 *     "Please enter a valid date"), 21 or older: registration (both steps) and the phone login's
 *     licence step;
 *   - every person's name has at least 2 letters: registration, the account's addresses, the
 *     order's personal details, and the name given at onboarding;
 *   - a phone account without a name gives it once at onboarding (POST /api/user/me, see
 *     me-routes.ts for the decision), and cannot change it afterwards.
 * The app's clock is REFERENCE_DATE (2026-06-15), so the oldest birthday taken is 1906-06-15.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_DATE, commerceApp, loginCustomer, orderBody, pin, Shopper } from '../../test-support/cart/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { ME_MESSAGES } from './me-routes.ts';

const DATE = 'Please enter a valid date';
const SHORT = 'Name must have at least 2 letters';
const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';

describeEachDatabase('account data rules (issue 11)', (getDb) => {
  let app: FastifyInstance;
  let ip = 0;
  beforeAll(async () => {
    app = await commerceApp(getDb());
    await pin(getDb().db, 1, JAR, { price: 2699, special: null, tiers: [], stock: 1000 });
  });
  afterAll(async () => app?.close());

  /** Each test its own client address, so the per-IP send limits of other tests never answer. */
  function client() {
    const remoteAddress = `10.61.0.${++ip}`;
    return (method: 'GET' | 'POST', url: string, payload?: unknown, token?: string) =>
      app
        .inject({ method, url, remoteAddress, headers: { host: 'downtown.localhost', ...(token ? { authorization: `Bearer ${token}` } : {}) }, payload: payload as any })
        .then((r) => ({ status: r.statusCode, body: r.json() }));
  }
  const form = (phone: string, over: Record<string, unknown> = {}) => ({
    firstname: 'Ana',
    lastname: 'Reyes',
    email: `a${phone}@example.com`,
    phone,
    birthday: '1990-01-01',
    license_type: 'recreational',
    ...over,
  });

  it('the clock of these tests is 2026-06-15', () => {
    expect(REFERENCE_DATE.toISOString().slice(0, 10)).toBe('2026-06-15');
  });

  describe('birthday', () => {
    it('registration refuses 1800-01-01, a future date and one over 120 years ago, at the form step and the code step', async () => {
      const call = client();
      for (const birthday of ['1800-01-01', '1906-06-14', '2027-01-01', '1990-02-30', 'yesterday']) {
        expect(await call('POST', '/api/user/create', form('9165550701', { birthday }))).toMatchObject({ status: 400, body: { result: DATE } });
        expect(await call('POST', '/api/user/create', form('9165550701', { birthday, code: '123456' }))).toMatchObject({ status: 400, body: { result: DATE } });
      }
      expect(await call('POST', '/api/user/create', form('9165550701', { birthday: '' }))).toMatchObject({ status: 400, body: { result: 'Please enter your birthday' } });
      expect(await call('POST', '/api/user/create', form('9165550701', { birthday: '2010-01-01' }))).toMatchObject({ status: 400, body: { result: 'Sorry, you must be 21 years old or older to continue.' } });
      // The oldest birthday taken: exactly 120 years before today.
      const sent = await call('POST', '/api/user/create', form('9165550701', { birthday: '1906-06-15' }));
      expect(sent).toMatchObject({ status: 200, body: { result: 'sent' } });
      const made = await call('POST', '/api/user/create', form('9165550701', { birthday: '1906-06-15', code: sent.body.meta.demo_code }));
      expect(made.status).toBe(200);
      expect((await call('GET', '/api/user/me', undefined, made.body.meta.token)).body.result.birthday).toBe('1906-06-15');
    });

    it('the phone login\'s licence step refuses 1800-01-01 the same way', async () => {
      const call = client();
      const sent = await call('POST', '/api/user/login', { phone: '9165550702' });
      const confirmed = await call('POST', '/api/user/login', { phone: '9165550702', code: sent.body.meta.demo_code });
      const pendingToken = confirmed.body.meta.pendingToken;
      expect(pendingToken).toBeTruthy();
      const step = (birthday: string) => call('POST', '/api/user/login', { phone: '9165550702', license_type: 'recreational', birthday, pendingToken });
      expect(await step('1800-01-01')).toMatchObject({ status: 400, body: { result: DATE } });
      expect(await step('2030-01-01')).toMatchObject({ status: 400, body: { result: DATE } });
      expect((await step('1960-03-03')).status).toBe(200);
    });
  });

  describe('names of at least 2 letters', () => {
    it('registration refuses a one-letter first or last name', async () => {
      const call = client();
      expect(await call('POST', '/api/user/create', form('9165550703', { firstname: 'J' }))).toMatchObject({ status: 400, body: { result: `firstname: ${SHORT}` } });
      expect(await call('POST', '/api/user/create', form('9165550703', { lastname: 'R.' }))).toMatchObject({ status: 400, body: { result: `lastname: ${SHORT}` } });
      expect(await call('POST', '/api/user/create', form('9165550703', { firstname: 'J', code: '123456' }))).toMatchObject({ status: 400, body: { result: `firstname: ${SHORT}` } });
      expect((await call('POST', '/api/user/create', form('9165550703', { firstname: 'Jo' }))).status).toBe(200);
    });

    it('an address refuses a one-letter recipient name or a two-letter address name; empty ones are fine', async () => {
      const call = client();
      const c = await loginCustomer(app, '9165550704');
      const address = { street: '1001 K Street', city: 'Sacramento', postcode: '95814' };
      expect(await call('POST', '/api/user/me', { addresses: [{ ...address, firstname: 'A' }] }, c.token)).toMatchObject({ status: 400, body: { result: `addresses.0.firstname: ${SHORT}` } });
      expect(await call('POST', '/api/user/me', { addresses: [{ ...address, lastname: 'B' }] }, c.token)).toMatchObject({ status: 400, body: { result: `addresses.0.lastname: ${SHORT}` } });
      expect(await call('POST', '/api/user/me', { addresses: [{ ...address, title: 'Ho' }] }, c.token)).toMatchObject({ status: 400, body: { result: 'addresses.0.title: Name must have at least 3 letters' } });
      expect((await call('GET', '/api/user/me', undefined, c.token)).body.result.addresses).toEqual([]);
      const saved = await call('POST', '/api/user/me', { addresses: [{ ...address, title: 'Home', firstname: 'Al', lastname: '' }] }, c.token);
      expect(saved.status).toBe(200);
      expect(saved.body.result.addresses).toMatchObject([{ title: 'Home', firstname: 'Al' }]);
    });

    it('an order refuses a one-letter first name in its personal details', async () => {
      const s = new Shopper(app);
      const person = { firstName: 'J', lastName: 'Reyes', emailAddress: 'j@example.com', phone: '9165550705' };
      const r = await s.saveOrder(orderBody({ products: [{ sku: JAR, qty: 1 }], personal_details: person }));
      expect(r).toMatchObject({ status: 400, result: `firstName: ${SHORT}` });
    });
  });

  describe('the name of a phone account (onboarding)', () => {
    it('a new phone account has no name; it gives one once, both parts, by the same rule', async () => {
      const call = client();
      const c = await loginCustomer(app, '9165550706');
      const me = await call('GET', '/api/user/me', undefined, c.token);
      expect(me.body.result).toMatchObject({ firstname: null, lastname: null, phone: '+19165550706' });
      expect(await call('POST', '/api/user/me', { firstname: 'J', lastname: 'Reyes' }, c.token)).toMatchObject({ status: 400, body: { result: `firstname: ${SHORT}` } });
      expect(await call('POST', '/api/user/me', { firstname: 'Jo' }, c.token)).toMatchObject({ status: 400, body: { result: ME_MESSAGES.nameBothRequired } });
      const named = await call('POST', '/api/user/me', { firstname: ' Jo ', lastname: 'Reyes' }, c.token);
      expect(named).toMatchObject({ status: 200, body: { result: { firstname: 'Jo', lastname: 'Reyes' } } });
      // The same save again (a retry) is fine; another name is not: spec §3, only e-mail and addresses change.
      expect((await call('POST', '/api/user/me', { firstname: 'Jo', lastname: 'Reyes' }, c.token)).status).toBe(200);
      expect(await call('POST', '/api/user/me', { firstname: 'Joanna', lastname: 'Reyes' }, c.token)).toMatchObject({ status: 400, body: { result: ME_MESSAGES.nameAlreadyGiven } });
      expect((await call('GET', '/api/user/me', undefined, c.token)).body.result).toMatchObject({ firstname: 'Jo', lastname: 'Reyes' });
    });

    it('a registered account (named at registration) cannot rename itself', async () => {
      const call = client();
      const sent = await call('POST', '/api/user/create', form('9165550707'));
      const made = await call('POST', '/api/user/create', form('9165550707', { code: sent.body.meta.demo_code }));
      expect(await call('POST', '/api/user/me', { firstname: 'Eve', lastname: 'Other' }, made.body.meta.token)).toMatchObject({ status: 400, body: { result: ME_MESSAGES.nameAlreadyGiven } });
    });

    it('of 6 different onboarding names sent in parallel, exactly one is kept', async () => {
      const call = client();
      const c = await loginCustomer(app, '9165550708');
      const names = ['Ana', 'Bea', 'Cleo', 'Dora', 'Eva', 'Fay'];
      const answers = await Promise.all(names.map((firstname) => call('POST', '/api/user/me', { firstname, lastname: 'Reyes' }, c.token)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 400).every((a) => a.body.result === ME_MESSAGES.nameAlreadyGiven)).toBe(true);
      const kept = (await call('GET', '/api/user/me', undefined, c.token)).body.result.firstname;
      expect(answers.find((a) => a.status === 200)!.body.result.firstname).toBe(kept);
    });
  });
});
