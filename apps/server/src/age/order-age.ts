/**
 * The age check of an order (issue 14, "Age on every order"), inside the order's transaction:
 * whose date of birth counts and whether the shopper is old enough on the order date in the
 * store's zone (@verdant/domain checkOrderAge, the rule the checkout form applies too).
 *
 * Whose date of birth: a logged-in customer's account birthday (given at sign-up, never changed by
 * the shopper: me-routes refuses it), whatever the payload says, so a customer cannot order with
 * another date; a customer whose account has none (accounts made before birthdays were required)
 * and a guest give it with the order. Nothing else — no age-gate cookie — is an age statement.
 */
import { checkOrderAge, DEFAULT_AGE_SETTINGS, type AgeSettings, type LicenseType, type Store } from '@verdant/domain';
import type { Db } from '../cart/repository.ts';
import { ApiError } from '../http/envelope.ts';

export interface OrderAge {
  birthday: string;
  minimumAge: number;
}

export async function orderAge(
  trx: Db,
  store: Store,
  given: string | null | undefined,
  customerId: number | null,
  licenseType: LicenseType,
  now: Date,
  settings: AgeSettings = DEFAULT_AGE_SETTINGS,
): Promise<OrderAge> {
  const account =
    customerId != null
      ? ((await trx.selectFrom('customers').select('birthday').where('id', '=', customerId).executeTakeFirst())?.birthday ?? null)
      : null;
  const birthday = account || given;
  const check = checkOrderAge({ birthday, licenseType, now, timeZone: store.dispensarySettings.place_info.timezone, settings });
  if (check.problem) throw new ApiError(400, check.problem, { errorCode: check.age == null ? 'birthday_invalid' : 'under_age' });
  return { birthday: (birthday as string).trim(), minimumAge: check.minimumAge };
}
