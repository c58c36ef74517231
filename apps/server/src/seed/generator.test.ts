/** Unit tests of the pure demo generator: no database involved. */
import { SIZE_IDS, SIZE_WEIGHTS_GRAMS, isSpecialPriceActive } from '@verdant/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_STORES_FILE } from '../config.ts';
import { generateCatalog, MIN_PRODUCTS_PER_STORE } from './catalog.ts';
import { readStoresFile } from './stores-file.ts';
import { CATEGORY_TREE } from './categories.ts';
import { buildMasterCatalog, kindQuotas } from './master.ts';
import { flowerSizePrices, specialPrice, storePriceFactor } from './pricing.ts';
import { createRng, hashSeed, mulberry32 } from './prng.ts';
import { escapeXml, productSvg } from './svg.ts';
import { initials, skuFrom, slugify } from './text.ts';

const storesFile = readStoresFile(DEMO_STORES_FILE);
const referenceDate = new Date('2026-06-15T12:00:00.000Z');

describe('prng', () => {
  it('mulberry32 repeats for a seed and differs between seeds', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('derives independent streams from string keys', () => {
    expect(hashSeed('store', 1, 'prices')).toBe(hashSeed('store:1:prices'));
    expect(hashSeed('store', 1, 'prices')).not.toBe(hashSeed('store', 2, 'prices'));
    const rng = createRng('t');
    for (let i = 0; i < 200; i++) {
      const n = rng.int(3, 7);
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(7);
    }
    const items = [1, 2, 3, 4, 5, 6];
    expect(createRng('s').shuffle(items).sort()).toEqual(items);
    expect(createRng('s').sample(items, 3)).toHaveLength(3);
  });
});

describe('text helpers', () => {
  it('slugifies names and builds skus', () => {
    expect(slugify('Girl Scout Cookies')).toBe('girl-scout-cookies');
    expect(slugify('Roll & Co. 3.5 g')).toBe('roll-and-co-3-5-g');
    expect(skuFrom('FL', 'Blue Dream')).toBe('FL-BLUE-DREAM');
    expect(skuFrom('AC', 'A very long accessory name that keeps going and going').length).toBeLessThanOrEqual(40);
    expect(initials('Granddaddy Purple')).toBe('GP');
    expect(initials('510 Vape Battery')).toBe('VB');
  });
});

describe('pricing', () => {
  it('flower prices rise with size and fall per gram', () => {
    for (const oneGram of [800, 1000, 1200, 1700]) {
      const prices = flowerSizePrices(oneGram);
      const perGram = SIZE_IDS.map((s) => prices[s] / SIZE_WEIGHTS_GRAMS[s]);
      for (let i = 1; i < SIZE_IDS.length; i++) {
        expect(prices[SIZE_IDS[i]]).toBeGreaterThan(prices[SIZE_IDS[i - 1]]);
        expect(perGram[i]).toBeLessThan(perGram[i - 1]);
      }
      expect(Object.values(prices).every((c) => Number.isInteger(c) && c % 100 === 0)).toBe(true);
    }
  });

  it('special prices are whole cents below the price', () => {
    const rng = createRng('specials');
    for (const price of [499, 999, 2500, 4000]) {
      const special = specialPrice(price, rng);
      expect(special).not.toBeNull();
      expect(special!).toBeLessThan(price);
      expect(Number.isInteger(special)).toBe(true);
    }
  });

  it('store price levels differ by store', () => {
    const levels = [1, 2, 3, 4].map(storePriceFactor);
    expect(new Set(levels).size).toBeGreaterThan(1);
    expect(levels.every((l) => l >= 0.94 && l <= 1.08)).toBe(true);
  });
});

describe('master catalogue', () => {
  it('splits a menu across kinds, at least one each', () => {
    const q = kindQuotas(148);
    expect(Object.values(q).reduce((a, b) => a + b, 0)).toBe(148);
    expect(Object.values(kindQuotas(8)).every((n) => n === 1)).toBe(true);
    expect(() => kindQuotas(7)).toThrow(RangeError);
  });

  it('has unique names and skus and Blue Dream first', () => {
    const masters = buildMasterCatalog(148);
    expect(new Set(masters.map((m) => m.name)).size).toBe(masters.length);
    expect(new Set(masters.map((m) => m.sku)).size).toBe(masters.length);
    expect(masters[0]).toMatchObject({ name: 'Blue Dream', kind: 'flower', strainType: 'Hybrid', licenseType: 'both' });
  });
});

describe('svg images', () => {
  it('are deterministic, well-formed and escape text', () => {
    const spec = {
      sku: 'AC-X',
      name: 'Tom & Jerry <Grinder>',
      kind: 'accessory' as const,
      strainType: null,
      caption: 'Roll & Co.',
    };
    const svg = productSvg(spec);
    expect(productSvg(spec)).toBe(svg);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('Tom &amp; Jerry &lt;Grinder&gt;');
    expect(svg).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
    expect(escapeXml(`"'`)).toBe('&quot;&apos;');
  });
});

describe('generateCatalog', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('is pure: same input, same output, whatever the clock; never calls Math.random', () => {
    const random = vi.spyOn(Math, 'random');
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const a = generateCatalog(storesFile, { referenceDate, productsPerStore: 60 });
    vi.setSystemTime(new Date('2001-01-01T00:00:00Z'));
    const b = generateCatalog(storesFile, { referenceDate, productsPerStore: 60 });
    expect(b).toEqual(a);
    expect(random).not.toHaveBeenCalled();
  });

  it('rejects impossible options', () => {
    expect(() => generateCatalog(storesFile, { referenceDate, productsPerStore: MIN_PRODUCTS_PER_STORE - 1 })).toThrow(
      RangeError,
    );
    expect(() => generateCatalog(storesFile, { referenceDate: new Date('nope') })).toThrow(RangeError);
  });

  const catalog = generateCatalog(storesFile, { referenceDate });
  const store = (code: string) => catalog.stores.find((s) => s.storeCode === code)!.rows;

  it('lists the requested number of products per store, plus flower children and kit members', () => {
    for (const { rows } of catalog.stores) {
      const listed = rows.products.filter(
        (p) => p.parent_id == null && !p.sku.startsWith('KIT-SAMPLER-') && !p.sku.startsWith('BDL-NIGHT-IN-'),
      );
      expect(listed).toHaveLength(150);
    }
  });

  it('keeps licence types within what each store serves', () => {
    expect(store('eastside').products.some((p) => p.license_type === 'medical')).toBe(false);
    expect(store('wellness').products.some((p) => p.license_type === 'recreational')).toBe(false);
    expect(store('downtown').products.some((p) => p.license_type === 'medical')).toBe(true);
  });

  it('relates every row to a product or category of the same store', () => {
    for (const { storeId, rows } of catalog.stores) {
      const ids = new Set(rows.products.map((p) => p.id));
      const categoryIds = new Set(rows.categories.map((c) => c.id));
      expect(rows.products.every((p) => p.store_id === storeId && (p.parent_id == null || ids.has(p.parent_id)))).toBe(
        true,
      );
      expect(rows.product_categories.every((pc) => ids.has(pc.product_id) && categoryIds.has(pc.category_id))).toBe(
        true,
      );
      expect(rows.stock.every((s) => ids.has(s.product_id))).toBe(true);
      expect(rows.stock).toHaveLength(rows.products.length);
      const skus = new Set(rows.products.map((p) => p.sku));
      expect(rows.product_links.every((l) => skus.has(l.linked_product_sku))).toBe(true);
      expect(new Set(rows.products.map((p) => p.url_path)).size).toBe(rows.products.length);
    }
  });

  it('has special prices of every kind of window around the reference date', () => {
    const specials = catalog.stores.flatMap((s) => s.rows.product_prices).filter((p) => p.special_price_cents != null);
    const active = specials.filter((p) =>
      isSpecialPriceActive(
        {
          price: p.price_cents,
          special_price: p.special_price_cents,
          special_from_date: p.special_from_date,
          special_to_date: p.special_to_date,
        },
        referenceDate,
      ),
    );
    expect(active.length).toBeGreaterThan(0);
    expect(active.length).toBeLessThan(specials.length);
    expect(specials.some((p) => p.special_to_date != null && p.special_to_date < referenceDate.toISOString())).toBe(
      true,
    );
    expect(specials.some((p) => p.special_from_date != null && p.special_from_date > referenceDate.toISOString())).toBe(
      true,
    );
    expect(specials.some((p) => p.special_from_date == null && p.special_to_date == null)).toBe(true);
  });

  it('dates everything relative to the reference date', () => {
    const ref = referenceDate.toISOString();
    for (const { rows } of catalog.stores) {
      expect(
        rows.products.every((p) => p.created_at < ref && p.updated_at <= ref && p.created_at <= p.updated_at),
      ).toBe(true);
    }
  });

  it('counts listed products in categories including descendants', () => {
    const rows = store('downtown');
    const count = (key: string) =>
      rows.categories.find((c) => c.id === CATEGORY_TREE.find((d) => d.key === key)!.id)!.product_count;
    expect(count('flower')).toBe(
      count('indica') +
        count('sativa') +
        count('hybrid') +
        rows.product_categories.filter(
          (pc) =>
            pc.category_id === 3 &&
            rows.products.find(
              (p) => p.id === pc.product_id && p.status === 1 && (p.visibility === 2 || p.visibility === 4),
            ),
        ).length,
    );
    expect(count('root')).toBeGreaterThan(count('flower'));
  });

  it('renders one image per distinct image path', () => {
    const paths = catalog.images.map((i) => i.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toContain('catalog/product/FL-BLUE-DREAM.svg');
    const referenced = new Set(
      catalog.stores.flatMap((s) => s.rows.products.map((p) => p.image)).filter((i) => i && i !== 'no_selection'),
    );
    expect(new Set(paths.map((p) => `/${p}`))).toEqual(referenced);
  });
});
