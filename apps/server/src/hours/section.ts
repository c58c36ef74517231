/**
 * The store setting `hours` (issue 14 "Hours and time slots"): weekly hours per order type, dated
 * exceptions, slot rules and what happens outside ordering hours (@verdant/domain hours/).
 * Default (today's behaviour for the demo stores): the store's opening hours (place_info.hours) for
 * pickup and delivery, no exceptions, no slot capacity limit, and an order outside hours is taken
 * for the next slot rather than refused, so nothing a shopper could do before is refused now.
 */
import { hoursFromOpeningHours, hoursSettingsSchema } from '@verdant/domain';
import { defineSection } from '../store-settings/registry.ts';

export const HOURS = defineSection({
  name: 'hours',
  title: 'Hours and time slots',
  schema: hoursSettingsSchema,
  initial: (store) => hoursFromOpeningHours(store.dispensarySettings.place_info.hours),
});
