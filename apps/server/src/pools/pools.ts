/**
 * Issue 32: the deployment as pools of nodes, each pool serving a set of stores (docs/operators/deployment.md,
 * "Pools behind a proxy"). Pure logic, shared by the server (a node loads its pool's catalogues) and
 * `npm run proxy-config` (which writes the proxy's routing from the same assignment).
 *
 * The pools file (POOLS_FILE):
 *
 *   { "pools": [{ "name": "east", "nodes": [{ "name": "east-1", "address": "10.0.0.11:3000" }, …] }, …],
 *     "stores": { "harbor": "east" } }
 *
 * A store's pool is its override in `stores` when it has one, else the pool of highest rendezvous
 * (highest-random-weight) score: score(pool, store) = the first 8 bytes of sha256(`${pool}\n${store}`).
 * Every pool scores every store independently, so adding a pool takes away from each old pool only
 * the stores the new one out-scores (about 1/n of all), and removing one moves only that pool's
 * stores; a node restarted or added inside a pool moves no store at all. sha256 is stable across Node
 * versions and machines, so the proxy configuration and every node agree without talking.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { z } from 'zod';
import type { StoresFile } from '@verdant/domain';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;
const nameSchema = z.string().regex(NAME, 'letters, digits, "_" and "-" (at most 63), starting with a letter or digit');

const poolsFileSchema = z
  .object({
    pools: z
      .array(
        z
          .object({
            name: nameSchema,
            nodes: z
              .array(
                z
                  .object({
                    name: nameSchema,
                    address: z.string().regex(/^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/, 'host:port (e.g. 10.0.0.11:3000)'),
                  })
                  .strict(),
              )
              .min(1, 'a pool needs at least one node'),
          })
          .strict(),
      )
      .min(1, 'at least one pool'),
    stores: z.record(z.string(), z.string()).default({}),
  })
  .strict();

export interface PoolNode {
  name: string;
  /** host:port the proxy reaches the node at. */
  address: string;
}

export interface Pool {
  name: string;
  nodes: PoolNode[];
}

export interface PoolsFile {
  pools: Pool[];
  /** Per-store overrides: store code → pool name. */
  stores: Record<string, string>;
}

/** The pools file checked against the stores file; pools and their stores. */
export interface PoolAssignment {
  pools: Pool[];
  /** Store code → pool name, for every store of the stores file. */
  poolOf: Map<string, string>;
  /** Pool name → its store codes (in the stores file's order). */
  storesOf: Map<string, string[]>;
}

/** The rendezvous score of `pool` for `storeCode` (higher wins). */
export function rendezvousScore(pool: string, storeCode: string): bigint {
  return createHash('sha256').update(`${pool}\n${storeCode}`).digest().readBigUInt64BE(0);
}

