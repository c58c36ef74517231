/**
 * Candidates for infused products (edibles, tinctures, topicals) and accessories. Potency is in mg
 * of THC per package; the THC-equivalent grams follow from it (see data/merch.ts). Hemp-derived
 * CBD items are canna_type 6: not cannabis for limits and taxed as general merchandise.
 */
import { brandsFor, licence, type CandidateSource } from './candidate.ts';
import type { CategoryKey } from './categories.ts';
import {
  CANNA_TYPE,
  COLOURS,
  FLAVOURS,
  SCENTS,
  TAX_CLASS_CANNABIS,
  TAX_CLASS_GENERAL,
  thcMgEquivalent,
  type ProductKind,
} from './data/merch.ts';
import type { Rng } from './prng.ts';
import { paragraphs } from './text.ts';

interface Infused {
  name: string;
  category: CategoryKey;
  thcMg: number;
  cbdMg?: number;
  price: [number, number];
  tags: string[];
  /** Medical-only: above the adult-use package cap, or a patient-oriented format. */
  medical?: boolean;
  hemp?: boolean;
  pieces?: number;
  what: string;
}

function infused(kind: ProductKind, discountGroupId: number | null, items: (rng: Rng) => Infused[]): CandidateSource {
  return (rng) =>
    rng.shuffle(items(rng)).map((item) => {
      const hemp = item.hemp === true;
      const thcMg = hemp ? 0 : item.thcMg;
      const attributes: Record<string, string> = { thc_mg: String(thcMg), cbd_mg: String(item.cbdMg ?? 0) };
      if (item.pieces) attributes.pieces = String(item.pieces);
      return {
        name: item.name,
        category: item.category,
        brandId: rng.pick(brandsFor(kind)),
        tags: item.tags,
        licenseType: item.medical ? 'medical' : licence(rng, 0.04, 0.06),
        cannaType: hemp ? CANNA_TYPE.hempCbd : CANNA_TYPE.infused,
        taxClassId: hemp ? TAX_CLASS_GENERAL : TAX_CLASS_CANNABIS,
        unitWeight: hemp ? null : thcMgEquivalent(thcMg),
        basePriceCents: rng.int(item.price[0], item.price[1]) * 100,
        discountGroupId,
        shortDescription: `${item.what} by {brand}: ${thcMg} mg THC${item.cbdMg ? `, ${item.cbdMg} mg CBD` : ''}.`,
        description: paragraphs(
          `${item.name} from {brand}. ${item.what} with ${thcMg} mg THC${item.cbdMg ? ` and ${item.cbdMg} mg CBD` : ''} per package${item.pieces ? `, in ${item.pieces} pieces` : ''}.`,
          hemp
            ? 'Made with hemp-derived CBD; it does not count toward cannabis purchase limits.'
            : 'Start low and go slow: infused products can take up to two hours to take effect.',
        ),
        attributes,
      };
    });
}

const CHOCOLATE_NOTES = ['Sea Salt', 'Espresso', 'Orange', 'Mint', 'Raspberry', 'Almond'];
const BAKED = ['Fudge', 'Salted Caramel', 'Peanut Butter', 'Snickerdoodle'];
const TINCTURE_FLAVOURS = ['Peppermint', 'Unflavored', 'Lemon Ginger', 'Cinnamon', 'Orange'];

// One line per product template: these are data tables.
// prettier-ignore
const edibles = infused('edible', null, () => [
  ...FLAVOURS.flatMap((f): Infused[] => {
    const flavour = f.toLowerCase();
    return [
      { name: `${f} Gummies 100 mg`, category: 'gummies', thcMg: 100, pieces: 10, price: [16, 24], tags: ['happy', 'relaxed', flavour, 'social'], what: 'Fruit gummies' },
      { name: `Sleep ${f} Gummies 100 mg`, category: 'gummies', thcMg: 100, pieces: 10, price: [18, 26], tags: ['sleepy', 'calm', flavour, 'sleep'], what: 'THC and CBN gummies' },
      { name: `1:1 ${f} Gummies 100 mg`, category: 'gummies', thcMg: 100, cbdMg: 100, pieces: 10, price: [18, 26], tags: ['calm', 'balanced', flavour, 'stress'], what: 'Balanced THC:CBD gummies' },
      // Above California's 100 mg adult-use package cap: patients only.
      { name: `${f} Gummies 500 mg`, category: 'gummies', thcMg: 500, pieces: 10, price: [45, 60], tags: ['relaxed', flavour, 'pain'], medical: true, what: 'High-dose patient gummies' },
      { name: `CBD ${f} Gummies 300 mg`, category: 'gummies', thcMg: 0, cbdMg: 300, pieces: 30, price: [25, 35], tags: ['calm', flavour, 'anxiety'], hemp: true, what: 'Hemp CBD gummies' },
      { name: `Sparkling ${f} Soda 10 mg`, category: 'edibles', thcMg: 10, price: [5, 8], tags: ['social', 'uplifted', flavour], what: 'A sparkling cannabis beverage' },
    ];
  }),
  ...CHOCOLATE_NOTES.flatMap((n): Infused[] => [
    { name: `Dark Chocolate ${n} Bar 100 mg`, category: 'chocolates', thcMg: 100, pieces: 20, price: [18, 26], tags: ['relaxed', 'chocolate', n.toLowerCase()], what: 'A dark chocolate bar' },
    { name: `Milk Chocolate ${n} Bites 100 mg`, category: 'chocolates', thcMg: 100, pieces: 10, price: [18, 25], tags: ['happy', 'chocolate', n.toLowerCase()], what: 'Milk chocolate bites' },
  ]),
  ...BAKED.map((b): Infused => ({ name: `${b} Brownie Bites 100 mg`, category: 'edibles', thcMg: 100, pieces: 10, price: [18, 24], tags: ['relaxed', 'sweet', b.toLowerCase()], what: 'Baked brownie bites' })),
]);

