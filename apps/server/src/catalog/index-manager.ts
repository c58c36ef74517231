/**
 * Each server node keeps every store's catalogue in memory (ARCHITECTURE "Search"): built from the
 * database at start, rebuilt for one store or upserted for changed products when the catalogue
 * changes. `catalogChanged` is what code that writes the catalogue calls: it reindexes here
 * (searchable within milliseconds) and drops the store's cached pages while it tells the other
 * nodes through the change bus (Redis pub/sub when REDIS_URL is set).
 *
 * Work for one store is serialised (a rebuild never interleaves with an upsert of the same store);
 * a rebuild is built aside and swapped in whole, so a search never sees half a catalogue.
 */
import type { Kysely } from 'kysely';
import type { CatalogAttribute, Store } from '@verdant/domain';
import { createAttributeIndex, type SearchIndex } from '@verdant/search';
import { loadCmsDocuments } from '../cms/documents.ts';
import type { Database } from '../db/schema.ts';
import { affectedProductIds } from './catalog-rows.ts';
import { inProcessBus, type CatalogChange, type ChangeBus } from './change-bus.ts';
import { loadDocuments, type BuildOptions } from './documents.ts';
import { sellableRecords } from './sellables.ts';
import { StoreCatalog, type StoreContent } from './store-catalog.ts';
import { loadTaxRules } from './tax-rules.ts';

/** Above this many affected products an incremental update is no cheaper than a rebuild. */
const MAX_INCREMENTAL = 500;

export interface IndexManagerOptions {
  db: Kysely<Database>;
  stores: readonly Store[];
  bus?: ChangeBus;
  /** Called after a store's catalogue changed here (locally or by notice): drop cached pages. */
  onChanged?: (storeId: number) => void;
  /** When configurable and kit summary prices are judged (tests pin it). */
  clock?: () => Date;
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
}

export class CatalogIndexManager {
  private readonly catalogs = new Map<number, StoreCatalog>();
  private readonly attributes: SearchIndex<CatalogAttribute> = createAttributeIndex();
  private attributeDocs: CatalogAttribute[] = [];
  private readonly queues = new Map<number, Promise<unknown>>();
  /** Per store: product ids waiting for the next incremental reindex, and that reindex. */
  private readonly pendingProducts = new Map<number, { ids: Set<number>; run: Promise<void> }>();
  /** How many incremental reindexes ran (coalescing shows as fewer runs than changes). */
  readonly stats = { productReindexes: 0 };
  private readonly bus: ChangeBus;
  private readonly storeIds: number[];

  constructor(private readonly opts: IndexManagerOptions) {
    this.bus = opts.bus ?? inProcessBus();
    this.storeIds = opts.stores.map((s) => s.storeId);
  }

  private buildOptions(): BuildOptions {
    const groups = new Map(this.opts.stores.map((s) => [s.storeId, s.tax.userGroupId]));
    return { customerGroupFor: (id) => groups.get(id) ?? 0, now: (this.opts.clock ?? (() => new Date()))() };
  }

  /**
   * Listen for notices first, then build every store (one pass over the database for all of
   * them). In the other order a change committed after the build read its rows but published
   * before the subscription was in place would be missed for good; this way a notice that arrives
   * during the build is applied after it (re-reading rows the build may already have: harmless).
   * Resolves once the subscription is confirmed and the stores are built: only then may the server
   * say it is ready.
   */
  async start(): Promise<void> {
    let early: CatalogChange[] | null = [];
    // A reconnect during the build: the build may have read before what was missed; redo it after.
    let resyncAfterBuild = false;
    const resync = () => void this.rebuildAll().catch((error: Error) => this.opts.log?.warn({ err: error }, 'catalogue resync failed'));
    await this.bus.subscribe(
      (change) => (early ? early.push(change) : this.applyNotice(change)),
      () => (early ? (resyncAfterBuild = true) : resync()),
    );
    await this.rebuild(this.storeIds);
    const pending = early;
    early = null;
    if (resyncAfterBuild) resync();
    else for (const change of pending) this.applyNotice(change);
  }

