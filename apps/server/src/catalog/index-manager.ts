/**
 * Each server node keeps store catalogues in memory (ARCHITECTURE "Search"), lazily (issue 15):
 * `start()` builds nothing, so readiness does not wait for catalogues whatever the store count. A
 * store's catalogue is built from the database on first need through `ensure(storeId)` (single
 * flight: concurrent first requests share one build), one store at a time (the peak is one store's
 * rows), then rebuilt for one store or upserted for changed products when the catalogue changes.
 * Loaded stores are kept under a budget (`maxStores`, CATALOG_MAX_STORES): past it the least
 * recently used store that no request is using is dropped with its cached pages, and rebuilt on
 * its next request. A change notice for a store that is not loaded has nothing to reindex: the
 * store reads fresh rows when it loads. `catalogChanged` is what code that writes the catalogue calls: it reindexes here
 * (searchable within milliseconds) and drops the store's cached pages while it tells the other
 * nodes through the change bus (Redis pub/sub when REDIS_URL is set).
 *
 * Work for one store is serialised (a rebuild never interleaves with an upsert of the same store);
 * a rebuild is built aside and swapped in whole, so a search never sees half a catalogue.
 *
 * Pools (issue 32, ../pools/pools.ts): with `home` (the stores of this node's pool), the budget
 * `maxStores` counts home stores only; another pool's store asked for here (the proxy's failover, a
 * request sent straight to this node) is still built and served, but counted (`stats.foreignBuilds`),
 * logged, and kept under a small budget of its own (`maxForeignStores`, default 2), dropped first, so
 * foreign traffic never pushes the pool's own catalogues out.
 */
import type { Kysely } from 'kysely';
import type { CatalogAttribute, Store } from '@verdant/domain';
import { createAttributeIndex, type SearchIndex } from '@verdant/search';
import { loadCmsDocuments } from '../cms/documents.ts';
import type { Database } from '../db/schema.ts';
import { affectedProductIds } from './catalog-rows.ts';
import { inProcessBus, type CatalogChange, type ChangeBus } from './change-bus.ts';
import { loadDocuments, type BuildOptions } from './documents.ts';
import { REVIEWS_SECTION } from '../reviews/section.ts';
import { sectionValue } from '../store-settings/read.ts';
import { sellableRecords } from './sellables.ts';
import { stockInfo, withStock } from './stock-patch.ts';
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
  /** How many stores may be loaded at once (least recently used dropped beyond); default unlimited. */
  maxStores?: number;
  /** The stores of this node's pool (POOLS_FILE + NODE_POOL); unset: every store is this node's. */
  home?: readonly number[];
  /** How many other pools' stores may stay loaded at once (default 2); only with `home`. */
  maxForeignStores?: number;
  /** Stores built in the background after start (CATALOG_WARM_STORES); `start()` does not wait for them. */
  warm?: readonly number[];
  /**
   * How many first-need store builds may run at once (default 2); the others wait their turn. A build
   * is mostly CPU on this one thread, so more at once finishes none sooner, but each holds its rows
   * and half-built indices: under a burst of first requests to many stores (the 4/20 run), unbounded
   * builds grew a node's heap past its limit. Two let one build read rows while the other indexes.
   */
  maxConcurrentBuilds?: number;
}

export class CatalogIndexManager {
  /** Loaded stores, least recently used first (a use moves a store to the end). */
  private readonly catalogs = new Map<number, StoreCatalog>();
  /** Stores being built for `ensure`: concurrent callers share the one build. */
  private readonly loading = new Map<number, Promise<StoreCatalog>>();
  /** Per store: how many requests are using its catalogue now (never evicted while > 0). */
  private readonly pins = new Map<number, number>();
  private readonly attributes: SearchIndex<CatalogAttribute> = createAttributeIndex();
  private attributeDocs: CatalogAttribute[] = [];
  private readonly queues = new Map<number, Promise<unknown>>();
  /**
   * Per store: product ids waiting for the next incremental reindex, whether every change in the
   * batch was stock-only (then the stock rows alone are read, ./stock-patch.ts), and that reindex.
   */
  private readonly pendingProducts = new Map<number, { ids: Set<number>; stockOnly: boolean; run: Promise<void> }>();
  /**
   * How many incremental reindexes ran (coalescing shows as fewer runs than changes), and how many of
   * them were stock-only patches read from the stock rows alone.
   */
  readonly stats = { productReindexes: 0, stockPatches: 0, storeBuilds: 0, evictions: 0, peakConcurrentBuilds: 0, foreignBuilds: 0 };
  private readonly bus: ChangeBus;
  private readonly storeIds: Set<number>;
  private readonly maxStores: number;
  private readonly home: ReadonlySet<number> | null;
  private readonly maxForeign: number;
  private readonly maxBuilds: number;
  private activeBuilds = 0;
  private readonly buildWaiters: (() => void)[] = [];
  private closed = false;

