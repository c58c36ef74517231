/**
 * The store settings `deal-display` and `deal-floor` (issue 28): their schemas, apart from the rules (price-display.ts) so
 * zod stays on the server and in the console (apps/server/src/console/bundles.test.ts).
 */
import { z } from 'zod';
import { DEAL_DISPLAY_CHOICES, type DealDisplaySettings } from './price-display.ts';
import type { DealFloorSettings } from './floor.ts';

/** The store setting `deal-display` (type: price-display.ts DealDisplaySettings). */
export const dealDisplaySettingsSchema = z.strictObject({
  preset: z.enum(DEAL_DISPLAY_CHOICES).default('auto'),
});
export const DEFAULT_DEAL_DISPLAY_SETTINGS: DealDisplaySettings = { preset: 'auto' };

/** The store setting `deal-floor` (floor.ts). */
const FLOOR_WORDS = 'minUnitCents must be a whole number of cents from 1 ($0.01) to 100000 ($1,000.00)';

export const dealFloorSettingsSchema: z.ZodType<DealFloorSettings, { minUnitCents?: number }> = z.strictObject({
  minUnitCents: z.number({ error: FLOOR_WORDS }).int(FLOOR_WORDS).min(1, 'minUnitCents must be at least 1 ($0.01): no unit is ever given away').max(100_000, FLOOR_WORDS).default(1),
});
