/**
 * A menu change reaches every server node (issue 13): two real server processes on one PostgreSQL
 * schema and one Redis; a menu file is applied from a third process's point of view (this test
 * process, as `npm run import` does: the import engine, then a notice on the change bus), and BOTH
 * nodes show it within 2 s — price, product name, and stock down to sold out — in search, the
 * product lookup, category counts, the sitemap and the offline snapshot (new ETag).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisBus, type ChangeBus } from '../catalog/change-bus.ts';
import { MenuFile } from '../../test-support/catalog/menu-fixture.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../db/index.ts';
import { readStoresFile, seedDemo } from '../seed/index.ts';
import { call, freePort, freshSchema, PG_URL, REDIS_URL, START_MS, startNode, STOP_MS, within, type ServerNode } from '../../test-support/multinode/harness.ts';

const JAR = 'AC-BLACK-CERAMIC-STASH-JAR';
const REACH_MS = 2000;

const needed = !PG_URL ? 'TEST_DATABASE_URL is not set' : null;
if (needed && process.env.CI !== 'true') console.warn(`[verdant tests] skipping multi-node menu tests: ${needed}`);

describe.skipIf(needed !== null && process.env.CI !== 'true')('a menu file applied once reaches both nodes (PostgreSQL + Redis)', () => {
  let nodes: ServerNode[] = [];
  let handle: DatabaseHandle;
  let bus: ChangeBus;
  let menu: MenuFile;
  let drop: () => Promise<void>;
  const dataDir = mkdtempSync(join(tmpdir(), 'verdant-mn-menu-'));

  beforeAll(async () => {
    const schema = await freshSchema();
    drop = schema.drop;
    handle = await createDatabase({ databaseUrl: schema.url, dataDir });
    await migrateToLatest(handle.db);
    await seedDemo(handle.db, readStoresFile(DEMO_STORES_FILE), { dataDir, referenceDate: new Date('2026-06-15T12:00:00Z') });
    const REDIS_PREFIX = `verdant-mn-menu-${process.pid}-${Math.random().toString(36).slice(2)}:`;
    nodes = [
      startNode({ DATABASE_URL: schema.url, REDIS_URL, REDIS_PREFIX }, await freePort()),
      startNode({ DATABASE_URL: schema.url, REDIS_URL, REDIS_PREFIX }, await freePort()),
    ];
    // The importing process's own bus connection, as the CLI opens one (it subscribes to nothing).
    bus = redisBus({ url: REDIS_URL, channel: `${REDIS_PREFIX}catalog-changed`, name: 'verdant-import' });
    menu = await new MenuFile(handle.db, 1, (storeId, productIds) => bus.publish({ storeId, productIds })).load();
    await Promise.all(nodes.map((n) => n.ready()));
  }, START_MS + 60_000);
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await bus?.close();
    await handle?.destroy();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }, STOP_MS + 30_000);

  const searched = async (node: ServerNode, text: string) =>
    (
      (await call(node, 'GET', `/api/catalog/products?text=${encodeURIComponent(text)}&size=50`)).result.items as {
        sku: string;
        price: number;
        name: string;
      }[]
    ).find((i) => i.sku === JAR);
  const product = async (node: ServerNode) => (await call(node, 'GET', `/api/catalog/product/${JAR}`)).result;
  const etag = async (node: ServerNode) =>
    (await fetch(`${node.base}/api/catalog/snapshot`, { headers: { host: 'downtown.localhost' } })).headers.get('etag');
  const sitemap = async (node: ServerNode) => (await fetch(`${node.base}/sitemap.xml`, { headers: { host: 'downtown.localhost' } })).text();

  /** Apply the change, then every node must pass `check` within 2 s of the import's return. */
  async function reachesBoth(
    what: string,
    cells: Record<string, string>,
    check: (node: ServerNode) => Promise<boolean>,
  ): Promise<number[]> {
    const etags = await Promise.all(nodes.map(etag));
    await menu.change(JAR, cells);
    const since = performance.now();
    const took = await Promise.all(nodes.map((n) => within(`port ${n.port}: ${what}`, REACH_MS, () => check(n), since)));
    // The offline snapshot was remade on each node too.
    const after = await Promise.all(nodes.map(etag));
    after.forEach((e, i) => expect(e, `snapshot ETag on node ${i + 1}`).not.toBe(etags[i]));
    return took;
  }

  it('price, name and stock changes from one import reach search, product, sitemap and snapshot on both nodes within 2 s', async () => {
    for (const n of nodes) expect((await searched(n, 'ceramic stash jar'))?.price).toBe(2699);

    await reachesBoth(
      'the new price',
      { price: '27.75' },
      async (n) => (await searched(n, 'ceramic stash jar'))?.price === 2775 && (await product(n)).price === 2775,
    );
    await reachesBoth(
      'the new name',
      { name: 'Obsidian Stash Jar' },
      async (n) => (await searched(n, 'obsidian'))?.name === 'Obsidian Stash Jar',
    );
    await reachesBoth(
      'sold out',
      { stock: '0' },
      async (n) => (await product(n)).stock.is_in_stock === false && (await searched(n, 'obsidian')) === undefined,
    );
    await reachesBoth('restocked', { stock: '6' }, async (n) => (await searched(n, 'obsidian')) !== undefined);
    await reachesBoth('taken off the menu', { status: 'disabled' }, async (n) => !(await sitemap(n)).includes('/black-ceramic-stash-jar'));
    await reachesBoth('back on the menu', { status: 'active' }, async (n) => (await sitemap(n)).includes('/black-ceramic-stash-jar'));
  }, 60_000);
});
