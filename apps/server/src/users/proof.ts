/**
 * Who proved a customer's phone (issue 10, account takeover).
 *
 * Decision: an account is only created after its phone answered an SMS code (registration and the
 * phone login both), so new accounts are proven from birth (`phone_verified_at` set). Accounts made
 * before that (migration 0009 leaves them null) may have been made by a stranger for someone
 * else's phone, with the stranger's e-mail and password. For those:
 *  - password login is refused (after the password was checked, so the refusal reveals nothing to
 *    someone without it) with a message to log in by SMS code;
 *  - the first SMS-code login proves the phone: in one transaction the account is marked proven,
 *    and whatever was set before the proof by whoever made it — the password, the e-mail (it gets
 *    password reset links), unused reset links and every open session — is dropped. The owner
 *    sets an e-mail again in My account. Orders and addresses stay (they are the account's).
 * Access tokens issued before the proof carry no `pv` (phone proven) claim, and authOf refuses such a
 * token once the row says the phone is proven: the stranger's open sessions end with the proof.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { CustomerRow } from './customers.ts';

export const PROOF_MESSAGES = {
  phoneNotProven: 'Please log in with the SMS code sent to your phone: this account’s phone number has not been confirmed yet.',
} as const;

/** The customer with the phone marked proven (now), credentials from before the proof dropped. */
export async function markPhoneProven(db: Kysely<Database>, customer: CustomerRow, now: Date): Promise<CustomerRow> {
  if (customer.phone_verified_at) return customer;
  const iso = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('customers')
      .set({ phone_verified_at: iso, password_hash: null, email: null, updated_at: iso })
      .where('id', '=', customer.id)
      // Conditional: of two concurrent first proofs only one drops (and nothing set after it).
      .where('phone_verified_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!updated) return (await trx.selectFrom('customers').selectAll().where('id', '=', customer.id).executeTakeFirstOrThrow()) as CustomerRow;
    await trx.updateTable('refresh_tokens').set({ revoked_at: iso }).where('customer_id', '=', customer.id).where('revoked_at', 'is', null).execute();
    await trx.updateTable('password_reset_tokens').set({ used_at: iso }).where('customer_id', '=', customer.id).where('used_at', 'is', null).execute();
    return updated as CustomerRow;
  });
}
