import { describe, expect, it } from 'vitest';
import { SortedLookup } from './sorted-lookup.ts';

describe('SortedLookup', () => {
  it('answers every key as the Map it was built from, misses included', () => {
    const strings = new Map<string, number>();
    const numbers = new Map<number, string>();
    for (let i = 0; i < 2000; i++) {
      strings.set(`SKU-${(i * 7919) % 2003}-${i % 3 === 0 ? 'É' : 'e'}`, i);
      numbers.set((i * 104729) % 100003, `v${i}`);
    }
    const byString = new SortedLookup(strings);
    const byNumber = new SortedLookup(numbers);
    expect(byString.size).toBe(strings.size);
    expect(byNumber.size).toBe(numbers.size);
    for (const [k, v] of strings) expect(byString.get(k)).toBe(v);
    for (const [k, v] of numbers) expect(byNumber.get(k)).toBe(v);
    for (const miss of ['', 'SKU', 'SKU-1-', 'sku-0-É', 'ZZZ', 'SKU-0-É ']) expect(byString.get(miss)).toBe(strings.get(miss));
    for (const miss of [-1, 0.5, 100003, 7, Number.NaN]) expect(byNumber.get(miss)).toBe(numbers.get(miss));
    // A number key never finds a string entry and back, as with a Map.
    expect((byNumber as SortedLookup<number | string, string>).get('0')).toBeUndefined();
    expect(new SortedLookup(new Map([['5', 1]])).get(5 as unknown as string)).toBeUndefined();
    expect(new SortedLookup<string, number>().get('a')).toBeUndefined();
    expect(byNumber.valuesInKeyOrder()).toEqual([...numbers].sort((a, b) => a[0] - b[0]).map(([, v]) => v));
  });
});

describe('SortedLookup with keys taken from the values', () => {
  it('answers as the Map, and keeps its own keys when a value does not carry its key', () => {
    const products = new Map<string, { sku: string; id: number }>();
    for (let i = 0; i < 1500; i++) products.set(`SKU-${(i * 7919) % 1511}`, { sku: `SKU-${(i * 7919) % 1511}`, id: i });
    const derived = new SortedLookup(products, (p) => p.sku);
    for (const [k, v] of products) expect(derived.get(k)).toBe(v);
    for (const miss of ['', 'SKU-', 'SKU-1511', 'sku-1']) expect(derived.get(miss)).toBeUndefined();
    // A parent under each child's sku: the value's own key is not the entry's, so the keys stay.
    const byChild = new Map([...products].map(([k, v]) => [`${k}-1G`, v]));
    const stored = new SortedLookup(byChild, (p) => p.sku);
    for (const [k, v] of byChild) expect(stored.get(k)).toBe(v);
    expect(stored.get('SKU-1')).toBeUndefined();
  });
});
