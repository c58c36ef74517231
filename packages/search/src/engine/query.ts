/**
 * Checks a SearchQuery's shape before anything runs (it may come straight from an HTTP request)
 * and applies the paging rules of spec §5. Bad shapes are InvalidQueryError (a 400), never a crash.
 */
import { InvalidQueryError, SearchTermTooShortError } from '../errors.ts';
import { SEARCH_DEFAULTS } from '../constants.ts';
import type { AggregationSpec, Filter, RangeBounds, SearchQuery, SortSpec } from '../types.ts';

const BOUNDS = ['gte', 'gt', 'lte', 'lt'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFilterValue(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function checkField(where: string, field: unknown): void {
  if (typeof field !== 'string' || field === '') throw new InvalidQueryError(`${where}: field must be a non-empty string`);
}

function checkBounds(where: string, bounds: RangeBounds): void {
  for (const b of BOUNDS) {
    const v = bounds[b];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) {
      throw new InvalidQueryError(`${where}: ${b} must be a finite number`);
    }
  }
}

export function checkFilter(filter: Filter, i: number): void {
  const where = `filters[${i}]`;
  if (!isRecord(filter)) throw new InvalidQueryError(`${where} must be an object`);
  checkField(where, filter.field);
  switch (filter.op) {
    case 'eq':
      if (!isFilterValue(filter.value)) throw new InvalidQueryError(`${where}: eq needs a string, number or boolean value`);
      return;
    case 'in':
      if (!Array.isArray(filter.values) || !filter.values.every(isFilterValue)) {
        throw new InvalidQueryError(`${where}: in needs an array of strings, numbers or booleans`);
      }
      return;
    case 'range':
      checkBounds(where, filter);
      if (filter.anyOf !== undefined) {
        if (!Array.isArray(filter.anyOf) || !filter.anyOf.every(isRecord)) {
          throw new InvalidQueryError(`${where}: anyOf must be an array of ranges`);
        }
        filter.anyOf.forEach((r, j) => checkBounds(`${where}.anyOf[${j}]`, r));
      }
      return;
    default:
      throw new InvalidQueryError(`${where}: unknown op ${JSON.stringify((filter as { op: unknown }).op)}`);
  }
}

function checkSort(sort: SortSpec, i: number): void {
  if (!isRecord(sort)) throw new InvalidQueryError(`sort[${i}] must be an object`);
  checkField(`sort[${i}]`, sort.field);
  if (sort.order !== 'asc' && sort.order !== 'desc') throw new InvalidQueryError(`sort[${i}]: order must be asc or desc`);
}

function checkAggregation(agg: AggregationSpec, i: number): void {
  const where = `aggregations[${i}]`;
  if (!isRecord(agg)) throw new InvalidQueryError(`${where} must be an object`);
  if (typeof agg.name !== 'string' || agg.name === '') throw new InvalidQueryError(`${where}: name must be a non-empty string`);
  checkField(where, agg.field);
  if (agg.type === 'terms') {
    if (agg.size !== undefined && !(Number.isInteger(agg.size) && agg.size > 0)) {
      throw new InvalidQueryError(`${where}: size must be a positive integer`);
    }
  } else if (agg.type === 'range') {
    if (!Array.isArray(agg.ranges)) throw new InvalidQueryError(`${where}: ranges must be an array`);
    agg.ranges.forEach((r, j) => {
      if (!isRecord(r) || (typeof r.key !== 'string' && typeof r.key !== 'number')) {
        throw new InvalidQueryError(`${where}.ranges[${j}] needs a key`);
      }
      for (const b of ['from', 'to'] as const) {
        if (r[b] !== undefined && (typeof r[b] !== 'number' || !Number.isFinite(r[b]))) {
          throw new InvalidQueryError(`${where}.ranges[${j}].${b} must be a finite number`);
        }
      }
    });
  } else {
    throw new InvalidQueryError(`${where}: unknown type ${JSON.stringify((agg as { type: unknown }).type)}`);
  }
}

function checkArray(name: string, list: unknown): void {
  if (list !== undefined && !Array.isArray(list)) throw new InvalidQueryError(`${name} must be an array`);
}

function checkFieldList(name: string, list: unknown): void {
  if (list !== undefined && !(Array.isArray(list) && list.every((f) => typeof f === 'string'))) {
    throw new InvalidQueryError(`${name} must be an array of field names`);
  }
}

export interface NormalizedQuery {
  /** Trimmed text, or undefined when the query has none. */
  text: string | undefined;
  filters: Filter[];
  sort: SortSpec[] | undefined;
  start: number;
  size: number;
  aggregations: AggregationSpec[];
}

export function normalizeQuery(query: SearchQuery): NormalizedQuery {
  if (typeof query !== 'object' || query === null || Array.isArray(query)) throw new InvalidQueryError('query must be an object');
  let text: string | undefined;
  if (query.text !== undefined) {
    if (typeof query.text !== 'string') throw new InvalidQueryError('text must be a string');
    text = query.text.trim();
    // Code points, not UTF-16 units: "🌿🌿" is two characters.
    if (Array.from(text).length < SEARCH_DEFAULTS.minTermLength) throw new SearchTermTooShortError();
  }
  checkArray('filters', query.filters);
  checkArray('sort', query.sort);
  checkArray('aggregations', query.aggregations);
  const filters = query.filters ?? [];
  filters.forEach(checkFilter);
  query.sort?.forEach(checkSort);
  const aggregations = query.aggregations ?? [];
  aggregations.forEach(checkAggregation);
  checkFieldList('includeFields', query.includeFields);
  checkFieldList('excludeFields', query.excludeFields);
  const start = typeof query.start === 'number' && Number.isFinite(query.start) ? Math.max(0, Math.floor(query.start)) : 0;
  const size =
    typeof query.size === 'number' && Number.isFinite(query.size) && query.size > 0
      ? Math.max(1, Math.floor(query.size))
      : SEARCH_DEFAULTS.pageSize;
  return { text, filters, sort: query.sort && query.sort.length > 0 ? query.sort : undefined, start, size, aggregations };
}
