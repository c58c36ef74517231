import { describe, expect, it } from 'vitest';
import { cardPriceMeasure, pricePerGram, pricePerUnit, priceUnitWords, unitPriceMeasure, type PriceMeasure } from './price-per-unit.ts';

const weighed = (size: number): PriceMeasure => ({ size, thcMg: null });
const infused = (thcMg: number | null): PriceMeasure => ({ size: null, thcMg });
const CAD = { currencyCode: 'CAD', locale: 'fr-CA' };

describe('pricePerUnit', () => {
  it.each([
    // [what, cents charged, measure, per unit]
    ['1/8 oz at $35.00: $10.00/g', 3500, weighed(92), { cents: 1000, per: 'g' }],
    ['1/8 oz at $32.00: $9.142857…/g rounds to $9.14', 3200, weighed(92), { cents: 914, per: 'g' }],
    ['1/8 oz at $30.00: $8.571428…/g rounds up to $8.57', 3000, weighed(92), { cents: 857, per: 'g' }],
    ['7 g at $55.00: $7.857…/g rounds up to $7.86', 5500, weighed(93), { cents: 786, per: 'g' }],
    ['1 oz at $200.00: $7.142857…/g is $7.14', 20000, weighed(95), { cents: 714, per: 'g' }],
    ['half a cent rounds away from zero: 1/2 oz at $0.07 is $0.005/g → $0.01', 7, weighed(94), { cents: 1, per: 'g' }],
    ['1 g: its price is the gram’s, nothing to add', 1600, weighed(91), null],
    ['free is $0.00/g', 0, weighed(92), { cents: 0, per: 'g' }],
    ['100 mg THC gummies at $20.00: $2.00 per 10 mg', 2000, infused(100), { cents: 200, per: '10mg_thc' }],
    ['1000 mg tincture at $65.00: $0.65 per 10 mg', 6500, infused(1000), { cents: 65, per: '10mg_thc' }],
    ['5 mg mint at $3.00: $6.00 per 10 mg', 300, infused(5), { cents: 600, per: '10mg_thc' }],
    ['a 10 mg package: its price is the 10 mg’s', 500, infused(10), null],
    ['a CBD-only product (no THC) has no THC price', 4000, infused(0), null],
    ['no THC stated', 4000, infused(null), null],
    ['no measure at all', 4000, { size: null, thcMg: null }, null],
    ['an unknown size id is no weight', 4000, weighed(90), null],
    ['a weight wins over mg (a sized product sells by weight)', 3500, { size: 92, thcMg: 100 }, { cents: 1000, per: 'g' }],
    ['a price that is not whole cents is not priced per unit', 35.5, weighed(92), null],
    ['a negative price is not priced per unit', -100, weighed(92), null],
  ] as const)('%s', (_what, cents, measure, expected) => {
    expect(pricePerUnit(cents, measure)).toEqual(expected);
  });

  it('pricePerGram is to the cent, null without a weight', () => {
    expect(pricePerGram(3500, 3.5)).toBe(1000);
    expect(pricePerGram(1600, 1)).toBe(1600);
    expect(pricePerGram(1000, 0)).toBeNull();
  });
});

describe('priceUnitWords (the weight after a price and the unit price under it)', () => {
  it.each([
    ['from $16.00 / 1 g: a 1 g price says its weight only', 1600, weighed(91), undefined, { weight: '1 g', perShown: null, perSpoken: null }],
    ['$35.00 / 3.5 g, $10.00/g', 3500, weighed(92), undefined, { weight: '3.5 g', perShown: '$10.00/g', perSpoken: '$10.00 per gram' }],
    ['28 g', 20000, weighed(95), undefined, { weight: '28 g', perShown: '$7.14/g', perSpoken: '$7.14 per gram' }],
    ['an edible: no weight, per 10 mg THC', 2000, infused(100), undefined, { weight: null, perShown: '$2.00/10 mg THC', perSpoken: '$2.00 per 10 mg THC' }],
    ['the store’s money', 3500, weighed(92), CAD, { weight: '3.5 g', perShown: `${new Intl.NumberFormat('fr-CA', { style: 'currency', currency: 'CAD' }).format(10)}/g`, perSpoken: `${new Intl.NumberFormat('fr-CA', { style: 'currency', currency: 'CAD' }).format(10)} per gram` }],
    ['nothing measured: nothing said', 3500, null, undefined, { weight: null, perShown: null, perSpoken: null }],
  ] as const)('%s', (_what, cents, measure, money, expected) => {
    expect(priceUnitWords(cents, measure, money)).toEqual(expected);
  });

  it('a deal or special: the unit price is of the price given (the one charged), not the regular one', () => {
    // $40.00 regular, $28.00 after a deal, 3.5 g: $8.00/g.
    expect(priceUnitWords(2800, weighed(92)).perShown).toBe('$8.00/g');
  });
});

describe('measures', () => {
  it.each([
    ['a flower card priced at its 1 g', { price_size: 91, potency: null }, { size: 91, thcMg: null }],
    ['an edible card', { price_size: null, potency: { thcMg: 100, cbdMg: null, pieces: 10 } }, { size: null, thcMg: 100 }],
    ['a card without either', { price_size: null, potency: null }, { size: null, thcMg: null }],
  ] as const)('cardPriceMeasure: %s', (_what, card, expected) => {
    expect(cardPriceMeasure(card)).toEqual(expected);
  });

  it('unitPriceMeasure keeps only real size ids', () => {
    expect(unitPriceMeasure(92, null)).toEqual({ size: 92, thcMg: null });
    expect(unitPriceMeasure(7, { thcMg: 50, cbdMg: null, pieces: null })).toEqual({ size: null, thcMg: 50 });
    expect(unitPriceMeasure(undefined, undefined)).toEqual({ size: null, thcMg: null });
  });
});
