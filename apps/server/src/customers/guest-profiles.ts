/**
 * Issue 31, the `data-retention` setting's "Create customer profiles for guests" (off in every preset:
 * the "anonymous market"). On, a guest's order is filed under the customer profile of its phone
 * number in the store — the account of that number when there is one, else a guest profile made for
 * it — so staff find the guest in the directory with their orders, and the order counts as that
 * person's (new or returning, tier, purchase-limit window).
 *
 * A guest profile (`created_from = 'guest_order'`) has no password and an unproven phone
 * (`phone_verified_at` null): it cannot be logged into until the number's holder logs in with the SMS
 * code, which makes it their account (users/login-routes.ts finds it by phone). Its orders are those
 * placed with that number, whose order messages already went to that number. Nothing else is kept:
 * names and e-mail only as the order gave them, no marketing consent (the shopper never gave one).
 *
 * In the order's own transaction, once per order; two guest orders of one number at once make one
 * profile (the unique store × phone index, ON CONFLICT DO NOTHING, then read).
 */
import { guestProfilesAllowed, type Store } from '@verdant/domain';
import type { Db } from '../orders/lifecycle/store-facts.ts';
import { readSection } from '../store-settings/read.ts';
import { DATA_RETENTION_SECTION } from '../privacy/section.ts';
import { toE164 } from '../users/phone.ts';
import { survivorOf } from '../users/customers.ts';

export interface GuestOrderFacts {
  orderId: number;
  phone: string | undefined;
  email: string | undefined;
  firstName: string | undefined;
  lastName: string | undefined;
  licenseType: 'recreational' | 'medical';
  birthday: string | null;
}

/** File a guest's order under its phone's profile when the store keeps guest profiles; the profile id, or null. */
export async function fileGuestOrder(trx: Db, store: Store, facts: GuestOrderFacts, now: Date): Promise<number | null> {
  if (!guestProfilesAllowed((await readSection(trx, store, DATA_RETENTION_SECTION)).value)) return null;
  const phone = toE164(facts.phone ?? '');
  if (!phone) return null;
  const iso = now.toISOString();
  const email = facts.email?.trim().toLowerCase() || null;
  // An e-mail another profile of the store already has is left out: one address, one profile to reach.
  const emailFree = email ? !(await trx.selectFrom('customers').select('id').where('store_id', '=', store.storeId).where('email', '=', email).executeTakeFirst()) : false;
  await trx
    .insertInto('customers')
    .values({
      store_id: store.storeId,
      phone,
      email: emailFree ? email : null,
      firstname: facts.firstName?.trim() || null,
      lastname: facts.lastName?.trim() || null,
      license_type: facts.licenseType,
      birthday: facts.birthday,
      medcard_number: null,
      medcard_expiry: null,
      created_from: 'guest_order',
      password_hash: null,
      phone_verified_at: null,
      created_at: iso,
      updated_at: iso,
    })
    .onConflict((oc) => oc.columns(['store_id', 'phone']).doNothing())
    .execute();
  const found = await trx.selectFrom('customers').selectAll().where('store_id', '=', store.storeId).where('phone', '=', phone).executeTakeFirst();
  // A number merged into another profile files its orders under the survivor (customers/merge.ts).
  const profile = await survivorOf(trx, found);
  if (!profile) return null;
  await trx.updateTable('orders').set({ customer_id: profile.id }).where('id', '=', facts.orderId).where('customer_id', 'is', null).execute();
  return profile.id;
}
