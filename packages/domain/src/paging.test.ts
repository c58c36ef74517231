import { describe, expect, it } from 'vitest';
import { hasMorePages, nextPageStart } from './paging.ts';

describe('hasMorePages (spec §4 category product loading)', () => {
  it.each([
    // start, total, pageSize, loaded, expected
    [0, 120, 50, 50, true],
    [50, 120, 50, 100, true],
    [100, 120, 50, 120, false], // everything loaded
    [120, 120, 50, 120, false], // start at total
    [150, 120, 50, 120, false], // start beyond total
    [0, 49, 50, 49, false], // total below the page size
    [0, 50, 50, 50, false], // one full page, nothing after it
    [0, 51, 50, 50, true],
    [0, 0, 50, 0, false],
    [0, 120, 0, 50, true], // page size 0 means the default 50
    [0, 40, -1, 40, false],
  ])('start %i total %i size %i loaded %i → %s', (start, total, pageSize, loaded, expected) => {
    expect(hasMorePages({ start, total, pageSize, loaded })).toBe(expected);
  });

  it('stops on nonsense input rather than looping', () => {
    expect(hasMorePages({ start: Number.NaN, total: 100, pageSize: 50, loaded: 0 })).toBe(false);
    expect(hasMorePages({ start: 0, total: Number.POSITIVE_INFINITY, pageSize: 50, loaded: 0 })).toBe(false);
  });
});

describe('nextPageStart', () => {
  it('is the page after the last one fetched', () => {
    expect(nextPageStart({ start: 0, pageSize: 50 })).toBe(50);
    expect(nextPageStart({ start: 50, pageSize: 50 })).toBe(100);
    expect(nextPageStart({ start: -10, pageSize: 50 })).toBe(50);
    expect(nextPageStart({ start: 0, pageSize: 0 })).toBe(50);
  });
});
