import { describe, expect, it } from 'vitest';
import { DocStore } from './doc-store.ts';

/** DocStore keeps a bulk load's numeric ids in sorted arrays (seal()); it must answer as its Map did. */
describe('DocStore id lookups', () => {
  it('finds, releases and re-adds ids before and after seal(), numeric and string, as one map would', () => {
    const store = new DocStore<{ id: number | string }>();
    const expected = new Map<number | string, number>();
    const add = (id: number | string) => {
      const { slot } = store.allocate(id, { id });
      expected.set(id, slot);
    };
    const release = (id: number | string) => {
      store.release(expected.get(id) as number);
      expected.delete(id);
    };
    const check = () => {
      for (const [id, slot] of expected) expect(store.slotOf(id)).toBe(slot);
      for (const miss of [0, -1, 7.5, 999_999, 'x', '']) if (!expected.has(miss)) expect(store.slotOf(miss)).toBeUndefined();
    };
    for (let i = 0; i < 500; i++) add((i * 7919) % 1009);
    add('sku-a');
    add(-3);
    check();
    store.seal();
    check();
    for (let i = 0; i < 500; i += 3) release((i * 7919) % 1009);
    release('sku-a');
    check();
    add(0); // released above, now added again (the map, not the sealed arrays)
    add(2000);
    add('sku-b');
    check();
    store.seal();
    check();
    release(2000);
    release(0);
    check();
    // Numeric strings find numeric ids and back (URLs carry strings).
    add(41.5);
    add('77');
    expect(store.slotOf('41.5')).toBe(expected.get(41.5));
    expect(store.slotOf(77)).toBe(expected.get('77'));
    store.seal();
    expect(store.slotOf('41.5')).toBe(expected.get(41.5));
    expect(store.slotOf(77)).toBe(expected.get('77'));
    expect(store.size).toBe(expected.size);
  });
});
