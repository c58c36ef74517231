import { describe, expect, it } from 'vitest';
import { RECENTLY_VIEWED_MAX, createRecentlyViewedStore, mergeViews, recentlyViewedKey, recordView, sanitizeViews, type ViewedProduct } from './recently-viewed.ts';

const p = (sku: string) => ({ sku, name: `Product ${sku}`, path: `/p/${sku}/product-${sku}`, image: null, brand: null });

function memory() {
  const map = new Map<string, unknown>();
  return { map, storage: { get: async (k: string) => map.get(k), set: async (k: string, v: unknown) => void map.set(k, v) } };
}

describe('recently viewed', () => {
  it('a view goes first; a product seen again moves up, never twice; the list keeps the latest 12', () => {
    let items: ViewedProduct[] = [];
    items = recordView(items, p('A'), 1);
    items = recordView(items, p('B'), 2);
    items = recordView(items, p('A'), 3);
    expect(items.map((i) => i.sku)).toEqual(['A', 'B']);
    for (let n = 0; n < 20; n++) items = recordView(items, p(`X${n}`), 10 + n);
    expect(items).toHaveLength(RECENTLY_VIEWED_MAX);
    expect(items[0].sku).toBe('X19');
  });

  it('merges two lists by the newest view of each sku', () => {
    const a = [{ ...p('A'), viewedAt: 5 }, { ...p('B'), viewedAt: 1 }];
    const b = [{ ...p('B'), viewedAt: 9 }, { ...p('C'), viewedAt: 3 }];
    expect(mergeViews(a, b).map((i) => `${i.sku}@${i.viewedAt}`)).toEqual(['B@9', 'A@5', 'C@3']);
  });

  it('drops stored rows that are not products or point off-site', () => {
    expect(sanitizeViews([{ sku: 'A', name: 'A', path: '//evil.example/x' }, { sku: 'B', name: 'B', path: '/p/B/b', viewedAt: 'x' }, null, 3])).toEqual([
      { sku: 'B', name: 'B', path: '/p/B/b', image: null, brand: null, viewedAt: 0 },
    ]);
    expect(sanitizeViews('nope')).toEqual([]);
  });

  it('a view before the stored list is read is merged into it, then persisted', async () => {
    const { map, storage } = memory();
    map.set(recentlyViewedKey('downtown'), [{ ...p('OLD'), viewedAt: 1 }]);
    let t = 100;
    const store = createRecentlyViewedStore({ storeCode: 'downtown', storage, channel: null, now: () => t++ });
    store.getState().record(p('NEW'));
    await store.getState().load();
    expect(store.getState().items.map((i) => i.sku)).toEqual(['NEW', 'OLD']);
    expect((map.get(recentlyViewedKey('downtown')) as ViewedProduct[]).map((i) => i.sku)).toEqual(['NEW', 'OLD']);
  });

  it('mirrors another tab’s list', async () => {
    const listeners: ((e: { data: unknown }) => void)[] = [];
    const channel = { postMessage: (m: unknown) => listeners.forEach((l) => l({ data: m })), addEventListener: (_: 'message', l: (e: { data: unknown }) => void) => void listeners.push(l) };
    const other = createRecentlyViewedStore({ storeCode: 'downtown', storage: null, channel });
    const store = createRecentlyViewedStore({ storeCode: 'downtown', storage: null, channel });
    await store.getState().load();
    await other.getState().load();
    store.getState().record(p('A'));
    expect(other.getState().items.map((i) => i.sku)).toEqual(['A']);
  });
});
