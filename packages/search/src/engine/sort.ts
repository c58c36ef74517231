/**
 * Ordering of the matched slots. Only the first `start + size` are ever needed, so a bounded heap
 * picks them in O(n log k) instead of sorting every match. Every order ends with the id, so the
 * result is a total order: deterministic paging, and "stable" whatever algorithm picked it.
 */
import type { SortSpec } from '../types.ts';
import type { Column } from './columns.ts';
import { type Id, type Key, compareIds, compareKeys } from './values.ts';

export const SCORE_FIELD = '_score';

type SortValue = Key | undefined;

/** The value a slot sorts by: asc takes the smallest of several values, desc the largest
 *  (Elasticsearch's default sort mode). Numbers (timestamps included) before strings. */
function sortValue(column: Column, slot: number, desc: boolean): SortValue {
  const n = column.nums[slot];
  if (n !== undefined) return typeof n === 'number' ? n : desc ? Math.max(...n) : Math.min(...n);
  const k = column.keys[slot];
  if (k === undefined || !Array.isArray(k)) return k;
  return k.reduce((best, v) => (desc ? compareKeys(v, best) > 0 : compareKeys(v, best) < 0) ? v : best);
}

export interface SortContext {
  column(field: string): Column;
  scores: Float64Array | null;
  ids: readonly Id[];
}

/** The first `k` slots of `slots` in `sort` order (missing values last, then id ascending). */
export function topSlots(slots: number[], sort: readonly SortSpec[], k: number, ctx: SortContext): number[] {
  const n = slots.length;
  // Sort values are read once per candidate, not once per comparison.
  const values: SortValue[][] = sort.map((spec) => {
    const desc = spec.order === 'desc';
    if (spec.field === SCORE_FIELD) return slots.map((s) => (ctx.scores ? ctx.scores[s] : 0));
    const column = ctx.column(spec.field);
    return slots.map((s) => sortValue(column, s, desc));
  });
  const directions = sort.map((spec) => (spec.order === 'desc' ? -1 : 1));
  const cmp = (a: number, b: number): number => {
    for (let i = 0; i < values.length; i++) {
      const va = values[i][a];
      const vb = values[i][b];
      if (va === vb) continue;
      if (va === undefined) return 1;
      if (vb === undefined) return -1;
      const c = compareKeys(va, vb);
      if (c !== 0) return c * directions[i];
    }
    return compareIds(ctx.ids[slots[a]], ctx.ids[slots[b]]);
  };
  const positions = Array.from({ length: n }, (_, i) => i);
  if (k >= n / 4) return positions.sort(cmp).slice(0, k).map((i) => slots[i]);
  return heapSelect(positions, k, cmp).map((i) => slots[i]);
}

/** The k smallest by `cmp`, sorted: a max-heap of the best k seen so far. */
function heapSelect(items: number[], k: number, cmp: (a: number, b: number) => number): number[] {
  if (k <= 0) return [];
  const heap: number[] = [];
  const siftUp = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (cmp(heap[i], heap[parent]) <= 0) return;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  };
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && cmp(heap[l], heap[worst]) > 0) worst = l;
      if (r < heap.length && cmp(heap[r], heap[worst]) > 0) worst = r;
      if (worst === i) return;
      [heap[i], heap[worst]] = [heap[worst], heap[i]];
      i = worst;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      siftUp(heap.length - 1);
    } else if (cmp(item, heap[0]) < 0) {
      heap[0] = item;
      siftDown(0);
    }
  }
  return heap.sort(cmp);
}
