import { describe, expect, it } from 'vitest';
import type { CatalogCategory } from '@verdant/domain';
import { categoryCrumbs, categoryUrlPath, findCategoryByKey, indexCategories, subcategories } from './category-tree.ts';

function cat(id: number, name: string, urlPath: string, parent: number | null, extra: Partial<CatalogCategory> = {}): CatalogCategory {
  const key = urlPath.split('/').at(-1)!;
  return {
    id,
    parent_id: parent,
    parent_ids: [],
    name,
    slug: key,
    url_key: key,
    url_path: urlPath,
    is_active: true,
    level: urlPath.split('/').length,
    position: id,
    path: '',
    product_count: 5,
    include_in_menu: true,
    children_count: 0,
    ...extra,
  };
}

const indica = cat(11, 'Indica', 'menu/flower/indica', 3, { parent_ids: [2, 3, 11] });
const sativa = cat(12, 'Sativa', 'menu/flower/sativa', 3, { parent_ids: [2, 3, 12], product_count: 0 });
const flower = cat(3, 'Flower', 'menu/flower', 2, { parent_ids: [2, 3], children_data: [sativa, indica] });
const root = cat(2, 'Menu', 'menu', null, { parent_ids: [2], children_data: [flower] });
const byId = indexCategories([root]);

describe('category tree', () => {
  it('indexes the nested tree by id', () => {
    expect([...byId.keys()].sort((a, b) => a - b)).toEqual([2, 3, 11, 12]);
  });

  it('turns route segments into a url_path', () => {
    expect(categoryUrlPath(undefined)).toBe('menu');
    expect(categoryUrlPath('')).toBe('menu');
    expect(categoryUrlPath('Flower')).toBe('menu/flower');
    expect(categoryUrlPath('flower/indica/')).toBe('menu/flower/indica');
  });

  it('finds a category by slug, url key or id', () => {
    expect(findCategoryByKey(byId, 'indica')?.id).toBe(11);
    expect(findCategoryByKey(byId, 'INDICA')?.id).toBe(11);
    expect(findCategoryByKey(byId, '3')?.id).toBe(3);
    expect(findCategoryByKey(byId, 'edibles')).toBeUndefined();
    expect(findCategoryByKey(byId, '')).toBeUndefined();
  });

  it('builds breadcrumbs from Home through the parents; the page itself is unlinked', () => {
    expect(categoryCrumbs(indica, byId)).toEqual([
      { name: 'Home', path: '/' },
      { name: 'Menu', path: '/menu' },
      { name: 'Flower', path: '/menu/flower' },
      { name: 'Indica' },
    ]);
    expect(categoryCrumbs(root, byId)).toEqual([{ name: 'Home', path: '/' }, { name: 'Menu' }]);
    expect(categoryCrumbs(indica, byId, 'Blue Dream').at(-2)).toEqual({ name: 'Indica', path: '/menu/flower/indica' });
  });

  it('links subcategories with products, in menu order', () => {
    expect(subcategories(flower, byId).map((c) => c.name)).toEqual(['Indica']);
  });
});
