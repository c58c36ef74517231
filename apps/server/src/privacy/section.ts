/**
 * The store setting `data-retention` (issue 31): how long ID and medical card images are kept after
 * staff decided on them (0: not kept), how long sales records are kept, whether guests get customer
 * profiles; the state's preset is the starting value. Presets and sources:
 * packages/domain/src/data-retention.ts; docs/operators/retention.md.
 */
import { dataRetentionOfPreset, dataRetentionPresetFor, dataRetentionSchema } from '@verdant/domain';
import { defineSection } from '../store-settings/registry.ts';

export const DATA_RETENTION_SECTION = defineSection({
  name: 'data-retention',
  title: 'Data retention',
  schema: dataRetentionSchema,
  initial: (store) => dataRetentionOfPreset(dataRetentionPresetFor(store.dispensarySettings.place_info.address.region_code)),
});
