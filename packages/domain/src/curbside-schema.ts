/**
 * The zod schemas of curbside pickup (./curbside.ts): the store setting `curbside` and the shopper's
 * "I'm here" form, for the server and the console (kept out of the storefront's bundle).
 */
import { z } from 'zod';
import { CURBSIDE_CAR_MAX, CURBSIDE_MESSAGES, type CurbsideSettings } from './curbside.ts';

export const curbsideSettingsSchema = z.object({
  offered: z.boolean({ error: 'offered must be true or false' }),
  bays: z
    .array(z.string().trim().min(1, 'a bay needs a name or number').max(20, 'a bay is at most 20 characters'))
    .max(50, 'at most 50 bays')
    .refine((bays) => new Set(bays).size === bays.length, 'each bay once')
    .default([]),
  instructions: z.string().trim().max(500, 'instructions are at most 500 characters').default(''),
}) satisfies z.ZodType<CurbsideSettings, unknown>;

/** The shopper's form: the car's description, the bay, or both. */
export const curbsideArrivalSchema = z
  .object({
    car: z.string().trim().max(CURBSIDE_CAR_MAX, CURBSIDE_MESSAGES.carTooLong).default(''),
    bay: z.string().trim().max(20, CURBSIDE_MESSAGES.unknownBay).default(''),
  })
  .refine((v) => v.car !== '' || v.bay !== '', { message: CURBSIDE_MESSAGES.carOrBay, path: ['car'] });
