import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PRICE_RANGES } from './filters.ts';
import { priceRangeLabel, priceRangeOf } from './price-ranges.ts';

describe('priceRangeLabel (spec §9)', () => {
  it.each([
    ['0-50', '< $50'],
    ['50-100', '$50 - 100'],
    ['100-150', '$100 - 150'],
    ['150-', '> $150'],
  ])('%s → %s', (key, label) => expect(priceRangeLabel(key)).toBe(label));

  it('follows the store currency', () => {
    expect(priceRangeLabel('0-50', { currencyCode: 'EUR', locale: 'en-US' })).toBe('< €50');
    expect(priceRangeLabel('100-150', { currencyCode: 'USD', locale: 'en-US' })).toBe('$100 - 150');
  });

  it('returns an unknown key as is', () => {
    expect(priceRangeLabel('7-8')).toBe('7-8');
  });
});

describe('priceRangeOf', () => {
  it.each([
    [0, '0-50'],
    [4999, '0-50'],
    [5000, '50-100'],
    [14999, '100-150'],
    [15000, '150-'],
    [10_000_000, '150-'],
  ])('%i cents → %s', (cents, key) => expect(priceRangeOf(cents)).toBe(key));

  it('has no bucket for negative or non-finite prices', () => {
    expect(priceRangeOf(-1)).toBeNull();
    expect(priceRangeOf(Number.NaN)).toBeNull();
  });

  it('puts every price in the bucket whose bounds contain it', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), (cents) => {
        const r = PRICE_RANGES.find((x) => x.key === priceRangeOf(cents));
        return r != null && cents >= r.from && (r.to == null || cents < r.to);
      }),
    );
  });
});
