/** Checks shared by the login and the registration routes. */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { birthdayRule, minimumAgeFor, storeOffers, type LicenseType } from '@verdant/domain';
import { AGE_SECTION } from '../age/section.ts';
import { ApiError } from '../http/envelope.ts';

export const storeIdSchema = z.coerce.number().int().positive().optional();
export const orderTypeSchema = z.enum(['pickup', 'delivery']).default('pickup');

/** The body's storeId, when given, must be the store the request is for (host or path prefix). */
export function assertStore(request: FastifyRequest, storeId: number | undefined): void {
  if (storeId != null && storeId !== request.store.storeId) throw new ApiError(400, `storeId ${storeId} is not the store of this address`);
}

export function assertOffered(request: FastifyRequest, licenseType: LicenseType): void {
  if (!storeOffers(request.store, licenseType)) throw new ApiError(400, `This store does not offer ${licenseType} products`);
}

/**
 * The birthday of every endpoint taking one: the domain's rule, as the browser form applies it — a
 * real date of a living adult (not in the future, at most 120 years ago: "Please provide valid
 * date"), old enough on today's date in the store's time zone (the age gate, enforced here, not
 * only in the browser: spec §3 Auth step): 21, or for a medical customer the store's medical
 * minimum (issue 14, setting `age`, 18–21), as the order's own check (../age/order-age.ts).
 */
export async function assertBirthday(request: FastifyRequest, birthday: string, licenseType: LicenseType, now: Date): Promise<void> {
  const store = request.store;
  const settings = (await request.server.storeSettings.get(store.storeId, AGE_SECTION)).value;
  const problem = birthdayRule(now, {
    timeZone: store.dispensarySettings.place_info.timezone,
    minimumAge: minimumAgeFor(licenseType, settings),
  })(birthday);
  if (problem) throw new ApiError(400, problem);
}
