/**
 * Terms and range buckets over a mask of slots. The caller chooses the mask: the full result, or —
 * for a disjunctive aggregation — the result computed without the filters on the aggregated field,
 * so a multi-select panel still shows how many products each other value would add.
 */
import type { AggregationSpec, Bucket } from '../types.ts';
import { type Bits, forEachBit } from './bitset.ts';
import type { Column } from './columns.ts';
import { compareKeys } from './values.ts';

export const DEFAULT_TERMS_SIZE = 300;

/** Most frequent first, then by key; at most `size` buckets; empty buckets left out. */
export function termsBuckets(column: Column, mask: Bits, maskCount: number, size: number): Bucket[] {
  if (maskCount === 0) return [];
  const buckets: Bucket[] = [];
  for (const [key, doc_count] of column.countKeys(mask, maskCount)) buckets.push({ key, doc_count });
  buckets.sort((a, b) => b.doc_count - a.doc_count || compareKeys(a.key, b.key));
  return buckets.length > size ? buckets.slice(0, size) : buckets;
}

/** One bucket per range, in the given order, zero counts included (as Elasticsearch answers);
 *  `from` inclusive, `to` exclusive. A document counts once per bucket however many values match. */
export function rangeBuckets(column: Column, mask: Bits, ranges: Extract<AggregationSpec, { type: 'range' }>['ranges']): Bucket[] {
  const counts = ranges.map(() => 0);
  const inRange = (n: number, i: number) => {
    const r = ranges[i];
    return (r.from === undefined || n >= r.from) && (r.to === undefined || n < r.to);
  };
  const nums = column.nums;
  forEachBit(mask, (slot) => {
    const v = nums[slot];
    if (v === undefined) return;
    for (let i = 0; i < ranges.length; i++) {
      if (typeof v === 'number' ? inRange(v, i) : v.some((n) => inRange(n, i))) counts[i]++;
    }
  });
  return ranges.map((r, i) => {
    const bucket: Bucket = { key: r.key, doc_count: counts[i] };
    if (r.from !== undefined) bucket.from = r.from;
    if (r.to !== undefined) bucket.to = r.to;
    return bucket;
  });
}
