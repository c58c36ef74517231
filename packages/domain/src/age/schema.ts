/** The zod schema of the `age` settings section, apart from the rules (./index.ts) so the checkout does not load zod. */
import { z } from 'zod';
import { AGE_THRESHOLD, MEDICAL_MINIMUM_AGE_FLOOR } from '../license.ts';
import type { AgeSettings } from './settings.ts';

/** The store setting (section `age`): the minimum age of a medical order. Recreational is always 21. */
export const ageSettingsSchema = z.object({
  medicalMinimumAge: z
    .number({ error: 'medicalMinimumAge must be a whole number from 18 to 21' })
    .int('medicalMinimumAge must be a whole number from 18 to 21')
    .min(MEDICAL_MINIMUM_AGE_FLOOR, 'medicalMinimumAge must be at least 18')
    .max(AGE_THRESHOLD, 'medicalMinimumAge must be at most 21'),
}) satisfies z.ZodType<AgeSettings>;
