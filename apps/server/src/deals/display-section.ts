/**
 * The store setting `deal-display` (issue 28 "Display rules per store"): which display preset the
 * storefront follows — `auto` (default: the store's state from its address, Massachusetts adult use
 * only on recreational pages), or `default`, `CA`, `MA_ADULT_USE` chosen by the store. Only the words
 * and how prices are drawn change; the server applies the same deals either way. Presets and where
 * each rule comes from: packages/domain/src/deals/words.ts, docs/operators/deals.md.
 */
import { DEFAULT_DEAL_DISPLAY_SETTINGS, dealDisplaySettingsSchema } from '@verdant/domain';
import { defineSection } from '../store-settings/registry.ts';

export const DEAL_DISPLAY_SECTION = defineSection({
  name: 'deal-display',
  title: 'How deals are shown',
  schema: dealDisplaySettingsSchema,
  initial: () => ({ ...DEFAULT_DEAL_DISPLAY_SETTINGS }),
});
