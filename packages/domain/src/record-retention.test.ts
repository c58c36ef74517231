import { describe, expect, it } from 'vitest';
import { recordRetentionOfPreset, recordRetentionPresetFor, recordRetentionSchema, retentionCutoff } from './record-retention.ts';

describe('record retention', () => {
  it('presets by state: California 7 years, New Jersey 4, elsewhere 7', () => {
    expect(recordRetentionOfPreset(recordRetentionPresetFor('ca'))).toEqual({ preset: 'CA', years: 7 });
    expect(recordRetentionOfPreset(recordRetentionPresetFor('NJ'))).toEqual({ preset: 'NJ', years: 4 });
    expect(recordRetentionOfPreset(recordRetentionPresetFor('MA'))).toEqual({ preset: 'default', years: 7 });
    expect(recordRetentionPresetFor(null)).toBe('default');
  });

  it('the cutoff is whole calendar years back', () => {
    expect(retentionCutoff(new Date('2026-06-15T12:00:00.000Z'), 7).toISOString()).toBe('2019-06-15T12:00:00.000Z');
    // 29 February to a year without one rolls to 1 March (the record is kept a day longer, never shorter).
    expect(retentionCutoff(new Date('2028-02-29T00:00:00.000Z'), 1).toISOString()).toBe('2027-03-01T00:00:00.000Z');
  });

  it('refuses periods outside 1–25 whole years, in words', () => {
    const problem = (value: unknown) => recordRetentionSchema.safeParse(value).error?.issues[0]?.message;
    expect(problem({ preset: 'custom', years: 0 })).toBe('Records are kept at least 1 year.');
    expect(problem({ preset: 'custom', years: 26 })).toBe('Records are kept at most 25 years.');
    expect(problem({ preset: 'custom', years: 2.5 })).toBe('years must be a whole number of years.');
    expect(problem({ preset: 'CA', years: 7, extra: 1 })).toBeDefined();
    expect(recordRetentionSchema.parse({ preset: 'custom', years: 10 })).toEqual({ preset: 'custom', years: 10 });
  });
});
