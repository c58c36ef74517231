/**
 * How long a store keeps its delivery records (issue 29 "Paperwork": trips and their ledgers, stops
 * with the ID check and the customer's signature, delivery request receipts): the store setting
 * `record-retention`, in whole years, with the state's preset as the starting value
 * (../../shared/research/market-and-regulation.md §4):
 *  - California: 7 years (4 CCR, records kept 7 years; fines up to $30,000 per violation);
 *  - New Jersey: 4 years (N.J.A.C. 17:30, delivery services keep records 4 years);
 *  - elsewhere: 7 years — no state rule was found, and the longest known rule is the safe default.
 * Records younger than the period cannot be deleted; the purge (apps/server/src/delivery/paperwork.ts)
 * removes ended trips older than it, with their stops and signature images.
 */
import { z } from 'zod';

export const RECORD_RETENTION_PRESETS = ['CA', 'NJ', 'default', 'custom'] as const;
export type RecordRetentionPreset = (typeof RECORD_RETENTION_PRESETS)[number];

export interface RecordRetention {
  /** Which preset the number came from; `custom` once the store changed it. */
  preset: RecordRetentionPreset;
  /** Whole years delivery records are kept after the trip ended (1–25). */
  years: number;
}

export interface RecordRetentionPresetInfo {
  title: string;
  years: number;
  sources: string[];
}

export const RECORD_RETENTION_PRESET_INFO: Readonly<Record<RecordRetentionPreset, RecordRetentionPresetInfo>> = {
  CA: { title: 'California: 7 years', years: 7, sources: ['4 CCR (DCC): records kept 7 years; fines up to $30,000 per violation'] },
  NJ: { title: 'New Jersey: 4 years', years: 4, sources: ['N.J.A.C. 17:30: delivery services keep records 4 years'] },
  default: { title: 'No state rule known: 7 years, the longest known rule', years: 7, sources: [] },
  custom: { title: "The store's own period", years: 7, sources: [] },
};

export const RECORD_RETENTION_MIN_YEARS = 1;
export const RECORD_RETENTION_MAX_YEARS = 25;

/** The preset of a store's state (its address's region code). */
export function recordRetentionPresetFor(regionCode: string | null | undefined): RecordRetentionPreset {
  const code = (regionCode ?? '').toUpperCase();
  return code === 'CA' || code === 'NJ' ? code : 'default';
}

export function recordRetentionOfPreset(preset: RecordRetentionPreset): RecordRetention {
  return { preset, years: RECORD_RETENTION_PRESET_INFO[preset].years };
}

export const recordRetentionSchema: z.ZodType<RecordRetention> = z
  .object({
    preset: z.enum(RECORD_RETENTION_PRESETS, { message: `preset must be one of: ${RECORD_RETENTION_PRESETS.join(', ')}.` }),
    years: z
      .number({ message: 'years must be a whole number of years.' })
      .int('years must be a whole number of years.')
      .min(RECORD_RETENTION_MIN_YEARS, `Records are kept at least ${RECORD_RETENTION_MIN_YEARS} year.`)
      .max(RECORD_RETENTION_MAX_YEARS, `Records are kept at most ${RECORD_RETENTION_MAX_YEARS} years.`),
  })
  .strict();

/**
 * The instant before which an ended trip's records may go: `years` calendar years before `now`
 * (UTC; 29 February steps back to 28 February or 1 March as Date.UTC does).
 */
export function retentionCutoff(now: Date, years: number): Date {
  const d = new Date(now.getTime());
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d;
}
