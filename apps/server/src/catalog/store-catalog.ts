/**
 * One store's catalogue in memory: the search indices of every entity (spec §7: product,
 * category, attribute, taxrule, cms_page, cms_block) and the exact-key lookups that page loads
 * and the URL mapping need (sku, child sku, url_path, category url_path, CMS identifier, URL
 * rewrites). The lookups are derived from the same documents and rebuilt with them; rebuilding
 * them is linear in the catalogue and takes well under a millisecond for a store's menu.
 */
import type { CatalogAttribute, CatalogCategory, CatalogProduct } from '@verdant/domain';
import {
  createCategoryIndex,
  createCmsBlockIndex,
  createCmsPageIndex,
  createProductIndex,
  createTaxRuleIndex,
  type CmsBlockDocument,
  type CmsPageDocument,
  type SearchIndex,
  type TaxRuleDocument,
} from '@verdant/search';
import type { Row } from '../db/schema.ts';
import { isCatalogVisible, isEnabled } from './visibility.ts';
import { SellableIndex, type SellableRecord } from './sellables.ts';
import { TaxFactsMemo } from '../tax/facts.ts';
import { SortedLookup } from './sorted-lookup.ts';

export type UrlRewrite = Row<'url_rewrites'>;

export interface StoreContent {
  products: CatalogProduct[];
  categories: CatalogCategory[];
  cmsPages: CmsPageDocument[];
  cmsBlocks: CmsBlockDocument[];
  taxRules: TaxRuleDocument[];
  rewrites: UrlRewrite[];
  /** What the cart prices from (./sellables.ts); absent leaves the cart reading the database. */
  sellables?: SellableRecord[];
}

export interface StoreCatalogOptions {
  /** The store lists out-of-stock products (store.catalog.listOutOfStockProducts): they count in product_count. */
  listOutOfStock?: boolean;
}

export class StoreCatalog {
  readonly products = createProductIndex();
  readonly categories = createCategoryIndex();
  readonly cmsPages = createCmsPageIndex();
  readonly cmsBlocks = createCmsBlockIndex();
  readonly taxRules = createTaxRuleIndex();
  /** Products as pricing and the cart read them (no stock: that stays in the database). */
  readonly sellables: SellableIndex;
  /** The tax facts carts read of these products (../tax/facts.ts): dropped with every change but a stock patch. */
  readonly taxFacts = new TaxFactsMemo();
  /** Every product document in the order first added (a Map's order: an upsert keeps its place). */
  private productList: CatalogProduct[] = [];
  /**
   * What embeds what — (embedded product id, id of the document embedding it: a configurable's sizes,
   * a kit's members) pairs, by embedded id — for copying a stock change (./stock-patch.ts). Built on
   * first need; dropped by every change except a stock patch, which never changes it. Flat pairs in
   * one typed array: ~8 bytes a pair (a Map of arrays held ~110 KB for a 2,000-product store).
   */
  private embedders: Int32Array | null = null;
  // Sorted lookups, not Maps (./sorted-lookup.ts): a third of the memory; rebuilt after a change that re-keys (applyProducts).
  private byId = new SortedLookup<number, CatalogProduct>();
  private bySku = new SortedLookup<string, CatalogProduct>();
  private byChildSku = new SortedLookup<string, CatalogProduct>();
  private byUrlPath = new SortedLookup<string, CatalogProduct>();
  private categoryById = new Map<number, CatalogCategory>();
  private categoryByUrlPath = new Map<string, CatalogCategory>();
  private cmsByIdentifier = new Map<string, CmsPageDocument>();
  private rewrites = new Map<string, UrlRewrite>();
  /** Kept as loaded, for the offline snapshot (the indices answer queries, not listings). */
  private readonly cmsBlockDocs: CmsBlockDocument[];
  private readonly taxRuleDocs: TaxRuleDocument[];

  constructor(
    readonly storeId: number,
    /** Attributes are global (a brand means the same everywhere): one index shared by all stores. */
    readonly attributes: SearchIndex<CatalogAttribute>,
    content: StoreContent,
    private readonly options: StoreCatalogOptions = {},
  ) {
    this.products.replaceAll(content.products);
    this.categories.replaceAll(content.categories);
    this.cmsPages.replaceAll(content.cmsPages);
    this.cmsBlocks.replaceAll(content.cmsBlocks);
    this.taxRules.replaceAll(content.taxRules);
    this.sellables = new SellableIndex(content.sellables ?? []);
    this.productList = [...new Map(content.products.map((p) => [p.id, p])).values()];
    this.categoryById = new Map(content.categories.map((c) => [c.id, c]));
    this.categoryByUrlPath = new Map(content.categories.map((c) => [c.url_path, c]));
    this.cmsByIdentifier = new Map(content.cmsPages.map((p) => [p.identifier, p]));
    this.rewrites = new Map(content.rewrites.map((r) => [r.request_path, r]));
    this.cmsBlockDocs = [...content.cmsBlocks];
    this.taxRuleDocs = [...content.taxRules];
    this.relinkProducts();
  }

