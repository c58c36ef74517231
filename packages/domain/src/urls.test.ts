import { describe, expect, it } from 'vitest';
import { categoryPath, productPath } from './urls.ts';

describe('productPath (spec §2)', () => {
  const p = { sku: 'BD-1', slug: 'blue-dream' };
  it('links the parent, with a child sku only when it differs', () => {
    expect(productPath(p)).toBe('/p/BD-1/blue-dream');
    expect(productPath(p, 'BD-1-92')).toBe('/p/BD-1/blue-dream/BD-1-92');
    expect(productPath(p, 'BD-1')).toBe('/p/BD-1/blue-dream');
    expect(productPath(p, null)).toBe('/p/BD-1/blue-dream');
    expect(productPath(p, '')).toBe('/p/BD-1/blue-dream');
  });
  it('keeps each segment one segment', () => {
    expect(productPath({ sku: 'A/B', slug: 'x y' }, 'C?D')).toBe('/p/A%2FB/x%20y/C%3FD');
    expect(productPath({ sku: 'S', slug: '' })).toBe('/p/S/product');
  });
});

describe('categoryPath', () => {
  it('is the url_path under the root', () => {
    expect(categoryPath({ url_path: 'menu/flower' })).toBe('/menu/flower');
    expect(categoryPath({ url_path: 'menu' })).toBe('/menu');
    expect(categoryPath({ url_path: '/menu/flower/' })).toBe('/menu/flower');
    expect(categoryPath({ url_path: 'menu/pre rolls' })).toBe('/menu/pre%20rolls');
    expect(categoryPath({ url_path: '' })).toBe('/menu');
  });
});