  private applyNotice(change: CatalogChange): void {
    this.apply(change).catch((error: Error) => this.opts.log?.warn({ err: error, change }, 'catalogue notice failed'));
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.queues.values());
    await this.bus.close();
  }

  /** The store's catalogue; throws for a store this deployment does not have. */
  catalog(storeId: number): StoreCatalog {
    const catalog = this.catalogs.get(storeId);
    if (!catalog) throw new Error(`No catalogue index for store ${storeId}`);
    return catalog;
  }

  /** The attribute documents (global: shared by every store). */
  allAttributes(): readonly CatalogAttribute[] {
    return this.attributeDocs;
  }

  /** The store's catalogue, or undefined for a store this deployment does not have. */
  find(storeId: number): StoreCatalog | undefined {
    return this.catalogs.get(storeId);
  }

  /** A change made through the API: reindex here, drop cached pages, tell the other nodes. */
  async catalogChanged(storeId: number, productIds?: readonly number[]): Promise<void> {
    if (!this.catalogs.has(storeId)) throw new Error(`Unknown store ${storeId}`);
    const change: CatalogChange = productIds ? { storeId, productIds: [...productIds] } : { storeId };
    // Told at once, while this node reindexes (the rows are committed): the others' 2 s do not
    // wait for this node's own work, and they hear it even when this node's reindex fails.
    const published = this.bus.publish(change).catch((error: unknown) => {
      // Only a node whose own connection dropped resyncs, so the others are not told by that:
      // the bus owes them this change and publishes it once it can (see ChangeBus.publish).
      this.opts.log?.warn({ err: error, storeId }, 'could not publish a catalogue change');
    });
    try {
      await this.apply(change);
    } finally {
      await published;
    }
  }

  async reindexStore(storeId: number): Promise<void> {
    await this.serial(storeId, () => this.rebuild([storeId]));
  }

  /**
   * Upsert the documents that `ids` change (parents, kits embedding them); drop deleted ones.
   * Changes that arrive while the store's index is busy are coalesced: they wait for one reindex
   * of all their products together (under a burst of orders, one reload per batch instead of one
   * per order). Each caller's promise settles after a reindex that includes its products.
   */
  async reindexProducts(storeId: number, ids: readonly number[]): Promise<void> {
    let batch = this.pendingProducts.get(storeId);
    if (!batch) {
      const ids = new Set<number>();
      const run = this.serial(storeId, () => {
        // From here on, new changes start the next batch.
        this.pendingProducts.delete(storeId);
        return this.reindexProductsNow(storeId, [...ids]);
      });
      batch = { ids, run };
      this.pendingProducts.set(storeId, batch);
    }
    for (const id of ids) batch.ids.add(id);
    await batch.run;
  }

  private async reindexProductsNow(storeId: number, ids: readonly number[]): Promise<void> {
    this.stats.productReindexes += 1;
    const affected = await affectedProductIds(this.opts.db, storeId, ids);
    if (affected.length > MAX_INCREMENTAL) return this.rebuild([storeId]);
    const { stores, rows } = await loadDocuments(this.opts.db, { storeId, productIds: affected }, this.buildOptions());
    const docs = stores[0]?.products ?? [];
    const found = new Set(docs.map((d) => d.id));
    this.catalog(storeId).applyProducts(
      docs,
      affected.filter((id) => !found.has(id)),
      sellableRecords(rows).get(storeId) ?? [],
    );
  }

  private async apply(change: CatalogChange): Promise<void> {
    if (!this.catalogs.has(change.storeId)) {
      this.opts.log?.warn({ change }, 'catalogue notice for a store this node does not serve');
      return;
    }
    if (change.productIds && change.productIds.length > 0) await this.reindexProducts(change.storeId, change.productIds);
    else await this.reindexStore(change.storeId);
    this.opts.onChanged?.(change.storeId);
  }

  private async rebuildAll(): Promise<void> {
    await Promise.all(this.storeIds.map((id) => this.reindexStore(id)));
    for (const id of this.storeIds) this.opts.onChanged?.(id);
  }

  /** Read everything the stores' indices hold (a fixed number of queries) and swap them in. */
  private async rebuild(storeIds: readonly number[]): Promise<void> {
    const { db } = this.opts;
    const [documents, cms, taxRules, rewrites] = await Promise.all([
      loadDocuments(db, { storeIds }, this.buildOptions()),
      loadCmsDocuments(db, storeIds),
      // The stores' tax lines as `taxrule` documents (./tax-rules.ts).
      loadTaxRules(db, this.opts.stores.filter((s) => storeIds.includes(s.storeId))),
      db
        .selectFrom('url_rewrites')
        .selectAll()
        .where('store_id', 'in', [...storeIds])
        .execute(),
    ]);
    this.attributes.replaceAll(documents.attributes);
    this.attributeDocs = documents.attributes;
    const sellables = sellableRecords(documents.rows);
    for (const { storeId, products, categories } of documents.stores) {
      const content: StoreContent = {
        products,
        categories,
        cmsPages: cms.get(storeId)?.pages ?? [],
        cmsBlocks: cms.get(storeId)?.blocks ?? [],
        taxRules: taxRules.get(storeId) ?? [],
        rewrites: rewrites.filter((r) => r.store_id === storeId),
        sellables: sellables.get(storeId) ?? [],
      };
      const listOutOfStock = this.opts.stores.find((s) => s.storeId === storeId)?.catalog.listOutOfStockProducts;
      this.catalogs.set(storeId, new StoreCatalog(storeId, this.attributes, content, { listOutOfStock }));
    }
  }

  private serial<T>(storeId: number, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(storeId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(task);
    this.queues.set(storeId, next);
    void next
      .finally(() => {
        if (this.queues.get(storeId) === next) this.queues.delete(storeId);
      })
      .catch(() => undefined);
    return next;
  }
}
