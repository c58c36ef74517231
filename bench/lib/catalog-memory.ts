/**
 * What the catalogue holds in memory per product, and where start-up spends its time, measured
 * in-process with the server's own catalogue code (read only: nothing here changes it) over a data
 * directory the many-store seed wrote. The stages are those of CatalogIndexManager.rebuild: read
 * every row (readCatalogRows), build the documents (buildDocuments), the cart's sellable records
 * (sellableRecords), then the search indices and lookups (new StoreCatalog). Live heap is taken
 * after a full GC at each stage, with the earlier stages' objects still held, then again once the
 * rows (which the server drops after the build) are let go.
 *
 *   node --expose-gc --import tsx bench/lib/catalog-memory.ts /tmp/verdant-scale-150x2000 10
 *
 * First, and apart from the stages (issue 15, helper memory): what a node holds, measured the way
 * the server builds it — CatalogIndexManager.ensure() store after store, nothing else kept — as the
 * live heap it adds per listed product, and each store's build time (the first request to a store
 * nobody opened waits for one). The staged figures below keep every stage's objects alive at once
 * (and the rows stay reachable from this function until it returns), so their "whole StoreCatalog"
 * line is an upper bound; "what a node holds" is the figure to compare. To compare with another
 * commit in the same run, copy this file into a checkout of it and run both, one after the other.
 *
 * (the data directory of `npm run seed -- --stores 150 --products 2000 --data-dir …`; the second
 * argument is how many of its stores to load, from store 1).
 */
import path from 'node:path';
import { createAttributeIndex, createProductIndex, productSearchQuery } from '@verdant/search';
import { STRAINS } from '../../apps/server/src/seed/data/strains.ts';
import { readCatalogRows } from '../../apps/server/src/catalog/catalog-rows.ts';
import { buildDocuments } from '../../apps/server/src/catalog/documents.ts';
import { SellableIndex, sellableRecords } from '../../apps/server/src/catalog/sellables.ts';
import { StoreCatalog } from '../../apps/server/src/catalog/store-catalog.ts';
import { CatalogIndexManager } from '../../apps/server/src/catalog/index-manager.ts';
import { toAttribute } from '../../apps/server/src/catalog/taxonomy-documents.ts';
import { createDatabase } from '../../apps/server/src/db/index.ts';
import { readStoresFile } from '../../apps/server/src/seed/index.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const MiB = 2 ** 20;

export interface CatalogMemory {
  stores: number;
  listedProducts: number;
  documents: number;
  rows: number;
  /** Live heap (MiB) after each stage, earlier stages still held. */
  heapMiB: Record<string, number>;
  /** Milliseconds of each stage. */
  ms: Record<string, number>;
  /** Bytes per document (every product row: listed products, sizes, kit members) by component. */
  bytesPerDocument: Record<string, number>;
  /** Serialised JSON of the documents, bytes per document (what the data is, without the heap's overhead). */
  jsonBytesPerDocument: number;
  /**
   * The search engine alone (no HTTP), per store: 600 text searches (strain names, every other one
   * with a dropped letter) with the store's scope filters, 24 per page; p50/p99 of the store whose
   * p99 is the highest, and every store's p99.
   */
  engineSearch: { store: number; p50Ms: number; p99Ms: number; p99ByStoreMs: number[] };
}

export interface NodeHolds {
  stores: number;
  listedProducts: number;
  /** Live heap the manager's loaded stores add (MiB), after a full GC. */
  liveMiB: number;
  kibPerListedProduct: number;
  /** ensure() of each store, in order (the first one also warms the code). */
  buildMs: number[];
  /** CPU time (user + system, all threads: GC included) of each ensure(): less sensitive to a shared machine's load. */
  buildCpuMs: number[];
}

