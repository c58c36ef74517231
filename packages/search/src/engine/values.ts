/**
 * How document values are read for filtering, aggregating and sorting. Paths are dotted
 * (`stock.is_in_stock`, `configurable_children.size`); an array anywhere along the path fans out,
 * so a document matches when any element does (Elasticsearch's semantics for object arrays).
 */
import type { FilterValue } from '../types.ts';

/** What equality and term buckets compare: booleans become 1/0 (matched against true/1). */
export type Key = string | number;

export function splitPath(path: string): string[] {
  return path.split('.');
}

/** Every leaf value at `path`, arrays flattened. */
export function valuesAt(value: unknown, path: readonly string[], out: unknown[] = [], depth = 0): unknown[] {
  if (value == null) return out;
  if (Array.isArray(value)) {
    for (const element of value) valuesAt(element, path, out, depth);
    return out;
  }
  if (depth === path.length) {
    out.push(value);
    return out;
  }
  if (typeof value === 'object') valuesAt((value as Record<string, unknown>)[path[depth]], path, out, depth + 1);
  return out;
}

export function toKey(value: unknown): Key | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') return value;
  return undefined;
}

const NUMERIC = /^-?\d+(\.\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;

/**
 * The keys a filter value matches. URL values arrive as strings, documents hold numbers and
 * booleans, so `'92'` matches 92, `'1'` and `true` match true and 1 — without making `'abc'` equal
 * to anything but `'abc'`.
 */
export function keyVariants(value: FilterValue): Key[] {
  if (typeof value === 'boolean') return value ? [1, '1', 'true'] : [0, '0', 'false'];
  if (typeof value === 'number') return [value, String(value)];
  if (NUMERIC.test(value)) return [value, Number(value)];
  if (value === 'true') return [value, 1];
  if (value === 'false') return [value, 0];
  return [value];
}

/** A number for ranges and sorting: numbers, booleans, numeric strings, ISO timestamps. */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    if (NUMERIC.test(value)) return Number(value);
    if (ISO_DATE.test(value)) return Date.parse(value);
  }
  return Number.NaN;
}

export type Id = string | number;

/** Ties are broken by id: numerically when both are numbers, else as strings. */
export function compareIds(a: Id, b: Id): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** Buckets and sort keys order numbers before strings, each in natural order. */
export function compareKeys(a: Key, b: Key): number {
  if (typeof a === 'number') return typeof b === 'number' ? a - b : -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
