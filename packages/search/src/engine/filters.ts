/**
 * Filters as bitsets over slots. `eq`/`in` go through the column's inverted index; `range` scans
 * the column's numbers (a document matches when any of its values is in range).
 */
import type { Filter, RangeBounds } from '../types.ts';
import { type Bits, forEachBit, setBit } from './bitset.ts';
import type { Column } from './columns.ts';
import { type Key, keyVariants } from './values.ts';

function inBounds(n: number, r: RangeBounds): boolean {
  return (
    (r.gte === undefined || n >= r.gte) &&
    (r.gt === undefined || n > r.gt) &&
    (r.lte === undefined || n <= r.lte) &&
    (r.lt === undefined || n < r.lt)
  );
}

/** A compiled range: the outer bounds and, when given, at least one of `anyOf`. */
export function rangeMatcher(filter: Extract<Filter, { op: 'range' }>): (n: number) => boolean {
  const anyOf = filter.anyOf && filter.anyOf.length > 0 ? filter.anyOf : undefined;
  return (n) => inBounds(n, filter) && (!anyOf || anyOf.some((r) => inBounds(n, r)));
}

export function filterBits(filter: Filter, column: Column, live: Bits): Bits {
  const words = live.length;
  if (filter.op === 'eq' || filter.op === 'in') {
    const values = filter.op === 'eq' ? [filter.value] : filter.values;
    const keys = new Set<Key>();
    for (const v of values) for (const k of keyVariants(v)) keys.add(k);
    return column.matchBits([...keys], words);
  }
  const matches = rangeMatcher(filter);
  const out = new Uint32Array(words);
  const nums = column.nums;
  forEachBit(live, (slot) => {
    const v = nums[slot];
    if (v === undefined) return;
    if (typeof v === 'number' ? matches(v) : v.some(matches)) setBit(out, slot);
  });
  return out;
}
