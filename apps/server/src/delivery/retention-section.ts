/**
 * The store setting `record-retention` (issue 29 "Paperwork"): the whole years a store keeps its
 * delivery records (trips, stops with the ID check and signature, receipts), with the state's preset
 * as the starting value (California 7 years, New Jersey 4, elsewhere 7). Presets and sources:
 * packages/domain/src/record-retention.ts; docs/operators/delivery.md "Paperwork".
 */
import { recordRetentionOfPreset, recordRetentionPresetFor, recordRetentionSchema } from '@verdant/domain';
import { defineSection } from '../store-settings/registry.ts';

export const RECORD_RETENTION_SECTION = defineSection({
  name: 'record-retention',
  title: 'Delivery record retention',
  schema: recordRetentionSchema,
  initial: (store) => recordRetentionOfPreset(recordRetentionPresetFor(store.dispensarySettings.place_info.address.region_code)),
});
