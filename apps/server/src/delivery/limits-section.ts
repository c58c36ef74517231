/**
 * The store setting `delivery-trips` (issue 29): what one delivery trip may carry — goods value,
 * cannabis weight, orders — with the state's preset as the starting value (California $10,000 of
 * goods; Michigan 15 oz per driver; elsewhere none). Presets, their sources and the refusal's words:
 * packages/domain/src/delivery-trips.ts; docs/operators/delivery.md.
 */
import { tripLimitPresetFor, tripLimitsOfPreset, tripLimitsSchema } from '@verdant/domain';
import { defineSection } from '../store-settings/registry.ts';

export const DELIVERY_TRIPS_SECTION = defineSection({
  name: 'delivery-trips',
  title: 'Delivery trip limits',
  schema: tripLimitsSchema,
  initial: (store) => tripLimitsOfPreset(tripLimitPresetFor(store.dispensarySettings.place_info.address.region_code)),
});
