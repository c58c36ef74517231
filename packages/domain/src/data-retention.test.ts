import { describe, expect, it } from 'vitest';
import {
  DATA_RETENTION_PRESET_INFO,
  DATA_RETENTION_PRESETS,
  dataRetentionOfPreset,
  dataRetentionPresetFor,
  dataRetentionSchema,
  guestProfilesAllowed,
  imageCutoff,
  imageDueAt,
  imageKeptText,
  imageNotKept,
  salesRecordExpired,
  salesRecordKeptUntil,
  type DataRetention,
  type DataRetentionPreset,
} from './data-retention.ts';

const NOW = new Date('2026-06-15T12:00:00.000Z');

describe('data retention presets', () => {
  // One row per preset: what it keeps, and that it names a source where a state rule is behind it.
  const table: [DataRetentionPreset, string | null, number, number, number, boolean, boolean][] = [
    // preset, region, idDays, cardDays, salesYears, guestProfiles, has sources
    ['OR', 'or', 0, 0, 7, false, true],
    ['MA', 'MA', 0, 0, 7, false, true],
    ['CA', 'CA', 30, 30, 7, false, true],
    ['default', 'NV', 30, 30, 7, false, false],
  ];
  it.each(table)('%s (store in %s): ID %i days, card %i days, sales %i years, guest profiles %s', (preset, region, idDays, cardDays, years, guests, sourced) => {
    expect(dataRetentionPresetFor(region)).toBe(preset);
    const value = dataRetentionOfPreset(preset);
    expect(value).toEqual({ preset, idImageDays: idDays, medicalCardImageDays: cardDays, salesRecordYears: years, guestProfiles: guests });
    expect(dataRetentionSchema.parse(value)).toEqual(value);
    expect(DATA_RETENTION_PRESET_INFO[preset].sources.length > 0).toBe(sourced);
    expect(imageNotKept(value, 'id')).toBe(idDays === 0);
    expect(imageNotKept(value, 'medcard')).toBe(cardDays === 0);
    expect(guestProfilesAllowed(value)).toBe(false);
  });

  it('every preset is valid and a store without a state gets the default', () => {
    for (const p of DATA_RETENTION_PRESETS) expect(dataRetentionSchema.safeParse(dataRetentionOfPreset(p)).success).toBe(true);
    expect(dataRetentionPresetFor(null)).toBe('default');
    expect(dataRetentionPresetFor('')).toBe('default');
  });

  it('refuses values out of range, in words', () => {
    const base: DataRetention = dataRetentionOfPreset('default');
    const problem = (value: unknown) => dataRetentionSchema.safeParse(value).error?.issues[0]?.message;
    expect(problem({ ...base, idImageDays: -1 })).toBe('idImageDays cannot be negative (0: not kept).');
    expect(problem({ ...base, medicalCardImageDays: 1.5 })).toBe('medicalCardImageDays must be a whole number of days.');
    expect(problem({ ...base, idImageDays: 3651 })).toBe('idImageDays is at most 3650 days.');
    expect(problem({ ...base, salesRecordYears: 0 })).toBe('Sales records are kept at least 1 year.');
    expect(problem({ ...base, salesRecordYears: 26 })).toBe('Sales records are kept at most 25 years.');
    expect(problem({ ...base, guestProfiles: 'yes' })).toBe('guestProfiles must be true or false.');
    expect(problem({ ...base, preset: 'TX' })).toMatch(/^preset must be one of/);
    expect(problem({ ...base, extra: 1 })).toBeDefined();
  });
});

describe('when an image is due', () => {
  const cases: [string, Partial<DataRetention>, 'id' | 'medcard', string | null, string | null][] = [
    ['not decided yet: never due', { idImageDays: 0 }, 'id', null, null],
    ['not kept: due at the decision', { idImageDays: 0 }, 'id', '2026-06-15T10:00:00.000Z', '2026-06-15T10:00:00.000Z'],
    ['30 days after the decision', { idImageDays: 30 }, 'id', '2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z'],
    ['the card has its own period', { idImageDays: 0, medicalCardImageDays: 7 }, 'medcard', '2026-06-01T00:00:00.000Z', '2026-06-08T00:00:00.000Z'],
  ];
  it.each(cases)('%s', (_name, patch, kind, reviewedAt, due) => {
    const settings = { ...dataRetentionOfPreset('default'), ...patch };
    expect(imageDueAt(settings, kind, reviewedAt)?.toISOString() ?? null).toBe(due);
  });

  it('the cutoff is the period before now', () => {
    expect(imageCutoff({ ...dataRetentionOfPreset('CA') }, 'id', NOW).toISOString()).toBe('2026-05-16T12:00:00.000Z');
    expect(imageCutoff(dataRetentionOfPreset('OR'), 'medcard', NOW).toISOString()).toBe(NOW.toISOString());
  });

  it('the shopper is told what happens to the image', () => {
    expect(imageKeptText(dataRetentionOfPreset('OR'), 'id')).toBe('The store checks the image of your ID and then deletes it: only the result of the check is kept.');
    expect(imageKeptText({ ...dataRetentionOfPreset('CA'), medicalCardImageDays: 1 }, 'medcard')).toBe(
      'The store keeps the image of your medical card for 1 day after checking it, then deletes it: the result of the check is kept.',
    );
  });
});

describe('salesRecordKeptUntil', () => {
  const cases: [string, number, string, boolean][] = [
    ['2019-06-15T12:00:00.000Z', 7, '2026-06-15T12:00:00.000Z', true],
    ['2019-06-15T12:00:00.001Z', 7, '2026-06-15T12:00:00.001Z', false],
    ['2024-02-29T09:00:00.000Z', 1, '2025-03-01T09:00:00.000Z', true],
    ['2024-02-29T09:00:00.000Z', 3, '2027-03-01T09:00:00.000Z', false],
    ['2022-01-10T00:00:00.000Z', 4, '2026-01-10T00:00:00.000Z', true],
  ];
  it.each(cases)('an order of %s kept %i years: until %s (expired at NOW: %s)', (createdAt, years, until, expired) => {
    const order = { created_at: createdAt };
    expect(salesRecordKeptUntil(order, { salesRecordYears: years }).toISOString()).toBe(until);
    expect(salesRecordExpired(order, { salesRecordYears: years }, NOW)).toBe(expired);
  });
});
