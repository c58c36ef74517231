import { describe, expect, it } from 'vitest';
import { brandPalette, contrastRatio, DEFAULT_BRAND } from './color.ts';

describe('brandPalette', () => {
  it('puts white text on the dark demo brand colours', () => {
    for (const c of ['#166534', '#7c2d12', '#1e3a8a', '#0f766e']) {
      const p = brandPalette(c);
      expect(p).toEqual({ brand: c, onBrand: '#ffffff', brandInk: c });
      expect(contrastRatio(p.brand, p.onBrand)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('switches to dark text on light brand colours', () => {
    const p = brandPalette('#facc15');
    expect(p.onBrand).toBe('#1c1917');
    expect(contrastRatio(p.brand, p.onBrand)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(p.brandInk, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('falls back to the default brand for missing or malformed colours', () => {
    expect(brandPalette(undefined).brand).toBe(DEFAULT_BRAND);
    expect(brandPalette('red').brand).toBe(DEFAULT_BRAND);
  });

  it('computes WCAG contrast', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
  });
});
