import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatMoney, toCents, fromCents, percentOf } from './money.ts';
import { formatDate, formatDateTime } from './dates.ts';
import { SIZE_WEIGHTS_GRAMS, sizeLabel, sizeLongLabel, sizeWeightGrams } from './sizes.ts';
import { ageOn, isOfAge } from './license.ts';

describe('money', () => {
  it.each([
    [1250, '$12.50'],
    [0, '$0.00'],
    [5, '$0.05'],
    [100000, '$1,000.00'],
    [123456789, '$1,234,567.89'],
    [-450, '-$4.50'],
  ])('formatMoney(%i) = %s', (cents, text) => expect(formatMoney(cents)).toBe(text));

  it('rounds decimal amounts to the cent, half away from zero', () => {
    expect(toCents(12.5)).toBe(1250);
    expect(toCents(1.005)).toBe(101);
    expect(toCents(0.125)).toBe(13);
    expect(toCents(-0.125)).toBe(-13);
    expect(toCents(6.975)).toBe(698);
    expect(() => toCents(Number.NaN)).toThrow(RangeError);
  });

  it('round-trips whole cents exactly', () => {
    fc.assert(fc.property(fc.integer({ min: -1e9, max: 1e9 }), (c) => toCents(fromCents(c)) === c));
  });

  it('applies percentages to the cent (CDTFA excise example: 15% of $46.50 = $6.98)', () => {
    expect(percentOf(4650, 15)).toBe(698);
    expect(percentOf(1000, 8.75)).toBe(88);
  });
});

describe('dates', () => {
  it('formats as M/D/YYYY HH:mm', () => {
    expect(formatDateTime('2026-11-05T09:05:00Z')).toBe('11/5/2026 09:05');
    expect(formatDateTime(new Date(Date.UTC(2026, 0, 9, 23, 59)))).toBe('1/9/2026 23:59');
    expect(formatDateTime('2026-03-01T00:00:00Z')).toBe('3/1/2026 00:00');
  });
  it("uses the store's time zone", () => {
    expect(formatDateTime('2026-11-20T02:30:00Z', 'America/Los_Angeles')).toBe('11/19/2026 18:30');
    expect(formatDate('2026-11-20T02:30:00Z', 'America/Los_Angeles')).toBe('11/19/2026');
  });
  it('refuses invalid dates', () => {
    expect(() => formatDateTime('not a date')).toThrow(RangeError);
  });
  it('reads as Intl does for any instant and zone, asked once or again (texts are kept by zone and minute)', () => {
    const zones = [
      'UTC',
      'America/Los_Angeles',
      'America/Denver',
      'America/New_York',
      'Asia/Kolkata',
      'Australia/Eucla',
      'Pacific/Chatham',
    ];
    const intl = (ms: number, timeZone: string) => {
      const p = Object.fromEntries(
        new Intl.DateTimeFormat('en-US', {
          timeZone,
          year: 'numeric',
          month: 'numeric',
          day: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        })
          .formatToParts(new Date(ms))
          .map((x) => [x.type, x.value]),
      );
      return `${Number(p.month)}/${Number(p.day)}/${p.year} ${p.hour}:${p.minute}`;
    };
    fc.assert(
      fc.property(
        // From 1850 (local mean times with seconds: not kept) to 2100, and the seconds of one minute.
        fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.constantFrom(...zones),
        (ms, zone) => {
          const expected = intl(ms, zone);
          expect(formatDateTime(ms, zone)).toBe(expected);
          expect(formatDateTime(ms, zone)).toBe(expected);
          const minute = Math.floor(ms / 60_000) * 60_000;
          for (const at of [minute, minute + 59_999]) expect(formatDateTime(at, zone)).toBe(intl(at, zone));
        },
      ),
      { numRuns: 2000 },
    );
    // Around a daylight-saving change, minute by minute.
    for (let ms = Date.UTC(2026, 10, 1, 8, 30); ms < Date.UTC(2026, 10, 1, 10, 30); ms += 60_000) {
      expect(formatDateTime(ms, 'America/Los_Angeles')).toBe(intl(ms, 'America/Los_Angeles'));
    }
    // Local mean time had seconds (Los Angeles: −7:52:58 before 1883): one UTC minute, two local minutes.
    expect(formatDateTime('1850-01-01T12:00:01Z', 'America/Los_Angeles')).toBe('1/1/1850 04:07');
    expect(formatDateTime('1850-01-01T12:00:59Z', 'America/Los_Angeles')).toBe('1/1/1850 04:08');
  });
});

describe('size weights', () => {
  it('maps size ids to grams (spec §9)', () => {
    expect(SIZE_WEIGHTS_GRAMS).toEqual({ 91: 1, 92: 3.5, 93: 7, 94: 14, 95: 28 });
    expect(sizeWeightGrams(93)).toBe(7);
    expect(sizeWeightGrams('95')).toBe(28);
  });
  it('falls back to 1 g (or the given default) for unknown sizes', () => {
    expect(sizeWeightGrams(undefined)).toBe(1);
    expect(sizeWeightGrams(null)).toBe(1);
    expect(sizeWeightGrams(42)).toBe(1);
    expect(sizeWeightGrams(42, 0.5)).toBe(0.5);
  });
  it('labels sizes as fractions of an ounce', () => {
    expect([91, 92, 93, 94, 95].map(sizeLabel)).toEqual(['1 g', '1/8 oz', '1/4 oz', '1/2 oz', '1 oz']);
    expect(sizeLongLabel(92)).toBe('3.5 g (1/8 oz)');
    expect(sizeLongLabel(95)).toBe('28 g (1 oz)');
    expect(sizeLongLabel(91)).toBe('1 g');
  });
});

describe('age', () => {
  const now = new Date('2026-11-20T12:00:00Z');
  it('counts whole years by calendar date', () => {
    expect(ageOn('2005-11-20', now)).toBe(21);
    expect(ageOn('2005-11-21', now)).toBe(20);
    expect(isOfAge('2005-11-20', now)).toBe(true);
    expect(isOfAge('2005-11-21', now)).toBe(false);
    expect(isOfAge('2004-02-29', new Date('2025-02-28T00:00:00Z'))).toBe(false);
    expect(isOfAge('2004-02-29', new Date('2025-03-01T00:00:00Z'))).toBe(true);
  });
  it('refuses malformed birthdays', () => {
    expect(() => ageOn('11/20/2005', now)).toThrow(RangeError);
  });
});
