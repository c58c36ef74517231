/**
 * Issue 31, both databases: the data-retention setting's guest profiles. Off (every preset): a guest's
 * order makes no profile. On: it is filed under its phone's profile — made once however the number is
 * typed, even for a burst of orders at once — or under the account of that number; the directory finds
 * the guest; a guest profile cannot be logged into by password.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dataRetentionOfPreset } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { lifecycleHarness, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { loginCustomer } from '../../test-support/cart/testing.ts';

describeEachDatabase('guest profiles', (getDb) => {
  let h: LifecycleHarness;
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
  });
  afterAll(async () => {
    await h?.app.close();
  });

  const setGuestProfiles = async (on: boolean) => {
    const current = (await h.get('/api/console/stores/1/settings/sections/data-retention')).body.result;
    const saved = await h.console('PUT', '/api/console/stores/1/settings/sections/data-retention', {
      value: { ...dataRetentionOfPreset('CA'), preset: 'custom', guestProfiles: on },
      version: current.version,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  };
  const guestOrder = (phone: string, firstName = 'Gia') =>
    h.place({ body: { personal_details: { firstName, lastName: 'Guest', emailAddress: `gia.${phone.replace(/\D/g, '')}@example.com`, phone } } });
  const customerOfOrder = async (id: number) =>
    (await h.db.selectFrom('orders').select('customer_id').where('id', '=', id).executeTakeFirstOrThrow()).customer_id;
  const profilesOf = (e164: string) => h.db.selectFrom('customers').selectAll().where('store_id', '=', 1).where('phone', '=', e164).execute();

  it('off (the presets): a guest order makes no profile', async () => {
    expect(dataRetentionOfPreset('CA').guestProfiles).toBe(false);
    const o = await guestOrder('(916) 555-0401');
    expect(await customerOfOrder(o.id)).toBeNull();
    expect(await profilesOf('+19165550401')).toEqual([]);
  });

  it('on: a burst of guest orders of one number makes one profile and files them all under it', async () => {
    await setGuestProfiles(true);
    const typed = ['(916) 555-0402', '916-555-0402', '+1 916 555 0402', '9165550402', '(916) 555-0402', '1 (916) 555-0402'];
    const orders = await Promise.all(typed.map((phone) => guestOrder(phone)));
    const profiles = await profilesOf('+19165550402');
    expect(profiles).toHaveLength(1);
    expect(profiles[0]).toMatchObject({ created_from: 'guest_order', password_hash: null, phone_verified_at: null, firstname: 'Gia', lastname: 'Guest', license_type: 'recreational' });
    for (const o of orders) expect(await customerOfOrder(o.id)).toBe(profiles[0]!.id);
    // Staff find the guest in the directory, with their orders.
    const found = await h.get('/api/console/stores/1/customers?q=9165550402');
    expect(found.status).toBe(200);
    expect(found.body.result.items.map((c: { id: number }) => c.id)).toEqual([profiles[0]!.id]);
    const profile = await h.get(`/api/console/stores/1/customers/${profiles[0]!.id}`);
    expect(profile.body.result.orders.count).toBe(typed.length);
    // No password to log in with: a password login is refused.
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { host: 'downtown.localhost' },
      payload: { email: 'gia.9165550402@example.com', password: 'anything-at-all-1' },
    });
    expect(login.statusCode, login.body).toBe(400);
    expect(login.json().result).toBe('The e-mail address or password is incorrect.');
  });

  it('on: a guest order with an account’s number is filed under that account', async () => {
    const account = await loginCustomer(h.app, '9165550403');
    const o = await guestOrder('(916) 555-0403', 'Ada');
    expect(await customerOfOrder(o.id)).toBe(account.customerId);
    expect(await profilesOf('+19165550403')).toHaveLength(1);
    await setGuestProfiles(false);
  });
});