/** Live heap a CatalogIndexManager holds with `storeCount` stores loaded through ensure(), as a server does. */
export async function measureNodeHolds(dataDir: string, storeCount: number): Promise<NodeHolds> {
  const file = readStoresFile(path.join(dataDir, 'stores.json'));
  const stores = file.stores.slice(0, storeCount);
  const { db, destroy } = await createDatabase({ dataDir });
  const heap = () => {
    gc!();
    gc!();
    return process.memoryUsage().heapUsed;
  };
  const manager = new CatalogIndexManager({ db, stores: file.stores });
  try {
    await manager.start();
    const before = heap();
    const buildMs: number[] = [];
    const buildCpuMs: number[] = [];
    for (const s of stores) {
      const t = performance.now();
      const cpu = process.cpuUsage();
      await manager.ensure(s.storeId);
      const used = process.cpuUsage(cpu);
      buildMs.push(Math.round(performance.now() - t));
      buildCpuMs.push(Math.round((used.user + used.system) / 1000));
    }
    const live = heap() - before;
    let listed = 0;
    for (const s of stores) for (const p of manager.catalog(s.storeId).allProducts()) if (p.visibility !== 1) listed++;
    return {
      stores: stores.length,
      listedProducts: listed,
      liveMiB: Math.round((live / MiB) * 10) / 10,
      kibPerListedProduct: Math.round((live / listed / 1024) * 100) / 100,
      buildMs,
      buildCpuMs,
    };
  } finally {
    await manager.close();
    await destroy();
  }
}

/** In-process search latency over one store's catalogue, as the list route asks it. */
function engineSearch(catalog: StoreCatalog): { p50Ms: number; p99Ms: number } {
  const texts = Array.from({ length: 700 }, (_, i) => {
    const name = STRAINS[(i * 7) % STRAINS.length].name.toLowerCase();
    const at = 1 + (i % Math.max(1, name.length - 3));
    return i % 2 === 0 ? name.slice(0, at) + name.slice(at + 1) : name;
  });
  const now = new Date();
  const times: number[] = [];
  texts.forEach((text, i) => {
    const query = productSearchQuery({ storeId: catalog.storeId, licenseType: i % 3 === 0 ? 'medical' : 'recreational', text, size: 24 });
    const t0 = process.hrtime.bigint();
    catalog.products.search(query, { now });
    if (i >= 100) times.push(Number(process.hrtime.bigint() - t0) / 1e6); // the first 100 warm up
  });
  times.sort((a, b) => a - b);
  const pct = (p: number) => Math.round(times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)] * 1000) / 1000;
  return { p50Ms: pct(50), p99Ms: pct(99) };
}

