/**
 * The pools file and the store → pool assignment (issue 32, ./pools.ts): validation errors name the
 * bad field, overrides win, the rendezvous hash spreads stores evenly and moves only about 1/n of
 * them when a pool is added (and none between the old pools); what CATALOG_WARM_STORES warms with a
 * pool; and the compiled server stopping at start with a clear error for a missing or unknown
 * NODE_POOL or a bad pools file.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledEntry } from '../../test-support/compiled.ts';
import { assignStores, hashedPool, nodePool, parsePoolsFile, rendezvousScore, warmStores } from './pools.ts';

const stores = (codes: string[]) => ({ stores: codes.map((storeCode) => ({ storeCode })) }) as never;
const demo = stores(['downtown', 'eastside', 'wellness', 'harbor']);
const twoPools = {
  pools: [
    { name: 'east', nodes: [{ name: 'east-1', address: '10.0.0.11:3000' }, { name: 'east-2', address: '10.0.0.12:3000' }] },
    { name: 'west', nodes: [{ name: 'west-1', address: '10.0.0.21:3000' }] },
  ],
};
const codes = (n: number) => Array.from({ length: n }, (_, i) => `store${i}`);

describe('parsePoolsFile', () => {
  const bad: [string, unknown, RegExp][] = [
    ['not an object', [], /\(root\): /],
    ['no pools', { pools: [] }, /pools: at least one pool/],
    ['a pool without nodes', { pools: [{ name: 'east', nodes: [] }] }, /pools\.0\.nodes: a pool needs at least one node/],
    ['a bad pool name', { pools: [{ name: 'east side', nodes: [{ name: 'a', address: 'h:1' }] }] }, /pools\.0\.name: letters, digits/],
    ['an address without a port', { pools: [{ name: 'east', nodes: [{ name: 'a', address: '10.0.0.1' }] }] }, /pools\.0\.nodes\.0\.address: host:port/],
    ['an unknown field', { pools: twoPools.pools, extra: 1 }, /\(root\): Unrecognized key.*extra/],
    ['a pool named twice', { pools: [twoPools.pools[0], twoPools.pools[0]] }, /pools\.1\.name: "east" is used twice/],
    [
      'a node named twice across pools',
      { pools: [twoPools.pools[1], { name: 'north', nodes: [{ name: 'west-1', address: '10.0.0.31:3000' }] }] },
      /pools\.1\.nodes\.0\.name: "west-1" is used twice/,
    ],
    ['an override to an unknown pool', { ...twoPools, stores: { harbor: 'north' } }, /stores\.harbor: unknown pool "north"/],
    ['an override of an unknown store', { ...twoPools, stores: { nowhere: 'east' } }, /stores\.nowhere: unknown store code "nowhere"/],
  ];
  it.each(bad)('refuses %s, naming the field', (_what, data, message) => {
    expect(() => parsePoolsFile(data, demo)).toThrow(message);
  });

  it('assigns every store, overrides first', () => {
    const plain = parsePoolsFile(twoPools, demo);
    expect([...plain.poolOf.keys()].sort()).toEqual(['downtown', 'eastside', 'harbor', 'wellness']);
    for (const [code, pool] of plain.poolOf) expect(pool).toBe(hashedPool(['east', 'west'], code));
    const other = plain.poolOf.get('harbor') === 'east' ? 'west' : 'east';
    const overridden = parsePoolsFile({ ...twoPools, stores: { harbor: other } }, demo);
    expect(overridden.poolOf.get('harbor')).toBe(other);
    expect(overridden.storesOf.get(other)).toContain('harbor');
  });
});

describe('nodePool', () => {
  const assignment = parsePoolsFile({ ...twoPools, stores: { harbor: 'west' } }, demo);
  const cases: [string | undefined, RegExp | string[]][] = [
    [undefined, /NODE_POOL: required when POOLS_FILE is set \(one of: east, west\)/],
    ['north', /NODE_POOL: unknown pool "north" \(the pools file has: east, west\)/],
    ['west', assignment.storesOf.get('west')!],
  ];
  it.each(cases)('NODE_POOL=%s', (name, expected) => {
    if (expected instanceof RegExp) expect(() => nodePool(assignment, name)).toThrow(expected);
    else expect(nodePool(assignment, name)).toEqual({ name, storeCodes: expected });
  });
});

describe('rendezvous hashing', () => {
  it('is stable: fixed scores (sha256), whatever the order of the pools', () => {
    // The same on every machine and Node version: the proxy configuration and the nodes agree.
    expect(rendezvousScore('east', 'harbor')).toBe(rendezvousScore('east', 'harbor'));
    expect(rendezvousScore('east', 'harbor')).not.toBe(rendezvousScore('west', 'harbor'));
    for (const code of codes(50)) expect(hashedPool(['a', 'b', 'c'], code)).toBe(hashedPool(['c', 'a', 'b'], code));
  });

  const table: [number, number][] = [
    [1, 2],
    [2, 3],
    [4, 5],
    [9, 10],
  ];
  it.each(table)('from %i to %i pools: only about 1/n of 3,000 stores move, all to the new pool', (from, to) => {
    const all = codes(3000);
    const poolsOf = (n: number) => ({ pools: Array.from({ length: n }, (_, i) => ({ name: `p${i}`, nodes: [] })), stores: {} });
    const before = assignStores(poolsOf(from), all).poolOf;
    const after = assignStores(poolsOf(to), all).poolOf;
    const moved = all.filter((c) => before.get(c) !== after.get(c));
    for (const c of moved) expect(after.get(c)).toBe(`p${to - 1}`);
    const expected = all.length / to;
    expect(moved.length).toBeGreaterThan(expected * 0.8);
    expect(moved.length).toBeLessThan(expected * 1.2);
    // And the pools share the stores about evenly.
    for (const [, list] of assignStores(poolsOf(to), all).storesOf) expect(Math.abs(list.length - expected)).toBeLessThan(expected * 0.2);
  });
});

describe('warmStores (CATALOG_WARM_STORES)', () => {
  const registry = {
    stores: ['downtown', 'eastside', 'wellness', 'harbor'].map((storeCode, i) => ({ storeCode, storeId: i + 1 })),
    byCode(code: string) {
      return this.stores.find((s) => s.storeCode === code);
    },
  };
  const pool = { name: 'east', storeCodes: ['eastside', 'harbor'] };
  const cases: [string, typeof pool | undefined, string[], number | undefined, number[], string[]][] = [
    ['no pool, listed codes', undefined, ['harbor', 'downtown'], 20, [4, 1], []],
    ['no pool, *', undefined, ['*'], 20, [1, 2, 3, 4], []],
    ['no pool, * up to the budget', undefined, ['*'], 3, [1, 2, 3], []],
    ['a pool, *: its stores', pool, ['*'], 20, [2, 4], []],
    ['a pool, * up to the budget', pool, ['*'], 1, [2], []],
    ['a pool, listed codes: its own warmed, others told', pool, ['downtown', 'harbor', 'wellness'], 20, [4], ['downtown', 'wellness']],
    ['nothing asked', pool, [], 20, [], []],
  ];
  it.each(cases)('%s', (_what, p, codes, max, expected, told) => {
    const others: string[] = [];
    expect(warmStores(registry, p, codes, max, (c) => others.push(...c))).toEqual(expected);
    expect(others).toEqual(told);
  });
});

describe('a node started with POOLS_FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdant-pools-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, [compiledEntry('main')], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', PORT: '0', DATA_DIR: join(dir, 'data'), ...env },
    });
  const cases: [string, unknown, Record<string, string>, RegExp][] = [
    ['no NODE_POOL', twoPools, {}, /NODE_POOL: required when POOLS_FILE is set \(one of: east, west\)/],
    ['an unknown NODE_POOL', twoPools, { NODE_POOL: 'north' }, /NODE_POOL: unknown pool "north"/],
    ['a bad pools file', { ...twoPools, stores: { harbor: 'north' } }, { NODE_POOL: 'east' }, /Invalid pools file:\n {2}stores\.harbor: unknown pool "north"/],
  ];
  it.each(cases)('stops at once with a clear error: %s', (_what, file, env, message) => {
    const path = join(dir, `${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify(file));
    const r = start({ POOLS_FILE: path, ...env });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(message);
  });
});