// prettier-ignore
const tinctures = infused('tincture', 3, () =>
  TINCTURE_FLAVOURS.flatMap((f): Infused[] => {
    const flavour = f.toLowerCase();
    return [
      { name: `${f} THC Tincture 1000 mg`, category: 'tinctures', thcMg: 1000, price: [55, 75], tags: ['pain', 'sleep', flavour], medical: true, what: 'A full-strength THC tincture' },
      { name: `${f} 1:1 Balance Tincture 300 mg`, category: 'tinctures', thcMg: 150, cbdMg: 150, price: [35, 50], tags: ['calm', 'balanced', flavour, 'stress'], what: 'A balanced THC:CBD tincture' },
      { name: `${f} Sleep Tincture 500 mg`, category: 'tinctures', thcMg: 400, cbdMg: 100, price: [40, 55], tags: ['sleepy', 'sleep', flavour], what: 'A THC, CBN and CBD sleep tincture' },
      { name: `${f} CBD Tincture 1500 mg`, category: 'tinctures', thcMg: 0, cbdMg: 1500, price: [45, 65], tags: ['calm', 'clear-headed', flavour, 'anxiety'], hemp: true, what: 'A hemp CBD tincture' },
      { name: `${f} 20:1 CBD Tincture 600 mg`, category: 'tinctures', thcMg: 30, cbdMg: 570, price: [40, 55], tags: ['calm', 'clear-headed', flavour, 'pain'], what: 'A CBD-rich cannabis tincture' },
    ];
  }),
);

// prettier-ignore
const topicals = infused('topical', 3, () => [
  ...SCENTS.flatMap((sc): Infused[] => {
    const scent = sc.toLowerCase();
    return [
      { name: `${sc} Relief Balm 200 mg`, category: 'topicals', thcMg: 200, price: [30, 45], tags: ['pain', 'soothing', scent], what: 'A THC relief balm' },
      { name: `${sc} Cooling Rub 1:1 200 mg`, category: 'topicals', thcMg: 100, cbdMg: 100, price: [28, 40], tags: ['pain', 'cooling', scent], what: 'A cooling THC:CBD rub' },
      { name: `${sc} CBD Body Lotion 500 mg`, category: 'topicals', thcMg: 0, cbdMg: 500, price: [25, 38], tags: ['soothing', 'skin', scent], hemp: true, what: 'A hemp CBD body lotion' },
      { name: `${sc} Bath Soak 100 mg`, category: 'topicals', thcMg: 100, price: [18, 26], tags: ['relaxed', 'bath', scent], what: 'A THC bath soak' },
    ];
  }),
  { name: 'Transdermal Patch 20 mg', category: 'topicals', thcMg: 20, price: [12, 16], tags: ['pain', 'long-lasting'], what: 'A slow-release transdermal patch' },
]);

interface Accessory {
  name: string;
  price: [number, number];
  custom?: boolean;
}

const ACCESSORIES: Accessory[] = [
  { name: 'Aluminum Grinder 4-Piece', price: [18, 35], custom: true },
  { name: 'King Size Rolling Papers', price: [3, 5] },
  { name: 'Hemp Wick 10 ft', price: [4, 6] },
  { name: '510 Vape Battery', price: [15, 28] },
  { name: 'Glass Spoon Pipe', price: [15, 30] },
  { name: 'Bamboo Rolling Tray', price: [12, 22], custom: true },
  { name: 'Smell-Proof Stash Bag', price: [18, 30] },
  { name: 'Refillable Lighter', price: [3, 6] },
  { name: 'Pre-Roll Cones 6-Pack', price: [4, 7] },
  { name: 'Silicone Dab Mat', price: [8, 14] },
  { name: 'Doob Tubes 5-Pack', price: [5, 8] },
  { name: 'Pipe Cleaning Kit', price: [9, 15] },
  { name: 'Humidity Pack 62%', price: [3, 5] },
  { name: 'Ceramic Stash Jar', price: [16, 28], custom: true },
];

const accessories: CandidateSource = (rng) => {
  const plain = rng.shuffle(ACCESSORIES).map((a) => [a, a.name] as const);
  const coloured = rng.shuffle(ACCESSORIES.flatMap((a) => COLOURS.map((c) => [a, `${c} ${a.name}`] as const)));
  return [...plain, ...coloured].map(([a, name]) => ({
    name,
    category: 'accessories',
    brandId: rng.pick(brandsFor('accessory')),
    tags: ['accessory', 'gift'],
    cannaType: CANNA_TYPE.accessory,
    taxClassId: TAX_CLASS_GENERAL,
    basePriceCents: rng.int(a.price[0], a.price[1]) * 100 - 1,
    shortDescription: `${a.name} by {brand}.`,
    description: paragraphs(
      `${name} by {brand}.`,
      'Not a cannabis product: it does not count toward your purchase limit.',
    ),
    customOptions: a.custom === true,
  }));
};

export const INFUSED_TEMPLATES = {
  edible: edibles,
  tincture: tinctures,
  topical: topicals,
  accessory: accessories,
} as const satisfies Partial<Record<ProductKind, CandidateSource>>;
