/**
 * The `limits` settings section (issue 14, purchase-limit buckets): the store's limit model
 * (packages/domain/src/limits), the preset it was taken from (for the console), and the licence
 * holder whose stores share the customer's earlier orders when the model says
 * `share_with_licence_holder`.
 *
 * Decisions where the issue is silent:
 *  - The stores file has no licence-holder field, so the section names it (`licence_holder`): stores
 *    whose limits section gives the same holder count each other's orders. Customers are per store
 *    (customers.store_id), so "the same customer" across stores is the same phone number.
 *  - The default (`initial`, issue 26): the preset of the store's state (place_info.address.region_code)
 *    when there is one, else today's per-transaction limit as a one-bucket model (transactionLimitModel).
 */
import { LIMIT_PRESETS, limitModelSchema, type LicenseType, type LimitPresetId, type Store } from '@verdant/domain';
import { z } from 'zod';
import { defineSection } from '../store-settings/registry.ts';

const PRESET_IDS = Object.keys(LIMIT_PRESETS) as [keyof typeof LIMIT_PRESETS, ...(keyof typeof LIMIT_PRESETS)[]];

export const limitsSectionSchema = z.strictObject({
  /** The preset the model was copied from (null: today's per-order limit, or the store's own). */
  preset: z.enum(PRESET_IDS).nullable().default(null),
  model: limitModelSchema,
  licence_holder: z.string().trim().min(1).max(120).nullable().default(null),
});

export type LimitsSetting = z.output<typeof limitsSectionSchema>;

/** Today's per_transaction usable_max per licence type, as the input form of transactionLimitModel. */
export function transactionLimitsSetting(store: Store): LimitsSetting {
  const limits = store.dispensarySettings.compliance_settings?.limits;
  const cap = (n: number | undefined) => (n == null ? ('no_cap' as const) : Math.floor(n * 1000 + 1e-6) / 1000);
  const of = (t: LicenseType) => cap(limits?.[t]?.per_transaction.usable_max);
  return limitsSectionSchema.parse({
    preset: null,
    licence_holder: null,
    model: {
      buckets: [
        {
          id: 'cannabis',
          label: 'Cannabis',
          unit: 'flower_equivalent_g',
          counts: { flower_g: { amount: 1, counts_as: 1 }, concentrate_g: { amount: 1, counts_as: 1 } },
          caps: { recreational: of('recreational'), medical: of('medical') },
          window: { type: 'transaction' },
        },
      ],
    },
  });
}

/** The preset of the store's state (its address's region_code), if the product has one. */
export function statePresetOf(store: Store): LimitPresetId | null {
  const code = store.dispensarySettings.place_info.address.region_code.toUpperCase();
  return Object.hasOwn(LIMIT_PRESETS, code) ? (code as LimitPresetId) : null;
}

/**
 * Where the stores file gives a store no limits of its own (issue 26): its state's preset when the
 * product has one (a California store starts on California's daily flower and concentrate limits),
 * else today's per-order limit. A store that wants the spec's per-order limit says so in the stores
 * file (the demo's downtown, eastside and wellness do).
 */
export function initialLimitsSetting(store: Store): LimitsSetting {
  const preset = statePresetOf(store);
  if (!preset) return transactionLimitsSetting(store);
  return limitsSectionSchema.parse({ preset, licence_holder: null, model: structuredClone(LIMIT_PRESETS[preset].model) });
}

export const LIMITS = defineSection({
  name: 'limits',
  title: 'Purchase limits',
  schema: limitsSectionSchema,
  initial: initialLimitsSetting,
});
