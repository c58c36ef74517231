/**
 * Store brand colours come from the stores file; text set on them (and brand-coloured text on
 * white) must still meet WCAG AA 4.5:1. These helpers pick a readable pairing for any colour.
 */
function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance of `#rrggbb` (WCAG 2.x); null for anything else. */
export function luminance(hex: string): number | null {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return null;
  const [r, g, b] = [m[1], m[2], m[3]].map((x) => channel(parseInt(x, 16)));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const la = luminance(a);
  const lb = luminance(b);
  if (la == null || lb == null) return 1;
  const [hi, lo] = la > lb ? [la, lb] : [lb, la];
  return (hi + 0.05) / (lo + 0.05);
}

export const DEFAULT_BRAND = '#166534';
const INK = '#1c1917';

export interface BrandPalette {
  /** Background colour for brand surfaces (buttons, top bar). */
  brand: string;
  /** Text on a brand surface: white when it reads at 4.5:1, else near-black. */
  onBrand: string;
  /** Brand-coloured text on white: the brand when it reads at 4.5:1, else near-black. */
  brandInk: string;
}

export function brandPalette(themeColor: string | null | undefined): BrandPalette {
  const brand = themeColor && luminance(themeColor) != null ? themeColor : DEFAULT_BRAND;
  return {
    brand,
    onBrand: contrastRatio(brand, '#ffffff') >= 4.5 ? '#ffffff' : INK,
    brandInk: contrastRatio(brand, '#ffffff') >= 4.5 ? brand : INK,
  };
}