/** The pool of highest rendezvous score for the store (ties, practically impossible, go to the first name in order). */
export function hashedPool(poolNames: readonly string[], storeCode: string): string {
  if (poolNames.length === 0) throw new Error('no pools');
  let best = poolNames[0]!;
  let bestScore = rendezvousScore(best, storeCode);
  for (const name of poolNames.slice(1)) {
    const score = rendezvousScore(name, storeCode);
    if (score > bestScore || (score === bestScore && name < best)) {
      best = name;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Check a parsed pools file (JSON value) against the stores file; throws an Error naming every bad
 * field by its path (`pools.1.nodes.0.address: …`, `stores.nowhere: unknown store code`).
 */
export function parsePoolsFile(data: unknown, storesFile: Pick<StoresFile, 'stores'>): PoolAssignment {
  const result = poolsFileSchema.safeParse(data);
  const problems: string[] = [];
  if (!result.success) {
    for (const i of result.error.issues) problems.push(`${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`Invalid pools file:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  const file = result.data;
  const poolNames = new Set<string>();
  const nodeNames = new Set<string>();
  const addresses = new Set<string>();
  file.pools.forEach((pool, i) => {
    if (poolNames.has(pool.name)) problems.push(`pools.${i}.name: "${pool.name}" is used twice`);
    poolNames.add(pool.name);
    pool.nodes.forEach((node, j) => {
      if (nodeNames.has(node.name)) problems.push(`pools.${i}.nodes.${j}.name: "${node.name}" is used twice (node names are unique across pools)`);
      nodeNames.add(node.name);
      if (addresses.has(node.address)) problems.push(`pools.${i}.nodes.${j}.address: ${node.address} is used twice`);
      addresses.add(node.address);
    });
  });
  const codes = new Set(storesFile.stores.map((s) => s.storeCode));
  for (const [code, pool] of Object.entries(file.stores)) {
    if (!codes.has(code)) problems.push(`stores.${code}: unknown store code "${code}" (not in the stores file)`);
    if (!poolNames.has(pool)) problems.push(`stores.${code}: unknown pool "${pool}"`);
  }
  if (problems.length) throw new Error(`Invalid pools file:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return assignStores(file, [...codes]);
}

/** Every store code's pool: its override, else the rendezvous hash over the pool names. */
export function assignStores(file: PoolsFile, storeCodes: readonly string[]): PoolAssignment {
  const names = file.pools.map((p) => p.name);
  const poolOf = new Map<string, string>();
  const storesOf = new Map<string, string[]>(names.map((n) => [n, []]));
  for (const code of storeCodes) {
    const pool = Object.hasOwn(file.stores, code) ? file.stores[code]! : hashedPool(names, code);
    poolOf.set(code, pool);
    storesOf.get(pool)!.push(code);
  }
  return { pools: file.pools, poolOf, storesOf };
}

/** Read and check the pools file at `filePath` (errors name the file and the bad field). */
export function readPoolsFile(filePath: string, storesFile: Pick<StoresFile, 'stores'>): PoolAssignment {
  let raw: string;
  try {
    raw = fs.readFileSync(filePath, 'utf8');
  } catch (err) {
    throw new Error(`Cannot read pools file ${filePath}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new Error(`Pools file ${filePath} is not valid JSON: ${(err as Error).message}`);
  }
  try {
    return parsePoolsFile(json, storesFile);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n(in ${filePath})`);
  }
}

/** What a node knows of its pool (main.ts → app.ts → the catalogue manager). */
export interface NodePool {
  name: string;
  /** The store codes of this pool. */
  storeCodes: string[];
}

/** This node's pool (NODE_POOL) in the assignment; a clear error when it is missing or unknown. */
export function nodePool(assignment: PoolAssignment, poolName: string | undefined): NodePool {
  const known = assignment.pools.map((p) => p.name).join(', ');
  if (!poolName) throw new Error(`Invalid environment:\n  NODE_POOL: required when POOLS_FILE is set (one of: ${known})`);
  const codes = assignment.storesOf.get(poolName);
  if (!codes) throw new Error(`Invalid environment:\n  NODE_POOL: unknown pool "${poolName}" (the pools file has: ${known})`);
  return { name: poolName, storeCodes: codes };
}

/**
 * The store ids CATALOG_WARM_STORES asks this node to build in the background: `*` = every store of
 * its pool (every store without pools), up to `maxStores` (0/unset: no limit); listed codes are
 * kept when they are of its pool, the others told to `othersNamed` (and not warmed).
 */
export function warmStores(
  registry: { stores: readonly { storeId: number; storeCode: string }[]; byCode(code: string): { storeId: number } | undefined },
  pool: NodePool | undefined,
  codes: readonly string[],
  maxStores: number | undefined,
  othersNamed: (codes: string[]) => void,
): number[] {
  const mine = (code: string) => !pool || pool.storeCodes.includes(code);
  if (codes.length === 1 && codes[0] === '*') {
    const all = registry.stores.filter((s) => mine(s.storeCode)).map((s) => s.storeId);
    return maxStores ? all.slice(0, maxStores) : all;
  }
  const others = codes.filter((c) => !mine(c));
  if (others.length) othersNamed(others);
  return codes.filter(mine).flatMap((code) => registry.byCode(code)?.storeId ?? []);
}
