import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CatalogCategory } from './product.ts';
import { breadcrumbs, buildCategoryTree, descendantIds, type CategoryNode } from './categories.ts';

/** The demo menu: root Menu (2) › Flower (3) › Indica (11), Sativa (12); Edibles (7) › Gummies (14). */
function cat(id: number, parent_id: number | null, name: string, url_path: string, position: number, parent_ids: number[] = []): CatalogCategory {
  return {
    id,
    parent_id,
    parent_ids,
    name,
    slug: url_path.split('/').pop()!,
    url_key: url_path.split('/').pop()!,
    url_path,
    is_active: true,
    level: url_path.split('/').length,
    position,
    path: '',
    product_count: 1,
    include_in_menu: true,
    children_count: 0,
  };
}
const MENU = [
  cat(2, null, 'Menu', 'menu', 0),
  cat(7, 2, 'Edibles', 'menu/edibles', 5),
  cat(3, 2, 'Flower', 'menu/flower', 1),
  cat(12, 3, 'Sativa', 'menu/flower/sativa', 2),
  cat(11, 3, 'Indica', 'menu/flower/indica', 1),
  cat(14, 7, 'Gummies', 'menu/edibles/gummies', 1),
];
const BY_ID = new Map(MENU.map((c) => [c.id, c]));

describe('descendantIds', () => {
  it('is the id followed by its whole subtree', () => {
    expect(descendantIds(MENU, 3)).toEqual([3, 12, 11]); // breadth first, in list order
    expect(descendantIds(MENU, 2).sort((a, b) => a - b)).toEqual([2, 3, 7, 11, 12, 14]);
    expect(descendantIds(MENU, 14)).toEqual([14]);
    expect(descendantIds(MENU, 999)).toEqual([999]);
  });
  it('survives cycles', () => {
    const cyclic = [
      { id: 1, parent_id: 3 },
      { id: 2, parent_id: 1 },
      { id: 3, parent_id: 2 },
    ];
    expect(descendantIds(cyclic, 1)).toEqual([1, 2, 3]);
  });
  it('contains exactly the subtree (property, on random forests)', () => {
    // Parents always have a smaller index, so the generated graph is a forest.
    const forest = fc.array(fc.nat(), { maxLength: 40 }).map((seeds) =>
      seeds.map((s, i) => ({ id: i + 1, parent_id: i === 0 || s % 4 === 0 ? null : (s % i) + 1 })),
    );
    fc.assert(
      fc.property(forest, fc.nat(), (cats, pick) => {
        fc.pre(cats.length > 0);
        const id = (pick % cats.length) + 1;
        const parent = new Map(cats.map((c) => [c.id, c.parent_id]));
        const isUnder = (x: number): boolean => {
          for (let p: number | null | undefined = x; p != null; p = parent.get(p)) if (p === id) return true;
          return false;
        };
        const got = descendantIds(cats, id);
        const expected = cats.filter((c) => isUnder(c.id)).map((c) => c.id);
        return got[0] === id && new Set(got).size === got.length && [...got].sort((a, b) => a - b).join() === expected.join();
      }),
    );
  });
});

describe('buildCategoryTree', () => {
  const names = (nodes: CategoryNode<CatalogCategory>[]): unknown =>
    nodes.map((n) => (n.children_data.length ? [n.name, names(n.children_data)] : n.name));

  it('nests children_data sorted by position', () => {
    expect(names(buildCategoryTree(MENU))).toEqual([['Menu', [['Flower', ['Indica', 'Sativa']], ['Edibles', ['Gummies']]]]]);
  });
  it('returns the children of rootId', () => {
    expect(names(buildCategoryTree(MENU, { rootId: 2 }))).toEqual([['Flower', ['Indica', 'Sativa']], ['Edibles', ['Gummies']]]);
  });
  it('treats categories with a missing parent as top level, drops unreachable cycles, copies nodes', () => {
    const odd = [...MENU, cat(40, 99, 'Orphan', 'orphan', 0), { ...cat(50, 51, 'A', 'a', 0) }, { ...cat(51, 50, 'B', 'b', 0) }];
    const tree = buildCategoryTree(odd);
    expect(tree.map((n) => n.name)).toEqual(['Menu', 'Orphan']);
    expect(tree[0]).not.toBe(MENU[0]);
    expect(MENU[0].children_data).toBeUndefined();
  });
  it('places a duplicated id once', () => {
    const dup = [...MENU, cat(11, 3, 'Indica again', 'menu/flower/indica', 0)];
    const flower = buildCategoryTree(dup, { rootId: 2 })[0];
    expect(flower.children_data.map((n) => n.id)).toEqual([11, 12]);
  });
});

describe('breadcrumbs', () => {
  it('walks parent_id up to the root; root included as Menu, the category last', () => {
    expect(breadcrumbs(BY_ID.get(11)!, BY_ID)).toEqual([
      { name: 'Menu', url_path: 'menu' },
      { name: 'Flower', url_path: 'menu/flower' },
      { name: 'Indica', url_path: 'menu/flower/indica' },
    ]);
  });
  it('can leave the root out', () => {
    expect(breadcrumbs(BY_ID.get(11)!, BY_ID, { includeRoot: false }).map((c) => c.name)).toEqual(['Flower', 'Indica']);
    expect(breadcrumbs(BY_ID.get(2)!, BY_ID, { includeRoot: false })).toEqual([]);
    expect(breadcrumbs(BY_ID.get(2)!, BY_ID)).toEqual([{ name: 'Menu', url_path: 'menu' }]);
  });
  it('prefers parent_ids, skipping ids above the root and the category itself', () => {
    const indica = { ...BY_ID.get(11)!, parent_id: null, parent_ids: [1, 2, 3, 11] };
    expect(breadcrumbs(indica, BY_ID).map((c) => c.name)).toEqual(['Menu', 'Flower', 'Indica']);
  });
  it('accepts a record and a missing root, and stops on cycles', () => {
    const record = Object.fromEntries([...BY_ID].filter(([id]) => id !== 2));
    expect(breadcrumbs(BY_ID.get(14)!, record).map((c) => c.name)).toEqual(['Menu', 'Edibles', 'Gummies']);
    const a = cat(60, 61, 'A', 'a', 0);
    const b = cat(61, 60, 'B', 'b', 0);
    expect(breadcrumbs(a, new Map([[60, a], [61, b]]), { includeRoot: false }).map((c) => c.name)).toEqual(['B', 'A']);
  });
});
