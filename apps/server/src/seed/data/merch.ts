/**
 * Merchandising vocabulary of the demo: brands, discount groups, tax classes and canna types.
 * Brand and discount group ids are the option values of the brand_id and discount_group_id
 * attributes; the demo stores file's specials refer to discount groups 1–4.
 */
export interface Brand {
  id: number;
  name: string;
  /** The kinds of product the brand makes. */
  kinds: readonly ProductKind[];
}

export type ProductKind =
  'flower' | 'preroll' | 'vape' | 'concentrate' | 'edible' | 'tincture' | 'topical' | 'accessory';

export const BRANDS: readonly Brand[] = [
  { id: 101, name: 'Verdant Reserve', kinds: ['flower', 'preroll'] },
  { id: 102, name: 'Verdant Labs', kinds: ['vape', 'concentrate'] },
  { id: 103, name: 'Golden State Greens', kinds: ['flower', 'preroll'] },
  { id: 104, name: 'Emerald Coast Growers', kinds: ['flower'] },
  { id: 105, name: 'Sierra Sun Farms', kinds: ['flower', 'preroll'] },
  { id: 106, name: 'Humboldt Heritage', kinds: ['flower', 'concentrate'] },
  { id: 107, name: 'Fog City Vapor', kinds: ['vape'] },
  { id: 108, name: 'High Desert Rosin', kinds: ['concentrate', 'vape'] },
  { id: 109, name: 'Canopy Kitchen', kinds: ['edible'] },
  { id: 110, name: 'Sweet Leaf Confections', kinds: ['edible'] },
  { id: 111, name: 'Plant Doctor Remedies', kinds: ['tincture', 'topical'] },
  { id: 112, name: 'Coastal Calm', kinds: ['tincture', 'topical', 'edible'] },
  { id: 113, name: 'Roll & Co.', kinds: ['preroll', 'accessory'] },
  { id: 114, name: 'Verdant Goods', kinds: ['accessory'] },
];

export const HOUSE_FLOWER_BRAND = 101;
export const HOUSE_VAPE_BRAND = 102;

export const DISCOUNT_GROUPS = [
  { id: 1, name: 'House flower' },
  { id: 2, name: 'House vapes' },
  { id: 3, name: 'Patient wellness' },
  { id: 4, name: 'Pre-roll multipacks' },
] as const;

/** Product tax classes: cannabis goods carry the excise and sales tax, general goods sales tax only. */
export const TAX_CLASS_CANNABIS = 2;
export const TAX_CLASS_GENERAL = 4;
/** The customer tax class every shopper has. */
export const CUSTOMER_TAX_CLASS_RETAIL = 3;

/**
 * canna_type values. 4 and 6 are not cannabis (spec §5: they never count toward limits and are not
 * subject to the cannabis excise).
 */
export const CANNA_TYPE = {
  flower: 1,
  preroll: 2,
  concentrate: 3,
  accessory: 4,
  infused: 5,
  hempCbd: 6,
} as const;

/**
 * THC-equivalent grams, one bucket for all cannabis (what unit_weight_grams_equivelent holds).
 * California sets no single equivalency, so we use Colorado's published one:
 * 1 oz (28 g) flower = 8 g concentrate = 800 mg THC in infused products. Hence 1 g of concentrate
 * counts 3.5 g and each mg of THC counts 0.035 g. Flower and pre-rolls count their weight.
 */
export const GRAMS_PER_CONCENTRATE_GRAM = 28 / 8;
export const GRAMS_PER_MG_THC = 28 / 800;

export function concentrateEquivalent(grams: number): number {
  return round3(grams * GRAMS_PER_CONCENTRATE_GRAM);
}

export function thcMgEquivalent(mg: number): number {
  return round3(mg * GRAMS_PER_MG_THC);
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

export const FLAVOURS = [
  'Watermelon',
  'Sour Cherry',
  'Mango',
  'Blackberry',
  'Pomegranate',
  'Peach',
  'Lemon',
  'Grape',
  'Strawberry',
  'Passionfruit',
  'Blood Orange',
  'Green Apple',
] as const;

export const SCENTS = ['Lavender', 'Eucalyptus', 'Peppermint', 'Unscented', 'Citrus', 'Rose', 'Cedar'] as const;

export const COLOURS = ['Black', 'Sage', 'Gold', 'Clear', 'Rose', 'Slate', 'Ocean'] as const;
