import { describe, expect, it } from 'vitest';
import type { CatalogCategory } from '@verdant/domain';
import { menuIsEmpty } from './menu-empty.ts';

const category = (id: number, product_count: number): CatalogCategory =>
  ({
    id,
    parent_id: id === 2 ? 1 : 2,
    parent_ids: id === 2 ? [1] : [1, 2],
    name: `c${id}`,
    slug: `c${id}`,
    url_key: `c${id}`,
    url_path: id === 2 ? 'menu' : `menu/c${id}`,
    is_active: true,
    level: id === 2 ? 2 : 3,
    position: 0,
    path: '',
    product_count,
    include_in_menu: true,
    children_count: 0,
  }) as CatalogCategory;

describe('menuIsEmpty', () => {
  it('is true when the root has no product a shopper can see, or there is no root at all', () => {
    expect(menuIsEmpty([category(2, 0)])).toBe(true);
    expect(menuIsEmpty([])).toBe(true);
  });
  it('is false once the root counts a product', () => {
    expect(menuIsEmpty([category(2, 1)])).toBe(false);
  });
});
