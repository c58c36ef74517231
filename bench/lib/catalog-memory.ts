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
 * (the data directory of `npm run seed -- --stores 150 --products 2000 --data-dir …`; the second
 * argument is how many of its stores to load, from store 1).
 */
import path from 'node:path';
import { createAttributeIndex, createProductIndex } from '@verdant/search';
import { readCatalogRows } from '../../apps/server/src/catalog/catalog-rows.ts';
import { buildDocuments } from '../../apps/server/src/catalog/documents.ts';
import { SellableIndex, sellableRecords } from '../../apps/server/src/catalog/sellables.ts';
import { StoreCatalog } from '../../apps/server/src/catalog/store-catalog.ts';
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
}