  constructor(private readonly opts: IndexManagerOptions) {
    this.bus = opts.bus ?? inProcessBus();
    this.storeIds = new Set(opts.stores.map((s) => s.storeId));
    this.maxStores = opts.maxStores !== undefined && opts.maxStores > 0 ? opts.maxStores : Infinity;
    this.home = opts.home ? new Set(opts.home) : null;
    this.maxForeign = opts.maxForeignStores !== undefined && opts.maxForeignStores >= 0 ? opts.maxForeignStores : 2;
    this.maxBuilds = opts.maxConcurrentBuilds !== undefined && opts.maxConcurrentBuilds > 0 ? opts.maxConcurrentBuilds : 2;
  }

  /** Run a first-need build when one of `maxBuilds` slots is free (a finished build hands its slot to the next in line). */
  private async withBuildSlot<T>(task: () => Promise<T>): Promise<T> {
    if (this.activeBuilds < this.maxBuilds) this.activeBuilds += 1;
    else await new Promise<void>((resolve) => this.buildWaiters.push(resolve));
    this.stats.peakConcurrentBuilds = Math.max(this.stats.peakConcurrentBuilds, this.activeBuilds);
    try {
      return await task();
    } finally {
      const next = this.buildWaiters.shift();
      if (next) next();
      else this.activeBuilds -= 1;
    }
  }

  private buildOptions(): BuildOptions {
    const groups = new Map(this.opts.stores.map((s) => [s.storeId, s.tax.userGroupId]));
    const stores = new Map(this.opts.stores.map((s) => [s.storeId, s]));
    return {
      customerGroupFor: (id) => groups.get(id) ?? 0,
      now: (this.opts.clock ?? (() => new Date()))(),
      // Issue 30: the saved setting, else the stores file's, else shown (settings section `reviews`).
      reviewsShown: (id, saved) => {
        const store = stores.get(id);
        return store ? sectionValue(store, REVIEWS_SECTION, saved).value.enabled : true;
      },
    };
  }

  /**
   * Listen for notices; build nothing (lazy stores). Resolves once the subscription is confirmed:
   * every later build starts after it, so a change committed after a build read its rows is always
   * heard (a notice that arrives during a build is queued after it on the store's queue). Stores of
   * `warm` are then built one by one in the background.
   */
  async start(): Promise<void> {
    const resync = () => void this.rebuildAll().catch((error: Error) => this.opts.log?.warn({ err: error }, 'catalogue resync failed'));
    await this.bus.subscribe((change) => this.applyNotice(change), resync);
    const warm = (this.opts.warm ?? []).filter((id) => this.storeIds.has(id));
    if (warm.length > 0)
      void (async () => {
        for (const id of warm) {
          if (this.closed) return;
          await this.ensure(id).catch((error: Error) => this.opts.log?.warn({ err: error, storeId: id }, 'warming a catalogue failed'));
        }
      })();
  }

  /**
   * The store's catalogue, built first if it is not loaded (single flight). Throws for a store this
   * deployment does not have. Holding the result is safe even if the store is evicted later.
   */
  ensure(storeId: number): Promise<StoreCatalog> {
    const loaded = this.catalogs.get(storeId);
    if (loaded) {
      this.touch(storeId, loaded);
      return Promise.resolve(loaded);
    }
    const inFlight = this.loading.get(storeId);
    if (inFlight) return inFlight;
    if (!this.storeIds.has(storeId)) return Promise.reject(new Error(`Unknown store ${storeId}`));
    const build = this.serial(storeId, async () => {
      // A rebuild queued before us (a notice, a resync) may have loaded it already.
      if (!this.catalogs.has(storeId))
        await this.withBuildSlot(async () => {
          this.stats.storeBuilds += 1;
          if (this.isForeign(storeId)) {
            this.stats.foreignBuilds += 1;
            this.opts.log?.info?.({ storeId }, "building another pool's store catalogue here (foreign store)");
          }
          await this.rebuild([storeId]);
        });
      return this.catalogs.get(storeId)!;
    }).finally(() => {
      if (this.loading.get(storeId) === build) this.loading.delete(storeId);
    });
    this.loading.set(storeId, build);
    void build.then(
      () => this.evict(),
      () => undefined,
    );
    return build;
  }

