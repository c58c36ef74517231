/**
 * Well-known strains with their usual type, potency range and the effects and flavours menus list
 * for them. THC/CBD figures are typical lab ranges, not claims about any real batch.
 */
export type StrainType = 'Indica' | 'Sativa' | 'Hybrid' | 'CBD';

export interface Strain {
  name: string;
  type: StrainType;
  /** Typical THC % range. */
  thc: readonly [number, number];
  /** Typical CBD % range. */
  cbd: readonly [number, number];
  effects: readonly string[];
  flavours: readonly string[];
  uses: readonly string[];
  lineage: string;
  terpene: string;
}

const s = (
  name: string,
  type: StrainType,
  thc: [number, number],
  effects: string,
  flavours: string,
  uses: string,
  lineage: string,
  terpene: string,
  cbd: [number, number] = [0.05, 0.9],
): Strain => ({
  name,
  type,
  thc,
  cbd,
  effects: effects.split(', '),
  flavours: flavours.split(', '),
  uses: uses.split(', '),
  lineage,
  terpene,
});

/** Blue Dream comes first: the demo guarantees a product named exactly "Blue Dream". */
// prettier-ignore
export const STRAINS: readonly Strain[] = [
  s('Blue Dream', 'Hybrid', [17, 24], 'relaxed, happy, creative', 'berry, sweet, herbal', 'daytime, stress', 'Blueberry × Haze', 'myrcene'),
  s('OG Kush', 'Hybrid', [19, 26], 'relaxed, euphoric, hungry', 'earthy, pine, fuel', 'stress, appetite', 'Chemdawg × Hindu Kush', 'myrcene'),
  s('Sour Diesel', 'Sativa', [19, 25], 'energetic, uplifted, focused', 'diesel, citrus, skunk', 'daytime, fatigue', 'Chemdawg 91 × Super Skunk', 'caryophyllene'),
  s('Granddaddy Purple', 'Indica', [17, 23], 'sleepy, relaxed, calm', 'grape, berry, sweet', 'sleep, pain', 'Purple Urkle × Big Bud', 'myrcene'),
  s('Girl Scout Cookies', 'Hybrid', [20, 28], 'euphoric, relaxed, happy', 'sweet, earthy, mint', 'stress, appetite', 'OG Kush × Durban Poison', 'caryophyllene'),
  s('Gelato', 'Hybrid', [20, 27], 'euphoric, relaxed, creative', 'sweet, citrus, lavender', 'stress, evening', 'Sunset Sherbet × Thin Mint GSC', 'limonene'),
  s('Wedding Cake', 'Indica', [22, 28], 'relaxed, happy, hungry', 'vanilla, sweet, pepper', 'evening, appetite', 'Triangle Kush × Animal Mints', 'limonene'),
  s('Northern Lights', 'Indica', [16, 21], 'sleepy, relaxed, calm', 'earthy, pine, sweet', 'sleep, pain', 'Afghani × Thai', 'myrcene'),
  s('Jack Herer', 'Sativa', [18, 24], 'uplifted, creative, focused', 'pine, spicy, earthy', 'daytime, focus', 'Haze × Northern Lights #5 × Shiva Skunk', 'terpinolene'),
  s('Durban Poison', 'Sativa', [17, 24], 'energetic, uplifted, talkative', 'anise, sweet, pine', 'daytime, fatigue', 'South African landrace', 'terpinolene'),
  s('Green Crack', 'Sativa', [17, 23], 'energetic, focused, happy', 'citrus, mango, sweet', 'daytime, fatigue', 'Skunk #1 × Afghani', 'myrcene'),
  s('Pineapple Express', 'Hybrid', [18, 25], 'happy, uplifted, creative', 'pineapple, tropical, cedar', 'daytime, social', 'Trainwreck × Hawaiian', 'caryophyllene'),
  s('Purple Punch', 'Indica', [18, 25], 'sleepy, relaxed, happy', 'grape, berry, vanilla', 'sleep, evening', 'Larry OG × Granddaddy Purple', 'caryophyllene'),
  s('Zkittlez', 'Indica', [15, 23], 'relaxed, happy, calm', 'berry, tropical, sweet', 'evening, stress', 'Grape Ape × Grapefruit', 'caryophyllene'),
  s('Gorilla Glue #4', 'Hybrid', [24, 30], 'relaxed, euphoric, sleepy', 'diesel, pine, earthy', 'pain, evening', "Chem's Sister × Sour Dubb × Chocolate Diesel", 'caryophyllene'),
  s('Super Lemon Haze', 'Sativa', [17, 23], 'energetic, uplifted, talkative', 'lemon, citrus, sweet', 'daytime, social', 'Lemon Skunk × Super Silver Haze', 'terpinolene'),
  s('Bubba Kush', 'Indica', [15, 22], 'sleepy, relaxed, hungry', 'coffee, chocolate, earthy', 'sleep, appetite', 'OG Kush × unknown indica', 'caryophyllene'),
  s('Strawberry Cough', 'Sativa', [16, 22], 'uplifted, happy, energetic', 'strawberry, berry, sweet', 'daytime, social', 'Strawberry Fields × Haze', 'myrcene'),
  s('Runtz', 'Hybrid', [19, 27], 'euphoric, happy, relaxed', 'candy, fruity, sweet', 'social, stress', 'Zkittlez × Gelato', 'caryophyllene'),
  s('Ice Cream Cake', 'Indica', [20, 26], 'sleepy, relaxed, calm', 'vanilla, creamy, sweet', 'sleep, evening', 'Wedding Cake × Gelato #33', 'limonene'),
  s('Tangie', 'Sativa', [18, 22], 'uplifted, creative, happy', 'orange, citrus, tropical', 'daytime, creativity', 'California Orange × Skunk', 'myrcene'),
  s('Mimosa', 'Sativa', [17, 24], 'energetic, uplifted, focused', 'citrus, orange, tropical', 'morning, focus', 'Clementine × Purple Punch', 'limonene'),
  s('Cherry Pie', 'Hybrid', [16, 24], 'relaxed, happy, euphoric', 'cherry, sweet, earthy', 'stress, evening', 'Granddaddy Purple × Durban Poison', 'myrcene'),
  s('Trainwreck', 'Sativa', [18, 25], 'euphoric, uplifted, creative', 'lemon, pine, spicy', 'daytime, pain', 'Mexican × Thai × Afghani', 'terpinolene'),
  s('Maui Wowie', 'Sativa', [13, 19], 'energetic, happy, creative', 'pineapple, tropical, sweet', 'daytime, social', 'Hawaiian landrace', 'myrcene'),
  s('Forbidden Fruit', 'Indica', [19, 26], 'relaxed, calm, happy', 'cherry, tropical, citrus', 'evening, stress', 'Cherry Pie × Tangie', 'myrcene'),
  s('Lemon Cherry Gelato', 'Hybrid', [21, 28], 'euphoric, relaxed, giggly', 'lemon, cherry, sweet', 'social, evening', 'Sunset Sherbet × Girl Scout Cookies', 'caryophyllene'),
  s('Apple Fritter', 'Hybrid', [22, 28], 'relaxed, happy, euphoric', 'apple, sweet, vanilla', 'stress, evening', 'Sour Apple × Animal Cookies', 'caryophyllene'),
  s('Blueberry', 'Indica', [16, 22], 'relaxed, sleepy, happy', 'blueberry, berry, sweet', 'sleep, pain', 'Afghani × Thai', 'myrcene'),
  s('Skywalker OG', 'Indica', [20, 26], 'sleepy, relaxed, hungry', 'diesel, earthy, spicy', 'sleep, pain', 'Skywalker × OG Kush', 'myrcene'),
  s('Headband', 'Hybrid', [20, 27], 'relaxed, focused, euphoric', 'lemon, diesel, earthy', 'stress, headaches', 'OG Kush × Sour Diesel', 'limonene'),
  s('Chemdawg', 'Hybrid', [18, 25], 'euphoric, relaxed, creative', 'diesel, chemical, pine', 'stress, pain', 'unknown', 'caryophyllene'),
  s('Sunset Sherbet', 'Indica', [18, 24], 'relaxed, happy, euphoric', 'berry, citrus, sweet', 'evening, stress', 'Girl Scout Cookies × Pink Panties', 'caryophyllene'),
  s('Do-Si-Dos', 'Indica', [19, 28], 'relaxed, sleepy, euphoric', 'earthy, sweet, floral', 'sleep, pain', 'Girl Scout Cookies × Face Off OG', 'limonene'),
  s('Kush Mints', 'Hybrid', [20, 28], 'relaxed, calm, focused', 'mint, earthy, sweet', 'stress, evening', 'Animal Mints × Bubba Kush', 'limonene'),
  s('Harlequin', 'CBD', [4, 7], 'clear-headed, calm, focused', 'mango, earthy, sweet', 'pain, anxiety, daytime', 'Colombian Gold × Nepali indica', 'myrcene', [8, 15]),
  s('ACDC', 'CBD', [0.5, 2], 'calm, clear-headed, relaxed', 'earthy, pine, woody', 'pain, anxiety', 'Cannatonic phenotype', 'myrcene', [14, 20]),
  s('Cannatonic', 'CBD', [3, 7], 'calm, relaxed, clear-headed', 'citrus, earthy, sweet', 'pain, anxiety', 'MK Ultra × G13 Haze', 'myrcene', [7, 12]),
];

export function findStrain(name: string): Strain {
  const found = STRAINS.find((x) => x.name === name);
  if (!found) throw new Error(`Unknown strain ${name}`);
  return found;
}
