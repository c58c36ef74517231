import { describe, expect, it } from 'vitest';
import { addSaved, createSavedListStore, removeSaved, sanitizeSaved, savedListKey, type ListChannel, type ListStorage } from './saved-list.ts';

const bd = { sku: 'FL-BD', name: 'Blue Dream', path: '/p/FL-BD/blue-dream', image: null, brand: 'Sierra' };
const gg = { sku: 'FL-GG', name: 'Gorilla Glue', path: '/p/FL-GG/gorilla-glue', image: '/g.svg', brand: null };

function memoryStorage(initial: Record<string, unknown> = {}): ListStorage & { data: Record<string, unknown> } {
  const data = { ...initial };
  return { data, get: async (k) => data[k], set: async (k, v) => void (data[k] = v) };
}

/** Two BroadcastChannel ends that deliver to each other. */
function channelPair(): [ListChannel, ListChannel] {
  const listeners: [((e: { data: unknown }) => void)[], ((e: { data: unknown }) => void)[]] = [[], []];
  const end = (i: 0 | 1): ListChannel => ({
    postMessage: (data) => listeners[1 - i].forEach((l) => l({ data: structuredClone(data) })),
    addEventListener: (_type, l) => listeners[i].push(l),
  });
  return [end(0), end(1)];
}

describe('saved list rules (spec §4)', () => {
  it('adds once per sku with qty 1, removes by sku', () => {
    const one = addSaved([], bd);
    expect(one).toEqual([{ ...bd, qty: 1 }]);
    expect(addSaved(one, { ...bd, name: 'Other' })).toBe(one);
    expect(removeSaved(addSaved(one, gg), 'FL-BD').map((i) => i.sku)).toEqual(['FL-GG']);
    expect(removeSaved(one, 'nope')).toBe(one);
  });

  it('sanitises what was persisted', () => {
    expect(sanitizeSaved(null)).toEqual([]);
    expect(sanitizeSaved([bd, bd, { sku: 'x' }, { ...gg, path: '//evil.test' }, 7])).toEqual([{ ...bd, qty: 1 }]);
  });

  it('keys the persisted copy by store code', () => {
    expect(savedListKey('wishlist', 'downtown')).toBe('verdant:downtown:wishlist');
    expect(savedListKey('compare', 'eastside')).toBe('verdant:eastside:compare');
  });
});

describe('createSavedListStore', () => {
  it('loads once, persists every change, and keeps clicks made before loading', async () => {
    const storage = memoryStorage({ 'verdant:downtown:wishlist': [bd] });
    const store = createSavedListStore({ kind: 'wishlist', storeCode: 'downtown', storage, channel: null });
    expect(store.getState().toggle(gg)).toBe(true);
    expect(storage.data['verdant:downtown:wishlist']).toEqual([bd]);
    await store.getState().load();
    await store.getState().load();
    expect(store.getState()).toMatchObject({ loaded: true });
    expect(store.getState().items.map((i) => i.sku)).toEqual(['FL-BD', 'FL-GG']);
    store.getState().remove('FL-BD');
    await Promise.resolve();
    expect((storage.data['verdant:downtown:wishlist'] as { sku: string }[]).map((i) => i.sku)).toEqual(['FL-GG']);
    store.getState().clear();
    await Promise.resolve();
    expect(storage.data['verdant:downtown:wishlist']).toEqual([]);
  });

  it('mirrors changes to another tab without writing back', async () => {
    const storage = memoryStorage();
    const [a, b] = channelPair();
    const tab1 = createSavedListStore({ kind: 'compare', storeCode: 'downtown', storage, channel: a });
    const tab2 = createSavedListStore({ kind: 'compare', storeCode: 'downtown', storage, channel: b });
    const other = createSavedListStore({ kind: 'compare', storeCode: 'eastside', storage, channel: b });
    await Promise.all([tab1.getState().load(), tab2.getState().load(), other.getState().load()]);
    tab1.getState().add(bd);
    expect(tab2.getState().items.map((i) => i.sku)).toEqual(['FL-BD']);
    expect(other.getState().items).toEqual([]);
  });

  it('works in memory when IndexedDB fails', async () => {
    const storage: ListStorage = { get: async () => Promise.reject(new Error('blocked')), set: async () => Promise.reject(new Error('quota')) };
    const store = createSavedListStore({ kind: 'wishlist', storeCode: 'downtown', storage, channel: null });
    await store.getState().load();
    store.getState().add(bd);
    expect(store.getState().items).toHaveLength(1);
  });
});
