/**
 * The store setting `loyalty` (issue 30): the store's points programme, with the state's preset as
 * the starting value (New York: only medical customers earn; elsewhere everyone does, 1 point per
 * dollar as before). Model and presets with sources: packages/domain/src/loyalty/programme.ts;
 * docs/operators/loyalty.md.
 */
import { loyaltyOfPreset, loyaltyPresetFor, loyaltyProgrammeSchema } from '@verdant/domain';
import { defineSection } from '../store-settings/registry.ts';

export const LOYALTY_SECTION = defineSection({
  name: 'loyalty',
  title: 'Loyalty programme',
  schema: loyaltyProgrammeSchema,
  initial: (store) => loyaltyOfPreset(loyaltyPresetFor(store.dispensarySettings.place_info.address.region_code)),
});