  /**
   * Each category's product_count, from the products in memory (issue 13): the products a listing
   * of it shows (enabled, catalogue-visible, in stock unless the store lists out-of-stock items) in
   * it or any descendant. The stored column is only what the demo seed wrote; menus come from imports,
   * the API and the console since, and stock sells out all day, so navigation (product_count > 0)
   * must follow the products as they are now: an empty store's categories are hidden, the first
   * import shows them, and a category whose last item sold out leaves the menu without a restart.
   */
  private recountCategories(): void {
    const counts = new Map<number, number>();
    const listOutOfStock = this.options.listOutOfStock === true;
    for (const p of this.productList) {
      if (!isEnabled(p) || !isCatalogVisible(p) || (!listOutOfStock && p.stock?.is_in_stock === false)) continue;
      const counted = new Set<number>();
      for (const id of p.category_ids) {
        const category = this.categoryById.get(id);
        if (!category) continue;
        counted.add(id);
        for (const ancestor of category.parent_ids) counted.add(ancestor);
      }
      for (const id of counted) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    let changed = false;
    for (const [id, c] of this.categoryById) {
      const n = counts.get(id) ?? 0;
      if (c.product_count === n) continue;
      const updated = { ...c, product_count: n };
      this.categoryById.set(id, updated);
      this.categoryByUrlPath.set(updated.url_path, updated);
      changed = true;
    }
    if (changed) this.categories.replaceAll([...this.categoryById.values()]);
  }

  /** Everything this catalogue was built from, as it stands now (products include later upserts). */
  content(): StoreContent {
    return {
      products: [...this.productList],
      categories: [...this.categoryById.values()],
      cmsPages: [...this.cmsByIdentifier.values()],
      cmsBlocks: this.cmsBlockDocs,
      taxRules: this.taxRuleDocs,
      rewrites: [...this.rewrites.values()],
    };
  }

  /**
   * Replace some products (upserted) and drop ids that no longer exist. Every order changes the stock
   * of what it sold, and each node reindexes those products (the 4/20 run: 50 a second): a change that
   * keeps every product's keys (id, sku, url_path, visibility, its children's skus) replaces the
   * documents where they are held, and recounts categories only when a product came into or left the
   * listings or moved category; anything else (a new, removed or re-keyed product) relinks the store.
   * Both leave the catalogue answering exactly as a fresh one over the same documents would
   * (store-changes.test.ts).
   */
  applyProducts(upserts: readonly CatalogProduct[], removedIds: readonly number[], sellables: readonly SellableRecord[] = []): void {
    this.applyChange(upserts, removedIds, sellables);
    this.embedders = null;
    this.taxFacts.clear();
  }

  private applyChange(upserts: readonly CatalogProduct[], removedIds: readonly number[], sellables: readonly SellableRecord[]): void {
    if (removedIds.length === 0 && this.replaceInPlace(upserts)) {
      this.sellables.apply(sellables, removedIds);
      return;
    }
    const docs = new Map(this.productList.map((p) => [p.id, p]));
    for (const id of removedIds) {
      this.products.remove(id);
      docs.delete(id);
    }
    for (const doc of upserts) {
      this.products.upsert(doc);
      docs.set(doc.id, doc);
    }
    this.productList = [...docs.values()];
    this.relinkProducts();
    this.sellables.apply(sellables, removedIds);
  }

  /**
   * The documents that carry the stock of any of `ids` — their own, their configurable parents', the
   * kits that embed them — by id; undefined when one of `ids` is not held here.
   */
  stockHolders(ids: readonly number[]): CatalogProduct[] | undefined {
    if (ids.some((id) => !this.byId.get(id))) return undefined;
    const pairs = (this.embedders ??= embeddedPairs(this.productList));
    const holders = new Set<number>(ids);
    for (const id of ids) {
      // The first pair of `id` (binary search over the embedded ids), then every pair of it.
      let lo = 0;
      let hi = pairs.length / 2;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (pairs[2 * mid] < id) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < pairs.length / 2 && pairs[2 * i] === id; i++) holders.add(pairs[2 * i + 1]);
    }
    return [...holders].sort((a, b) => a - b).map((id) => this.byId.get(id)!);
  }

  /**
   * Documents that differ from the held ones in stock only (and what follows from it: summary prices,
   * ./stock-patch.ts), replaced where they are held. What embeds what and the tax facts are unchanged, so `embedders` and `taxFacts` stay.
   */
  applyStock(upserts: readonly CatalogProduct[]): void {
    this.applyChange(upserts, [], []);
  }

