/**
 * A deterministic synthetic menu for benchmarks and property tests: realistic strain names, brands,
 * tags, descriptions, flower sold by size as configurables with children, a few kits (grouped and
 * bundle), specials with windows around GENERATOR_NOW, and the odd disabled, hidden or
 * out-of-stock product. Same options, same documents, on every machine.
 */
import type { CatalogProduct, ConfigurableChild, ProductLicenseType, ProductType } from '@verdant/domain';
import { IN_STOCK, OUT_OF_STOCK, makeChild, makeLinked, makeProduct } from './fixtures.ts';

/** The instant the generated specials are arranged around. */
export const GENERATOR_NOW = new Date('2026-06-01T12:00:00.000Z');
const DAY = 86_400_000;

/** mulberry32: tiny, fast, good enough for test data. */
export function createRng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    sample: <T>(items: readonly T[], n: number): T[] => {
      const pool = [...items];
      const out: T[] = [];
      while (out.length < n && pool.length > 0) out.push(pool.splice(Math.floor(next() * pool.length), 1)[0]);
      return out;
    },
  };
}
type Rng = ReturnType<typeof createRng>;

// prettier-ignore
export const STRAIN_NAMES = [
  'Blue Dream', 'OG Kush', 'Sour Diesel', 'Granddaddy Purple', 'Girl Scout Cookies', 'Gelato', 'Wedding Cake',
  'Northern Lights', 'Jack Herer', 'Durban Poison', 'Green Crack', 'Pineapple Express', 'Purple Punch', 'Zkittlez',
  'Gorilla Glue', 'White Widow', 'Bubba Kush', 'Strawberry Cough', 'Lemon Haze', 'Super Silver Haze', 'Tangie',
  'Blueberry', 'Cherry Pie', 'Animal Mints', 'Runtz', 'Ice Cream Cake', 'Mimosa', 'Chemdawg', 'Trainwreck',
  'Maui Wowie', 'Harlequin', 'ACDC', 'Cannatonic', 'Forbidden Fruit', 'Sunset Sherbet', 'Biscotti', 'Do-Si-Dos',
  'Lava Cake', 'Golden Goat', 'Skywalker OG',
] as const;
const STRAIN_TYPES = ['Indica', 'Sativa', 'Hybrid', 'CBD'] as const;
// prettier-ignore
const EFFECTS = ['relaxed', 'happy', 'euphoric', 'uplifted', 'creative', 'focused', 'sleepy', 'calm', 'energetic', 'hungry', 'talkative', 'giggly'];
// prettier-ignore
const FLAVOURS = ['berry', 'citrus', 'earthy', 'pine', 'diesel', 'sweet', 'grape', 'vanilla', 'mint', 'tropical', 'lemon', 'spicy', 'skunk', 'lavender'];

type Kind = 'flower' | 'preroll' | 'vape' | 'concentrate' | 'edible' | 'tincture' | 'topical' | 'accessory';
const KINDS: readonly { kind: Kind; weight: number; category: [number, string]; label: string; price: [number, number] }[] = [
  { kind: 'flower', weight: 30, category: [10, 'Flower'], label: '', price: [1500, 6000] },
  { kind: 'preroll', weight: 15, category: [11, 'Pre-Rolls'], label: 'Pre-Roll', price: [800, 4500] },
  { kind: 'vape', weight: 15, category: [12, 'Vapes'], label: 'Live Resin Cart', price: [2500, 7000] },
  { kind: 'concentrate', weight: 10, category: [13, 'Concentrates'], label: 'Badder', price: [3000, 9000] },
  { kind: 'edible', weight: 15, category: [14, 'Edibles'], label: 'Gummies', price: [1200, 3500] },
  { kind: 'tincture', weight: 5, category: [15, 'Tinctures'], label: 'Tincture', price: [3000, 8000] },
  { kind: 'topical', weight: 4, category: [16, 'Topicals'], label: 'Balm', price: [2000, 6000] },
  { kind: 'accessory', weight: 6, category: [17, 'Accessories'], label: 'Grinder', price: [500, 16000] },
];
const TOTAL_WEIGHT = KINDS.reduce((s, k) => s + k.weight, 0);
// prettier-ignore
const BRANDS = [
  [101, 'Verdant Reserve'], [102, 'Verdant Labs'], [103, 'Golden State Greens'], [104, 'Emerald Coast Growers'],
  [105, 'Sierra Sun Farms'], [106, 'Humboldt Heritage'], [107, 'Fog City Vapor'], [108, 'High Desert Rosin'],
  [109, 'Canopy Kitchen'], [110, 'Sweet Leaf Confections'], [111, 'Plant Doctor Remedies'], [112, 'Coastal Calm'],
  [113, 'Roll & Co.'], [114, 'Verdant Goods'],
] as const;
const DISCOUNT_GROUPS = [[1, 'House flower'], [2, 'House vapes'], [3, 'Patient wellness'], [4, 'Pre-roll multipacks']] as const;
const SIZES = [91, 92, 93, 94, 95] as const;
const SIZE_CODES: Record<number, string> = { 91: '1G', 92: '8TH', 93: 'QTR', 94: 'HALF', 95: 'OZ' };
const SIZE_FACTOR: Record<number, number> = { 91: 0.35, 92: 1, 93: 1.9, 94: 3.6, 95: 6.8 };
const iso = (ms: number) => new Date(ms).toISOString();

function pickKind(rng: Rng) {
  let r = rng.next() * TOTAL_WEIGHT;
  for (const k of KINDS) if ((r -= k.weight) < 0) return k;
  return KINDS[0];
}

