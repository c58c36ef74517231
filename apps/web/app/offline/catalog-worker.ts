/**
 * The offline catalogue worker (issue 15): a dedicated Worker, built by Vite as its own chunk from
 * `new Worker(new URL('./catalog-worker.ts', import.meta.url), { type: 'module' })` in
 * ./catalog-client.ts, so the catalogue engine, the search engine and the snapshot never enter a
 * page's own JavaScript. It downloads, decodes, stores and indexes the store's snapshot and answers
 * the storefront services over it (./catalog-engine.ts, ./catalog-protocol.ts).
 */
import { createCatalogEngine } from './catalog-engine.ts';
import { serveCatalog, type MessageEnd } from './catalog-protocol.ts';

serveCatalog(self as unknown as MessageEnd, (storeCode) => createCatalogEngine({ storeCode }));
