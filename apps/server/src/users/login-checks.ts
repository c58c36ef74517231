/** Checks shared by the login and the registration routes. */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { birthdayRule, storeOffers, type LicenseType } from '@verdant/domain';
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
 * date"), 21 or older (the age gate, enforced here, not only in the browser: spec §3 Auth step).
 */
export function assertBirthday(birthday: string, now: Date): void {
  const problem = birthdayRule(now)(birthday);
  if (problem) throw new ApiError(400, problem);
}
