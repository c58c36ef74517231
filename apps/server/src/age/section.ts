/**
 * The store setting `age` (issue 14, "Age on every order"): the minimum age of a medical order,
 * 18–21. Recreational orders always need 21 (spec §9). Default 21: every demo store keeps today's
 * rule; a store in a state that licenses 18-year-old patients to buy sets 18 in the console or in
 * the stores file (`settings.age`).
 */
import { DEFAULT_AGE_SETTINGS, ageSettingsSchema } from '@verdant/domain';
import { defineSection } from '../store-settings/registry.ts';

export const AGE_SECTION = defineSection({
  name: 'age',
  title: 'Age check',
  schema: ageSettingsSchema,
  initial: () => ({ ...DEFAULT_AGE_SETTINGS }),
});
