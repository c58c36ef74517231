import { describe, expect, it } from 'vitest';
import { productWeightLabel, toProductCard } from './product-card.ts';
import { OUT_OF_STOCK, child, flower, product } from '../test-support/test-fixtures.ts';

const now = new Date('2026-11-20T12:00:00Z');

describe('toProductCard', () => {
  it('maps a simple product with its flags and price', () => {
    const card = toProductCard(product({ price: 2500, special_price: 1999, new: true, staff_pick: true }), now);
    expect(card).toEqual({
      id: 1,
      sku: 'P-1',
      type_id: 'simple',
      name: 'Blue Dream',
      slug: 'blue-dream',
      url_path: 'menu/flower/blue-dream',
      brand: 'Verdant Farms',
      image: '/b/d/blue-dream.png',
      strain_type: 'hybrid',
      thc_percent: 21.5,
      cbd_percent: 0.1,
      potency: null,
      license_type: 'both',
      price: 2500,
      final_price: 1999,
      price_from: false,
      price_size: null,
      sale: true,
      new: true,
      staff_pick: true,
      best_seller: false,
      updated_at: '2026-01-02T00:00:00Z',
    });
  });

  it('treats no_selection as no image (spec §5)', () => {
    expect(toProductCard(product({ image: 'no_selection' }), now).image).toBeNull();
  });

  it('prices a configurable from its cheapest available child, on sale if any available child is', () => {
    const p = flower([
      child({ id: 1, size: 91, price: 1500 }),
      child({ id: 2, size: 92, price: 4000, special_price: 3600 }),
      child({ id: 3, size: 93, price: 100, special_price: 50, stock: OUT_OF_STOCK }),
    ]);
    const card = toProductCard(p, now);
    expect([card.price, card.final_price, card.price_from, card.sale]).toEqual([1500, 1500, true, true]);
  });

  it.each([
    // Issue 30: the size a card's price is for ("from $15.00 / 1 g").
    ['the cheapest available child’s size', [child({ id: 1, size: 91, price: 1500 }), child({ id: 2, size: 92, price: 4000 })], 91],
    ['an out-of-stock cheaper child does not count', [child({ id: 1, size: 91, price: 900, stock: OUT_OF_STOCK }), child({ id: 2, size: 93, price: 5000 })], 93],
    ['a special makes a size the cheapest', [child({ id: 1, size: 91, price: 1500 }), child({ id: 2, size: 92, price: 4000, special_price: 1400 })], 92],
    ['a tie goes to the cheaper regular price, then to 3.5 g', [child({ id: 1, size: 93, price: 2000 }), child({ id: 2, size: 92, price: 2000 })], 92],
    ['no available child: no size', [child({ id: 1, size: 91, price: 1500, status: 2 })], null],
  ] as const)('price_size of a configurable: %s', (_what, children, size) => {
    const card = toProductCard(flower([...children]), now);
    expect(card.price_size).toBe(size);
  });

  it('price_size of a simple product is its own size id, else null', () => {
    expect(toProductCard(product({ size: 92 }), now).price_size).toBe(92);
    expect(toProductCard(product({ size: 7 }), now).price_size).toBeNull();
    expect(toProductCard(product({}), now).price_size).toBeNull();
  });

  it('is not on sale when the only special is outside its window or on an unavailable child', () => {
    const p = flower([
      child({ id: 1, size: 91, price: 1500, special_price: 1000, special_to_date: '2026-11-19' }),
      child({ id: 2, size: 92, price: 4000, special_price: 3600, status: 2 }),
    ]);
    expect(toProductCard(p, now).sale).toBe(false);
  });
});

describe('productWeightLabel', () => {
  it('shows grams and ounces for size ids', () => {
    expect(productWeightLabel({ size: 92 })).toBe('3.5 g (1/8 oz)');
    expect(productWeightLabel({ size: 95 })).toBe('28 g (1 oz)');
    expect(productWeightLabel({ size: 91 })).toBe('1 g');
    expect(productWeightLabel({ size: '93' })).toBe('7 g (1/4 oz)');
  });
  it('is null without a known size', () => {
    expect(productWeightLabel({ size: null })).toBeNull();
    expect(productWeightLabel({ size: 42 })).toBeNull();
    expect(productWeightLabel({ size: undefined })).toBeNull();
  });
});