  /** The keyed-alike path of applyProducts; false (nothing changed) when some upsert is new or re-keyed. */
  private replaceInPlace(upserts: readonly CatalogProduct[]): boolean {
    const olds: CatalogProduct[] = [];
    const seen = new Set<number>();
    for (const doc of upserts) {
      const old = this.byId.get(doc.id);
      if (!old || seen.has(doc.id) || !sameKeys(old, doc)) return false;
      seen.add(doc.id);
      olds.push(old);
    }
    let recount = false;
    for (const [i, doc] of upserts.entries()) {
      const old = olds[i];
      this.products.upsert(doc);
      this.productList[this.productList.indexOf(old)] = doc;
      this.byId.replace(doc.id, doc);
      // Held only where the old version was held (a lookup built whole keeps the last product with a key).
      if (this.bySku.get(doc.sku) === old) this.bySku.replace(doc.sku, doc);
      for (const c of doc.configurable_children) if (this.byChildSku.get(c.sku) === old) this.byChildSku.replace(c.sku, doc);
      if (this.byUrlPath.get(doc.url_path) === old) this.byUrlPath.replace(doc.url_path, doc);
      if (!this.sameCount(old, doc)) recount = true;
    }
    if (recount) this.recountCategories();
    return true;
  }

  /** Whether a product counts in its categories' product_count (recountCategories) the same in both versions. */
  private sameCount(a: CatalogProduct, b: CatalogProduct): boolean {
    const counted = (p: CatalogProduct) =>
      isEnabled(p) && isCatalogVisible(p) && (this.options.listOutOfStock === true || p.stock?.is_in_stock !== false);
    const ca = counted(a);
    if (ca !== counted(b)) return false;
    return !ca || sameList(a.category_ids, b.category_ids);
  }

  private relinkProducts(): void {
    const bySku = new Map<string, CatalogProduct>();
    const byChildSku = new Map<string, CatalogProduct>();
    const byUrlPath = new Map<string, CatalogProduct>();
    const byId = new Map<number, CatalogProduct>();
    for (const p of this.productList) {
      byId.set(p.id, p);
      bySku.set(p.sku, p);
      for (const c of p.configurable_children) byChildSku.set(c.sku, p);
      // Parents win a url_path shared with a child: the listed product is the one meant.
      if (!byUrlPath.has(p.url_path) || p.visibility !== 1) byUrlPath.set(p.url_path, p);
    }
    this.byId = new SortedLookup(byId, (p) => p.id);
    this.bySku = new SortedLookup(bySku, (p) => p.sku);
    this.byChildSku = new SortedLookup(byChildSku);
    this.byUrlPath = new SortedLookup(byUrlPath, (p) => p.url_path);
    this.recountCategories();
  }

  allProducts(): IterableIterator<CatalogProduct> {
    return this.productList.values();
  }

  allCategories(): IterableIterator<CatalogCategory> {
    return this.categoryById.values();
  }

  allCmsPages(): IterableIterator<CmsPageDocument> {
    return this.cmsByIdentifier.values();
  }

  productById(id: number): CatalogProduct | undefined {
    return this.byId.get(id);
  }

  productBySku(sku: string): CatalogProduct | undefined {
    return this.bySku.get(sku);
  }

  /** The configurable parent of a child sku (spec §7 lookup by configurable_children.sku). */
  parentOfChild(childSku: string): CatalogProduct | undefined {
    return this.byChildSku.get(childSku);
  }

  productByUrlPath(urlPath: string): CatalogProduct | undefined {
    return this.byUrlPath.get(urlPath);
  }

  categoryByIdOrNull(id: number): CatalogCategory | undefined {
    return this.categoryById.get(id);
  }

  categoryByPath(urlPath: string): CatalogCategory | undefined {
    return this.categoryByUrlPath.get(urlPath);
  }

  cmsPage(identifier: string): CmsPageDocument | undefined {
    return this.cmsByIdentifier.get(identifier);
  }

  cmsPageById(id: number | null): CmsPageDocument | undefined {
    return id == null ? undefined : this.cmsPages.get(id);
  }

  rewrite(requestPath: string): UrlRewrite | undefined {
    return this.rewrites.get(requestPath);
  }
}

/** (embedded id, embedding document's id) pairs of `products`, sorted by embedded id: StoreCatalog.stockHolders. */
function embeddedPairs(products: readonly CatalogProduct[]): Int32Array {
  const embedded: number[] = [];
  const by: number[] = [];
  for (const p of products) {
    const add = (id: number) => {
      embedded.push(id);
      by.push(p.id);
    };
    for (const c of p.configurable_children) add(c.id);
    for (const l of p.product_links) if (l.product) add(l.product.id);
    for (const o of p.bundle_options) for (const l of o.product_links) if (l.product) add(l.product.id);
  }
  const order = embedded.map((_, i) => i).sort((a, b) => embedded[a] - embedded[b]);
  const pairs = new Int32Array(order.length * 2);
  order.forEach((i, k) => {
    pairs[2 * k] = embedded[i];
    pairs[2 * k + 1] = by[i];
  });
  return pairs;
}

const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The keys the lookups and listings hold a product by are the same in both versions. */
function sameKeys(a: CatalogProduct, b: CatalogProduct): boolean {
  return (
    a.sku === b.sku &&
    a.url_path === b.url_path &&
    a.visibility === b.visibility &&
    sameList(
      a.configurable_children.map((c) => c.sku),
      b.configurable_children.map((c) => c.sku),
    )
  );
}
