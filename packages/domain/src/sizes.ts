/**
 * Size ids and their weights in grams (spec §9). 28 g counts as one ounce, and sizes are shown
 * as fractions of an ounce beside their grams.
 */
export const SIZE_WEIGHTS_GRAMS: Readonly<Record<number, number>> = Object.freeze({
  91: 1,
  92: 3.5,
  93: 7,
  94: 14,
  95: 28,
});

export const SIZE_IDS = [91, 92, 93, 94, 95] as const;
export type SizeId = (typeof SIZE_IDS)[number];

/** The size preferred when variant choice ties (spec §4). */
export const PREFERRED_SIZE_ID: SizeId = 92;

const OUNCE_LABELS: Readonly<Record<number, string>> = {
  92: '1/8 oz',
  93: '1/4 oz',
  94: '1/2 oz',
  95: '1 oz',
};

export function isSizeId(value: unknown): value is SizeId {
  return typeof value === 'number' && value in SIZE_WEIGHTS_GRAMS;
}

/** Grams for a size id; `fallback` (default 1, spec §9) when the size is unknown or missing. */
export function sizeWeightGrams(size: number | string | null | undefined, fallback = 1): number {
  const id = typeof size === 'string' ? Number(size) : size;
  return id != null && isSizeId(id) ? SIZE_WEIGHTS_GRAMS[id] : fallback;
}

function gramsText(grams: number): string {
  return `${Number.isInteger(grams) ? grams : grams.toFixed(1)} g`;
}

/** The size in grams only: `1 g`, `3.5 g`, `28 g` (a price's weight, compared across cards). */
export function sizeGramsLabel(size: number): string {
  return gramsText(sizeWeightGrams(size));
}

/** Short label: `1 g`, `1/8 oz`, `1/4 oz`, `1/2 oz`, `1 oz`. */
export function sizeLabel(size: number): string {
  return OUNCE_LABELS[size] ?? gramsText(sizeWeightGrams(size));
}

/** Long label with both units: `3.5 g (1/8 oz)`; `1 g` has no ounce form. */
export function sizeLongLabel(size: number): string {
  const grams = gramsText(sizeWeightGrams(size));
  const oz = OUNCE_LABELS[size];
  return oz ? `${grams} (${oz})` : grams;
}
