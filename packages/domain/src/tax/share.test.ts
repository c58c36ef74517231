import { describe, expect, it } from 'vitest';
import { californiaTaxLines, coloradoTaxLines, illinoisTaxLines } from './presets.ts';
import { cannabisTaxShare, taxShareNote } from './share.ts';
import { taxSettingsSchema } from './schema.ts';

describe('the cart-free tax note (issue 30)', () => {
  it.each([
    // 15 % excise, then 8.75 % sales on price + excise: 15 + 8.75 × 1.15 = 25.06.
    ['California, Sacramento', californiaTaxLines({ city: 'Sacramento', salesPercent: 8.75 }).lines, { min: 25, max: 25 }, 'Prices exclude about 25 % in taxes, added in the cart.'],
    // 10.25 %: 15 + 10.25 × 1.15 = 26.79.
    ['California, Oakland', californiaTaxLines({ city: 'Oakland', salesPercent: 10.25 }).lines, { min: 27, max: 27 }, 'Prices exclude about 27 % in taxes, added in the cart.'],
  ])('%s: one figure from the store’s lines', (_name, lines, share, note) => {
    expect(cannabisTaxShare(lines)).toEqual(share);
    expect(taxShareNote(cannabisTaxShare(lines)!)).toBe(note);
  });

  it('a store with potency bands gets a range (Illinois: 10 % up to 35 % THC, 25 % above, 20 % infused, plus 6.25 %)', () => {
    const share = cannabisTaxShare(illinoisTaxLines().lines)!;
    expect(share.min).toBeLessThan(share.max);
    expect(taxShareNote(share)).toBe(`Prices exclude about ${share.min}–${share.max} % in taxes, added in the cart.`);
    expect(cannabisTaxShare(coloradoTaxLines().lines)!.max).toBeGreaterThan(0);
  });

  it('says nothing when no line taxes cannabis goods', () => {
    const generalOnly = taxSettingsSchema.parse({ lines: [{ code: 'sales', title: 'Sales tax', kind: 'sales', rate: 0, base: 'price' }] }).lines;
    expect(cannabisTaxShare(generalOnly)).toBeNull();
    expect(cannabisTaxShare([])).toBeNull();
  });
});