/** A special on ~15% of prices: some running at GENERATOR_NOW, some past, some upcoming. */
function special(rng: Rng, price: number) {
  if (!rng.chance(0.15)) return { special_price: null, special_from_date: null, special_to_date: null };
  const start = GENERATOR_NOW.getTime() + rng.int(-20, 10) * DAY;
  const end = start + rng.int(1, 30) * DAY;
  return {
    special_price: Math.round(price * (0.6 + rng.next() * 0.3)),
    special_from_date: rng.chance(0.2) ? null : iso(start),
    // Some windows end on a bare date (runs through that day).
    special_to_date: rng.chance(0.3) ? iso(end).slice(0, 10) : iso(end),
  };
}

function children(rng: Rng, id: number, sku: string, base: number): ConfigurableChild[] {
  return rng.sample(SIZES, rng.int(2, 5)).sort().map((size, i) => {
    const price = Math.round((base * SIZE_FACTOR[size]) / 100) * 100;
    return makeChild({
      id: id * 10 + i,
      sku: `${sku}-${SIZE_CODES[size]}`,
      name: `${SIZE_CODES[size]}`,
      size,
      status: rng.chance(0.05) ? 2 : 1,
      stock: rng.chance(0.12) ? OUT_OF_STOCK : IN_STOCK,
      price,
      ...special(rng, price),
    });
  });
}

export interface GeneratorOptions {
  count: number;
  storeId?: number;
  seed?: number;
  /** First product id (default 1). */
  firstId?: number;
}

export function generateProducts({ count, storeId = 1, seed = 42, firstId = 1 }: GeneratorOptions): CatalogProduct[] {
  const out: CatalogProduct[] = [];
  for (let n = 0; n < count; n++) {
    const id = firstId + n;
    const rng = createRng(seed * 1_000_003 + id);
    const k = pickKind(rng);
    const strain = rng.pick(STRAIN_NAMES);
    const strainType = rng.pick(STRAIN_TYPES);
    const [brandId, brand] = rng.pick(BRANDS);
    const effects = rng.sample(EFFECTS, 3);
    const flavours = rng.sample(FLAVOURS, 2);
    const name = k.kind === 'flower' ? strain : k.kind === 'edible' ? `${strain} ${rng.pick(['Gummies', 'Chocolate', 'Mints'])} ${rng.pick([5, 10, 100])}mg` : `${strain} ${k.label}`;
    const sku = `${k.kind.slice(0, 2).toUpperCase()}-${strain.replace(/[^A-Za-z]/g, '').slice(0, 6).toUpperCase()}-${id.toString(36).toUpperCase()}`;
    const price = Math.round(rng.int(k.price[0], k.price[1]) / 50) * 50;
    const kit = rng.next();
    const type: ProductType = k.kind === 'flower' ? 'configurable' : kit < 0.01 ? 'grouped' : kit < 0.02 ? 'bundle' : 'simple';
    const group = rng.chance(0.2) ? rng.pick(DISCOUNT_GROUPS) : null;
    const license: ProductLicenseType = rng.chance(0.45) ? 'both' : rng.chance(0.73) ? 'recreational' : 'medical';
    const members = () => [1, 2].map((i) => makeLinked({ id: id * 10 + i, sku: `${sku}-M${i}`, price: rng.int(5, 40) * 100, ...special(rng, 4000) }));
    out.push(
      makeProduct({
        id,
        sku,
        type_id: type,
        name,
        status: rng.chance(0.03) ? 2 : rng.chance(0.02) ? 0 : 1,
        visibility: rng.chance(0.05) ? 1 : rng.pick([4, 4, 4, 2, 3]),
        dispensaryID: storeId,
        license_type: license,
        category_ids: [k.category[0]],
        category: [{ category_id: k.category[0], name: k.category[1], slug: k.category[1].toLowerCase(), url_path: `menu/${k.category[1].toLowerCase()}` }],
        size: null,
        uom: k.kind === 'flower' ? 'g' : 'ea',
        brand,
        brand_id: brandId,
        discount_group: group ? group[1] : null,
        discount_group_id: group ? group[0] : null,
        canna_type: k.kind === 'accessory' ? 4 : 1,
        strain_type: strainType,
        thc_percent: rng.int(5, 30),
        description: `${name} is a ${strainType.toLowerCase()} ${k.category[1].toLowerCase()} from ${brand}. Expect ${effects.join(', ')} effects with ${flavours.join(' and ')} notes. Lab tested, grown in small batches.`,
        discovery_tags: [...effects, ...flavours],
        staff_pick: rng.chance(0.1),
        best_seller: rng.chance(0.1),
        new: rng.chance(0.15),
        created_at: iso(GENERATOR_NOW.getTime() - rng.int(30, 540) * DAY),
        updated_at: iso(GENERATOR_NOW.getTime() - rng.int(0, 365) * DAY - rng.int(0, DAY - 1)),
        stock: rng.chance(0.08) ? OUT_OF_STOCK : IN_STOCK,
        price,
        ...special(rng, price),
        configurable_children: type === 'configurable' ? children(rng, id, sku, price) : [],
        product_links: type === 'grouped' ? members().map((product, i) => ({ link_type: 'associated', linked_product_sku: product.sku, linked_product_type: 'simple', qty: 1, position: i, is_default: false, product })) : [],
        bundle_options:
          type === 'bundle'
            ? [1, 2].map((option_id) => ({
                option_id,
                title: `Choice ${option_id}`,
                type: 'radio' as const,
                required: true,
                position: option_id,
                product_links: members().map((product, i) => ({ link_type: 'bundle' as const, linked_product_sku: product.sku, linked_product_type: 'simple' as const, qty: rng.int(1, 2), position: i, is_default: i === 1, product })),
              }))
            : [],
      }),
    );
  }
  return out;
}
