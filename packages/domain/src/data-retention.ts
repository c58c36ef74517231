/**
 * What a store keeps about its shoppers, and for how long (issue 31 "Data rights and retention"): the
 * store setting `data-retention`, with the state's preset as the starting value and its sources
 * (../../shared/research/market-and-regulation.md §1d, §4; confirm with counsel):
 *  - Oregon (SB 863, 2017): retailers may not record, keep or transfer ID-derived information. The
 *    ID and the medical card are checked from the upload and the image is not kept: it is deleted as
 *    soon as staff record the decision; the decision (verified or rejected, who, when) is kept. The
 *    OMMP card number staff enter stays, as Metrc reports it.
 *  - Massachusetts (935 CMR 500.140): no personal information beyond a normal retail transaction
 *    without the consumer's voluntary written permission. Verdant reads that as: the image serves the
 *    check, so it is not kept after it either.
 *  - California (4 CCR 15037; B&P §26161.5): sales records are kept 7 years. No rule on the images was
 *    found, so they follow the platform default.
 *  - Elsewhere: images are kept 30 days after the decision (long enough to answer a question about a
 *    recent order, short enough not to hold a library of IDs); sales records 7 years, the longest
 *    known rule.
 * No preset creates customer profiles for guests ("anonymous markets"): Verdant makes a profile only
 * when a shopper signs up with their phone code, unless a store turns `guestProfiles` on; then a guest's
 * order is filed under its phone's profile (server: customers/guest-profiles.ts, which asks
 * `guestProfilesAllowed`).
 */
import { z } from 'zod';

export const DATA_RETENTION_PRESETS = ['OR', 'MA', 'CA', 'default', 'custom'] as const;
export type DataRetentionPreset = (typeof DATA_RETENTION_PRESETS)[number];

export interface DataRetention {
  /** Which preset the values came from; `custom` once the store changed one. */
  preset: DataRetentionPreset;
  /** Days an ID image is kept after staff decided on it; 0: not kept (deleted with the decision). */
  idImageDays: number;
  /** Days a medical card image is kept after staff decided on it; 0: not kept. */
  medicalCardImageDays: number;
  /** Whole years a sale (an order) is kept as the store's sales record. */
  salesRecordYears: number;
  /** Whether a guest's order may create a customer profile. */
  guestProfiles: boolean;
}

export interface DataRetentionPresetInfo {
  title: string;
  value: Omit<DataRetention, 'preset'>;
  sources: string[];
}

const DEFAULT_IMAGE_DAYS = 30;
const DEFAULT_SALES_YEARS = 7;

export const DATA_RETENTION_PRESET_INFO: Readonly<Record<DataRetentionPreset, DataRetentionPresetInfo>> = {
  OR: {
    title: 'Oregon: ID and card images not kept',
    value: { idImageDays: 0, medicalCardImageDays: 0, salesRecordYears: DEFAULT_SALES_YEARS, guestProfiles: false },
    sources: ['Oregon SB 863 (2017): retailers may not record, keep or transfer information from a customer’s ID'],
  },
  MA: {
    title: 'Massachusetts: images not kept without written permission',
    value: { idImageDays: 0, medicalCardImageDays: 0, salesRecordYears: DEFAULT_SALES_YEARS, guestProfiles: false },
    sources: ['935 CMR 500.140: no personal information beyond a normal retail transaction without voluntary written permission'],
  },
  CA: {
    title: 'California: sales records 7 years',
    value: { idImageDays: DEFAULT_IMAGE_DAYS, medicalCardImageDays: DEFAULT_IMAGE_DAYS, salesRecordYears: 7, guestProfiles: false },
    sources: ['4 CCR 15037: records kept 7 years', 'B&P Code §26161.5: no sharing of a customer’s personal information without consent'],
  },
  default: {
    title: 'No state rule known: images 30 days, sales records 7 years',
    value: { idImageDays: DEFAULT_IMAGE_DAYS, medicalCardImageDays: DEFAULT_IMAGE_DAYS, salesRecordYears: DEFAULT_SALES_YEARS, guestProfiles: false },
    sources: [],
  },
  custom: {
    title: 'The store’s own rules',
    value: { idImageDays: DEFAULT_IMAGE_DAYS, medicalCardImageDays: DEFAULT_IMAGE_DAYS, salesRecordYears: DEFAULT_SALES_YEARS, guestProfiles: false },
    sources: [],
  },
};

export const IMAGE_DAYS_MAX = 3650;
export const SALES_RECORD_MIN_YEARS = 1;
export const SALES_RECORD_MAX_YEARS = 25;

