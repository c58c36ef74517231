import { describe, expect, it } from 'vitest';
import { AGE_MESSAGES, ageOnDate, ageSettingsSchema, checkOrderAge } from './index.ts';

const LA = 'America/Los_Angeles';
// 2026-06-15 05:00 UTC is still 2026-06-14 (22:00) in Los Angeles.
const lateEveningLA = new Date('2026-06-15T05:00:00Z');

describe('order age check', () => {
  it('asks for the birthday when none is given, and for a valid date when it is not one', () => {
    expect(checkOrderAge({ birthday: undefined, licenseType: 'recreational', now: lateEveningLA, timeZone: LA }).problem).toBe(
      'Please enter your birthday',
    );
    expect(checkOrderAge({ birthday: '  ', licenseType: 'recreational', now: lateEveningLA, timeZone: LA }).problem).toBe(
      AGE_MESSAGES.birthday,
    );
    for (const bad of ['2000-02-30', '14/06/2000', '2026-06-15', '1900-01-01'])
      expect(checkOrderAge({ birthday: bad, licenseType: 'recreational', now: lateEveningLA, timeZone: LA }).problem, bad).toBe(
        'Please enter a valid date',
      );
  });

  it('counts the age on the order date in the store zone, not in UTC', () => {
    // 21 on 2026-06-15: already so in UTC, not yet in Los Angeles.
    const check = checkOrderAge({ birthday: '2005-06-15', licenseType: 'recreational', now: lateEveningLA, timeZone: LA });
    expect(check).toEqual({
      orderDate: '2026-06-14',
      minimumAge: 21,
      age: 20,
      problem: 'Sorry, you must be 21 years old or older to continue.',
    });
    expect(
      checkOrderAge({ birthday: '2005-06-15', licenseType: 'recreational', now: lateEveningLA, timeZone: 'UTC' }).problem,
    ).toBeUndefined();
    expect(checkOrderAge({ birthday: '2005-06-14', licenseType: 'recreational', now: lateEveningLA, timeZone: LA })).toMatchObject({
      age: 21,
      problem: undefined,
    });
  });

  it('lets a store lower the minimum for medical orders only', () => {
    const settings = { medicalMinimumAge: 18 };
    const eighteen = '2008-06-14';
    expect(checkOrderAge({ birthday: eighteen, licenseType: 'medical', now: lateEveningLA, timeZone: LA, settings })).toMatchObject({
      minimumAge: 18,
      age: 18,
      problem: undefined,
    });
    expect(checkOrderAge({ birthday: eighteen, licenseType: 'recreational', now: lateEveningLA, timeZone: LA, settings }).problem).toBe(
      AGE_MESSAGES.under(21),
    );
    expect(checkOrderAge({ birthday: '2008-06-15', licenseType: 'medical', now: lateEveningLA, timeZone: LA, settings }).problem).toBe(
      'Sorry, you must be 18 years old or older to continue.',
    );
    expect(checkOrderAge({ birthday: eighteen, licenseType: 'medical', now: lateEveningLA, timeZone: LA }).problem).toBe(
      AGE_MESSAGES.under(21),
    );
  });

  it('turns a 2/29 birthday a year older on 3/1 of a common year', () => {
    expect(ageOnDate('2004-02-29', '2025-02-28')).toBe(20);
    expect(ageOnDate('2004-02-29', '2025-03-01')).toBe(21);
    expect(ageOnDate('2004-02-29', '2028-02-29')).toBe(24);
  });

  it('accepts medical minimum ages from 18 to 21 only, whole years', () => {
    expect(ageSettingsSchema.safeParse({ medicalMinimumAge: 18 }).success).toBe(true);
    expect(ageSettingsSchema.safeParse({ medicalMinimumAge: 21 }).success).toBe(true);
    for (const bad of [17, 22, 19.5, '18', null])
      expect(ageSettingsSchema.safeParse({ medicalMinimumAge: bad }).success, String(bad)).toBe(false);
  });
});
