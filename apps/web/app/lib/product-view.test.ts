import { describe, expect, it } from 'vitest';
import { percentLabel, productBadges, productImageSrc, strainLabel } from './product-view.ts';

describe('productImageSrc', () => {
  it('serves catalogue images from /media and falls back to the placeholder', () => {
    expect(productImageSrc('/a/b/blue.jpg')).toBe('/media/a/b/blue.jpg');
    expect(productImageSrc('a/b.jpg')).toBe('/media/a/b.jpg');
    expect(productImageSrc(null)).toBe('/placeholder-product.svg');
    expect(productImageSrc('no_selection')).toBe('/placeholder-product.svg');
    expect(productImageSrc('')).toBe('/placeholder-product.svg');
  });

  it('asks the image endpoint for a resized copy when a size is given', () => {
    expect(productImageSrc('/catalog/product/a.svg', 310, 300)).toBe('/img/310/300/catalog/product/a.svg');
    expect(productImageSrc('catalog/b.jpg', 600, 744)).toBe('/img/600/744/catalog/b.jpg');
    expect(productImageSrc('no_selection', 310, 300)).toBe('/placeholder-product.svg');
  });
});

describe('labels', () => {
  it('formats strain types and percentages', () => {
    expect(strainLabel('hybrid')).toBe('Hybrid');
    expect(strainLabel('cbd')).toBe('CBD');
    expect(strainLabel(' ')).toBeNull();
    expect(percentLabel(22.456)).toBe('22.5%');
    expect(percentLabel(18)).toBe('18%');
    expect(percentLabel(0)).toBe('0%');
    expect(percentLabel(null)).toBeNull();
  });
});

describe('productBadges', () => {
  const base = { sale: false, new: false, staff_pick: false, best_seller: false, price: 1000, final_price: 1000 };
  it('lists badges in display order and marks reduced prices as sale', () => {
    expect(productBadges(base)).toEqual([]);
    expect(productBadges({ ...base, final_price: 900 })).toEqual(['sale']);
    expect(productBadges({ ...base, best_seller: true, new: true, staff_pick: true, sale: true })).toEqual([
      'sale',
      'new',
      'staff_pick',
      'best_seller',
    ]);
  });
});