  /**
   * `ensure`, and keep the store from eviction until `release` is called: a request holds its store
   * from its start to its response, so `catalog(id)` cannot fail in between (app.ts).
   */
  async acquire(storeId: number): Promise<() => void> {
    this.pins.set(storeId, (this.pins.get(storeId) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const n = (this.pins.get(storeId) ?? 1) - 1;
      if (n > 0) this.pins.set(storeId, n);
      else this.pins.delete(storeId);
      this.evict();
    };
    try {
      await this.ensure(storeId);
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  /** The stores whose catalogue is in memory now, least recently used first. */
  loadedStores(): number[] {
    return [...this.catalogs.keys()];
  }

  private touch(storeId: number, catalog: StoreCatalog): void {
    this.catalogs.delete(storeId);
    this.catalogs.set(storeId, catalog);
  }

  /** True for a store of another pool than this node's (never without pools). */
  isForeign(storeId: number): boolean {
    return this.home !== null && this.storeIds.has(storeId) && !this.home.has(storeId);
  }

  /**
   * Drop least recently used stores no request holds until within the budget (with their cached
   * pages): with pools, other pools' stores beyond their own budget first, then home stores beyond
   * `maxStores`.
   */
  private evict(): void {
    let foreign = 0;
    for (const id of this.catalogs.keys()) if (this.isForeign(id)) foreign += 1;
    let home = this.catalogs.size - foreign;
    if (home <= this.maxStores && foreign <= this.maxForeign) return;
    // Never the most recently used store (the one just asked for): its asker reads it next.
    const candidates = [...this.catalogs.keys()].slice(0, -1);
    for (const pass of ['foreign', 'home'] as const) {
      for (const storeId of candidates) {
        const isForeign = this.isForeign(storeId);
        if ((pass === 'foreign') !== isForeign) continue;
        if (isForeign ? foreign <= this.maxForeign : home <= this.maxStores) break;
        if ((this.pins.get(storeId) ?? 0) > 0 || !this.catalogs.has(storeId)) continue;
        this.catalogs.delete(storeId);
        if (isForeign) foreign -= 1;
        else home -= 1;
        this.stats.evictions += 1;
        this.opts.onChanged?.(storeId);
      }
    }
  }

  private applyNotice(change: CatalogChange): void {
    this.apply(change).catch((error: Error) => this.opts.log?.warn({ err: error, change }, 'catalogue notice failed'));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(this.queues.values());
    await this.bus.close();
  }

  /**
   * The store's loaded catalogue (synchronous: request handlers run after app.ts awaited
   * `acquire`). Throws for a store this deployment does not have, or one not loaded.
   */
  catalog(storeId: number): StoreCatalog {
    const catalog = this.catalogs.get(storeId);
    if (!catalog) {
      if (!this.storeIds.has(storeId)) throw new Error(`No catalogue index for store ${storeId}`);
      throw new Error(`The catalogue of store ${storeId} is not loaded (await ensure(${storeId}) first)`);
    }
    this.touch(storeId, catalog);
    return catalog;
  }

  /** The attribute documents (global: shared by every store). */
  allAttributes(): readonly CatalogAttribute[] {
    return this.attributeDocs;
  }

  /** The store's catalogue if it is loaded (callers fall back to the database, cart/catalog-source.ts). */
  find(storeId: number): StoreCatalog | undefined {
    return this.catalogs.get(storeId);
  }

  /**
   * A change made through the API: reindex here, drop cached pages, tell the other nodes. `stockOnly`
   * says that only the `stock` rows of `productIds` changed (an order, a release, a no-show): every
   * node then reads those rows alone instead of the products' every table (./stock-patch.ts).
   */
  async catalogChanged(storeId: number, productIds?: readonly number[], options: { stockOnly?: boolean } = {}): Promise<void> {
    if (!this.storeIds.has(storeId)) throw new Error(`Unknown store ${storeId}`);
    const change: CatalogChange = productIds
      ? { storeId, productIds: [...productIds], ...(options.stockOnly ? { stockOnly: true as const } : {}) }
      : { storeId };
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

  /** Rebuild a loaded (or loading) store; a store not loaded has nothing to rebuild. */
  async reindexStore(storeId: number): Promise<void> {
    await this.serial(storeId, async () => {
      if (this.catalogs.has(storeId)) await this.rebuild([storeId]);
    });
  }

  /**
   * Upsert the documents that `ids` change (parents, kits embedding them); drop deleted ones.
   * Changes that arrive while the store's index is busy are coalesced: they wait for one reindex
   * of all their products together (under a burst of orders, one reload per batch instead of one
   * per order). Each caller's promise settles after a reindex that includes its products.
   */
  async reindexProducts(storeId: number, ids: readonly number[], stockOnly = false): Promise<void> {
    let batch = this.pendingProducts.get(storeId);
    if (!batch) {
      const created = { ids: new Set<number>(), stockOnly: true, run: Promise.resolve() };
      created.run = this.serial(storeId, () => {
        // From here on, new changes start the next batch.
        this.pendingProducts.delete(storeId);
        return this.reindexProductsNow(storeId, [...created.ids], created.stockOnly);
      });
      batch = created;
      this.pendingProducts.set(storeId, batch);
    }
    for (const id of ids) batch.ids.add(id);
    // One change that is more than stock makes the whole batch read every table.
    batch.stockOnly &&= stockOnly;
    await batch.run;
  }

  private async reindexProductsNow(storeId: number, ids: readonly number[], stockOnly: boolean): Promise<void> {
    // Evicted while this waited: the next load reads fresh rows.
    if (!this.catalogs.has(storeId)) return;
    this.stats.productReindexes += 1;
    if (stockOnly && (await this.patchStock(storeId, ids))) {
      this.stats.stockPatches += 1;
      return;
    }
    const affected = await affectedProductIds(this.opts.db, storeId, ids);
    if (affected.length > MAX_INCREMENTAL) return this.rebuild([storeId]);
    const { stores, rows } = await loadDocuments(this.opts.db, { storeId, productIds: affected }, this.buildOptions());
    const docs = stores[0]?.products ?? [];
    const found = new Set(docs.map((d) => d.id));
    // The store may have been evicted during the reads (no request held it): nothing to update.
    this.catalogs.get(storeId)?.applyProducts(
      docs,
      affected.filter((id) => !found.has(id)),
      sellableRecords(rows).get(storeId) ?? [],
    );
  }

  /**
   * A stock-only change from the stock rows alone (one query): the documents that carry those
   * products' stock are copied with it (./stock-patch.ts). False, with nothing changed, when this
   * node does not hold one of the products (written but not yet announced): the caller reads every table.
   */
  private async patchStock(storeId: number, ids: readonly number[]): Promise<boolean> {
    if (!this.catalogs.get(storeId)?.stockHolders(ids)) return false;
    const rows = await this.opts.db
      .selectFrom('stock')
      .select(['product_id', 'qty', 'is_in_stock', 'manage_stock', 'low_stock_threshold'])
      .where('product_id', 'in', [...ids])
      .execute();
    const byId = new Map(rows.map((r) => [r.product_id, r]));
    const stock = new Map(ids.map((id) => [id, stockInfo(byId.get(id))]));
    // The store may have been evicted during the read (no request held it): nothing to update.
    const catalog = this.catalogs.get(storeId);
    if (!catalog) return true;
    const { now } = this.buildOptions();
    // Asked again: the same catalogue, but what it holds now (the first ask only checked it holds them all).
    const holders = catalog.stockHolders(ids);
    if (!holders) return false;
    catalog.applyStock(holders.map((doc) => withStock(doc, stock, now)));
    return true;
  }

  private async apply(change: CatalogChange): Promise<void> {
    if (!this.storeIds.has(change.storeId)) {
      this.opts.log?.warn({ change }, 'catalogue notice for a store this node does not serve');
      return;
    }
    // Not loaded nor loading here: nothing to reindex (it reads fresh rows when it loads); its
    // cached pages, if any, are dropped all the same. A store being built queues the reindex after
    // the build (the build may have read rows older than the change).
    if (!this.catalogs.has(change.storeId) && !this.loading.has(change.storeId)) {
      this.opts.onChanged?.(change.storeId);
      return;
    }
    if (change.productIds && change.productIds.length > 0)
      await this.reindexProducts(change.storeId, change.productIds, change.stockOnly === true);
    else await this.reindexStore(change.storeId);
    this.opts.onChanged?.(change.storeId);
  }

  /** After a lost bus connection: rebuild the loaded (and loading) stores, one at a time. */
  private async rebuildAll(): Promise<void> {
    const ids = [...new Set([...this.catalogs.keys(), ...this.loading.keys()])];
    for (const id of ids) await this.reindexStore(id);
    for (const id of ids) this.opts.onChanged?.(id);
  }

  /** Read everything the stores' indices hold (a fixed number of queries) and swap them in. Called with one store (the peak is its rows). */
  private async rebuild(storeIds: readonly number[]): Promise<void> {
    const { db } = this.opts;
    const [documents, cms, taxRules, rewrites] = await Promise.all([
      loadDocuments(db, { storeIds }, this.buildOptions()),
      loadCmsDocuments(db, storeIds),
      // The stores' tax lines as `taxrule` documents (./tax-rules.ts).
      loadTaxRules(
        db,
        this.opts.stores.filter((s) => storeIds.includes(s.storeId)),
      ),
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
