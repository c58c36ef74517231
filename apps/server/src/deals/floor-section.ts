/**
 * The store setting `deal-floor` (issue 28): the lowest unit price a deal may leave, one cent by
 * default and never less (packages/domain/src/deals/floor.ts). Read by the cart's totals and the
 * order (./apply.ts), the console's preview, check and trace (./preview.ts, ./trace.ts) and the
 * pages and the offline snapshot (./page-source.ts), so each says the same price.
 */
import { DEFAULT_DEAL_FLOOR_SETTINGS, dealFloorSettingsSchema } from '@verdant/domain';
import { defineSection } from '../store-settings/registry.ts';

export const DEAL_FLOOR_SECTION = defineSection({
  name: 'deal-floor',
  title: 'Lowest price after a deal',
  schema: dealFloorSettingsSchema,
  initial: () => ({ ...DEFAULT_DEAL_FLOOR_SETTINGS }),
});
