/**
 * The store setting `curbside` (issue 29 "The shopper"): whether the store offers curbside pickup
 * (default: no), the bays a shopper may pick, and the instructions the "I'm here" page shows.
 */
import { DEFAULT_CURBSIDE_SETTINGS, curbsideSettingsSchema } from '@verdant/domain';
import { defineSection } from '../../store-settings/registry.ts';

export const CURBSIDE_SECTION = defineSection({
  name: 'curbside',
  title: 'Curbside pickup',
  schema: curbsideSettingsSchema,
  initial: () => ({ ...DEFAULT_CURBSIDE_SETTINGS, bays: [] }),
});