export async function measureCatalogMemory(dataDir: string, storeCount: number): Promise<CatalogMemory> {
  const file = readStoresFile(path.join(dataDir, 'stores.json'));
  const stores = file.stores.slice(0, storeCount);
  const storeIds = stores.map((s) => s.storeId);
  const { db, destroy } = await createDatabase({ dataDir });
  const heap = () => {
    gc!();
    gc!();
    return process.memoryUsage().heapUsed;
  };
  const heapMiB: Record<string, number> = {};
  const ms: Record<string, number> = {};
  const at: Record<string, number> = {};
  const mark = (name: string, since: number) => {
    ms[name] = Math.round(performance.now() - since);
    at[name] = heap();
    heapMiB[name] = Math.round(at[name] / MiB);
  };
  try {
    at.start = heap();
    heapMiB.start = Math.round(at.start / MiB);
    let t = performance.now();
    let rows: Awaited<ReturnType<typeof readCatalogRows>> | null = await readCatalogRows(db, { storeIds });
    mark('rows read', t);
    const rowCount = Object.values(rows).reduce((n, list) => n + (list as unknown[]).length, 0);
    t = performance.now();
    const documents = buildDocuments(rows, { customerGroupFor: () => 0, now: new Date() });
    mark('+ documents', t);
    t = performance.now();
    const sellables = sellableRecords(rows);
    mark('+ sellable records', t);
    const attributes = createAttributeIndex();
    attributes.replaceAll(rows.attributes.map(toAttribute));
    rows = null;
    t = performance.now();
    mark('rows dropped', t);
    // The product search index alone, per store (the largest part of a StoreCatalog).
    t = performance.now();
    const productIndexes = documents.map((d) => {
      const index = createProductIndex();
      index.replaceAll(d.products);
      return index;
    });
    mark('+ product search indices', t);
    productIndexes.length = 0;
    t = performance.now();
    const sellableIndexes = documents.map((d) => new SellableIndex(sellables.get(d.storeId) ?? []));
    mark('+ sellable indices (product search indices dropped)', t);
    sellableIndexes.length = 0;
    t = performance.now();
    const catalogs = documents.map(
      (d) =>
        new StoreCatalog(d.storeId, attributes, {
          products: d.products,
          categories: d.categories,
          cmsPages: [],
          cmsBlocks: [],
          taxRules: [],
          rewrites: [],
          sellables: sellables.get(d.storeId) ?? [],
        }),
    );
    mark('whole StoreCatalogs (what a node holds)', t);

    const docCount = documents.reduce((n, d) => n + d.products.length, 0);
    const listed = documents.reduce((n, d) => n + d.products.filter((p) => p.visibility !== 1).length, 0);
    const per = (bytes: number) => Math.round(bytes / docCount);
    const json = documents.reduce((n, d) => n + d.products.reduce((m, p) => m + Buffer.byteLength(JSON.stringify(p)), 0), 0);
    const result: CatalogMemory = {
      stores: stores.length,
      listedProducts: listed,
      documents: docCount,
      rows: rowCount,
      heapMiB,
      ms,
      bytesPerDocument: {
        'rows as read (transient)': per(at['rows read'] - at.start),
        documents: per(at['+ documents'] - at['rows read']),
        'sellable records': per(at['+ sellable records'] - at['+ documents']),
        'documents + sellable records, rows dropped': per(at['rows dropped'] - at.start),
        'product search index': per(at['+ product search indices'] - at['rows dropped']),
        'sellable index': per(at['+ sellable indices (product search indices dropped)'] - at['rows dropped']),
        'whole StoreCatalog (documents, records, indices, lookups)': per(at['whole StoreCatalogs (what a node holds)'] - at.start),
      },
      jsonBytesPerDocument: per(json),
      engineSearch: (() => {
        const all = catalogs.map((c) => ({ store: c.storeId, ...engineSearch(c) }));
        const worst = all.reduce((w, x) => (x.p99Ms > w.p99Ms ? x : w));
        return { ...worst, p99ByStoreMs: all.map((x) => x.p99Ms) };
      })(),
    };
    // Held until here so that every stage above was measured with the catalogues it built alive.
    if (catalogs.length !== stores.length) throw new Error('catalogue count');
    return result;
  } finally {
    await destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dataDir, count] = [process.argv[2], Number(process.argv[3] ?? 10)];
  const holds = await measureNodeHolds(dataDir, count);
  console.log(
    `what a node holds (CatalogIndexManager.ensure, ${holds.stores} stores, ${holds.listedProducts} listed products): ` +
      `${holds.liveMiB} MiB live = ${holds.kibPerListedProduct} KiB per listed product; build per store, wall ms: ${holds.buildMs.join(', ')}; CPU ms: ${holds.buildCpuMs.join(', ')}`,
  );
  const r = await measureCatalogMemory(dataDir, count);
  console.log(`${r.stores} stores: ${r.listedProducts} listed products, ${r.documents} product documents, ${r.rows} rows read`);
  console.table(Object.fromEntries(Object.keys(r.heapMiB).map((k) => [k, { 'live heap MiB': r.heapMiB[k], ms: r.ms[k] ?? '' }])));
  console.table(
    Object.fromEntries(
      Object.entries(r.bytesPerDocument).map(([k, b]) => [
        k,
        { 'bytes/document': b, 'KiB per listed product': Math.round(((b * r.documents) / r.listedProducts / 1024) * 10) / 10 },
      ]),
    ),
  );
  console.log(`documents as JSON: ${r.jsonBytesPerDocument} bytes/document`);
  console.log(
    `search engine alone, worst store of ${r.stores}: p50 ${r.engineSearch.p50Ms} ms, p99 ${r.engineSearch.p99Ms} ms (store ${r.engineSearch.store}); p99 by store: ${r.engineSearch.p99ByStoreMs.join(', ')} ms`,
  );
}