/** The preset of a store's state (its address's region code). */
export function dataRetentionPresetFor(regionCode: string | null | undefined): DataRetentionPreset {
  const code = (regionCode ?? '').toUpperCase();
  return code === 'OR' || code === 'MA' || code === 'CA' ? code : 'default';
}

export function dataRetentionOfPreset(preset: DataRetentionPreset): DataRetention {
  return { preset, ...DATA_RETENTION_PRESET_INFO[preset].value };
}

const days = (what: string) =>
  z
    .number({ message: `${what} must be a whole number of days.` })
    .int(`${what} must be a whole number of days.`)
    .min(0, `${what} cannot be negative (0: not kept).`)
    .max(IMAGE_DAYS_MAX, `${what} is at most ${IMAGE_DAYS_MAX} days.`);

export const dataRetentionSchema: z.ZodType<DataRetention> = z
  .object({
    preset: z.enum(DATA_RETENTION_PRESETS, { message: `preset must be one of: ${DATA_RETENTION_PRESETS.join(', ')}.` }),
    idImageDays: days('idImageDays'),
    medicalCardImageDays: days('medicalCardImageDays'),
    salesRecordYears: z
      .number({ message: 'salesRecordYears must be a whole number of years.' })
      .int('salesRecordYears must be a whole number of years.')
      .min(SALES_RECORD_MIN_YEARS, `Sales records are kept at least ${SALES_RECORD_MIN_YEARS} year.`)
      .max(SALES_RECORD_MAX_YEARS, `Sales records are kept at most ${SALES_RECORD_MAX_YEARS} years.`),
    guestProfiles: z.boolean({ message: 'guestProfiles must be true or false.' }),
  })
  .strict();

export type RetainedDocument = 'id' | 'medcard';

/** Days an image of the kind is kept after the decision (0: not kept). */
export function imageDaysOf(settings: DataRetention, kind: RetainedDocument): number {
  return kind === 'id' ? settings.idImageDays : settings.medicalCardImageDays;
}

/** Whether an image of the kind is deleted as soon as staff decide on it. */
export function imageNotKept(settings: DataRetention, kind: RetainedDocument): boolean {
  return imageDaysOf(settings, kind) === 0;
}

/**
 * The instant after which an image decided on at `reviewedAt` is due for deletion; an image not
 * decided on yet (null) is waiting for staff and never due.
 */
export function imageDueAt(settings: DataRetention, kind: RetainedDocument, reviewedAt: string | null): Date | null {
  if (!reviewedAt) return null;
  const at = Date.parse(reviewedAt);
  if (!Number.isFinite(at)) return null;
  return new Date(at + imageDaysOf(settings, kind) * 86_400_000);
}

/** The `reviewed_at` before which a decided image of the kind is due at `now`. */
export function imageCutoff(settings: DataRetention, kind: RetainedDocument, now: Date): Date {
  return new Date(now.getTime() - imageDaysOf(settings, kind) * 86_400_000);
}

/**
 * The day until which a sale must be kept as the store's sales record: `salesRecordYears` calendar
 * years after it was placed (UTC; 29 February rolls to 1 March as Date.UTC does, so a record is kept
 * a day longer, never shorter). Personal data may be anonymised earlier; the order itself (lines,
 * totals, taxes, times) stays until then.
 */
export function salesRecordKeptUntil(order: { created_at: string }, settings: Pick<DataRetention, 'salesRecordYears'>): Date {
  const d = new Date(Date.parse(order.created_at));
  d.setUTCFullYear(d.getUTCFullYear() + settings.salesRecordYears);
  return d;
}

/** Whether the sale may be deleted at `now` (its sales-record period is over). */
export function salesRecordExpired(order: { created_at: string }, settings: Pick<DataRetention, 'salesRecordYears'>, now: Date): boolean {
  return salesRecordKeptUntil(order, settings).getTime() <= now.getTime();
}

/** Whether a guest's order may create (or attach to) a customer profile in this store. */
export function guestProfilesAllowed(settings: Pick<DataRetention, 'guestProfiles'>): boolean {
  return settings.guestProfiles;
}

/** What the shopper is told beside the upload form, from the store's setting. */
export function imageKeptText(settings: DataRetention, kind: RetainedDocument): string {
  const n = imageDaysOf(settings, kind);
  const what = kind === 'id' ? 'ID' : 'medical card';
  if (n === 0) return `The store checks the image of your ${what} and then deletes it: only the result of the check is kept.`;
  return `The store keeps the image of your ${what} for ${n} day${n === 1 ? '' : 's'} after checking it, then deletes it: the result of the check is kept.`;
}
