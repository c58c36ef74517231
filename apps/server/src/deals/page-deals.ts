/**
 * The deals the storefront's pages show (issue 28 "Shown to the shopper"): for products of the
 * in-memory catalogue (never SQL per page), the deal view of each sellable item (packages/domain
 * deals/shopper-view.ts) at the price the cart charges a guest for one unit (chosenUnitPrice: special,
 * weight price and the store's default group), with what the engine knows of it read from the
 * catalogue document the way deals/facts.ts reads it from the rows (categories, brand, kind from the
 * top category, strain, size, tags, measures).
 *
 * Browser-safe: the offline services (catalog/offline-services.ts) run it on the snapshot, whose deals
 * and display setting come with it, so an offline page shows what the server's would.
 */
import {
  availableChildren,
  chosenUnitPrice,
  dealDisplayPresetFor,
  dealDisplayTitle,
  dealFloorOf,
  evaluateDeals,
  nudgeText,
  isSizeId,
  liveDealsForPages,
  productDealView,
  sizeWeightGrams,
  type CatalogCategory,
  type CatalogProduct,
  type ConfigurableChild,
  type Deal,
  type DealContext,
  type DealDisplaySettings,
  type DealFloorSettings,
  type DealProductFacts,
  type LicenseType,
  type ProductDealView,
  type Store,
  type TaxProductKind,
  isCannabisType,
  taxKindOf,
} from '@verdant/domain';
import type { CartDealsEstimate, PageDeals } from '@verdant/web/context';
import { kindOfTopCategory } from './kinds.ts';
import { countDealEvaluation } from '../metrics/deal-evaluations.ts';

/** A store's deals as the pages need them: records of the active deals, their redemptions (budgets) and the display setting. */
export interface PageDealsSource {
  records: readonly Deal[];
  /** Orders holding a redemption, by deal code (a spent budget is not shown). */
  redeemed: Readonly<Record<string, number>>;
  display: DealDisplaySettings;
  /** The store's setting `deal-floor` (absent in a snapshot of an older server: one cent). */
  floor?: DealFloorSettings;
}

/** The answer's shape is the storefront's contract (apps/web/app/lib/context.ts). */
export type { PageDeals };

export interface CatalogLookup {
  category(id: number): CatalogCategory | undefined;
  allCategories(): Iterable<CatalogCategory>;
}

/** The url key of a product's top category (its first category's path: "2/3/11" → 3), as the server's facts read it. */
function topCategoryUrlKey(product: CatalogProduct, catalog: Pick<CatalogLookup, 'category'>): string | null {
  const first = product.category_ids.length ? catalog.category(product.category_ids[0]) : undefined;
  const topId = first ? Number(first.path.split('/')[1]) : NaN;
  return Number.isFinite(topId) ? (catalog.category(topId)?.url_key ?? null) : null;
}

/** What the engine knows of a catalogue item (a child takes its parent's categories, brand, tags). */
export function dealFactsOf(product: CatalogProduct, child: ConfigurableChild | null, catalog: Pick<CatalogLookup, 'category'>): DealProductFacts {
  const kind = kindOfTopCategory(topCategoryUrlKey(product, catalog));
  const size = child?.size ?? product.size ?? null;
  const measures: DealProductFacts['measures'] = {};
  if (kind === 'flower' && isSizeId(size)) {
    measures.flower_g = sizeWeightGrams(size);
    measures.flower_equivalent_g = sizeWeightGrams(size);
  } else if (product.unit_weight_grams_equivelent != null && product.unit_weight_grams_equivelent > 0) {
    measures.flower_equivalent_g = product.unit_weight_grams_equivelent;
  }
  return {
    sku: child?.sku ?? product.sku,
    categoryIds: product.category_ids,
    brandId: product.brand_id,
    kind,
    strainType: product.strain_type,
    size,
    tags: product.discovery_tags,
    costCents: null,
    measures,
  };
}

/** The context a page judges deals in: now, the store's zone, a guest of the page's licence, the budgets spent. */
export function pageDealContext(store: Store, licence: LicenseType, source: PageDealsSource, catalog: Pick<CatalogLookup, 'allCategories'>, now: Date): DealContext {
  const categoryParents: Record<number, number | null> = {};
  for (const c of catalog.allCategories()) categoryParents[c.id] = c.parent_id;
  const usage = Object.fromEntries(Object.entries(source.redeemed).map(([code, n]) => [code, { totalRedemptions: n }]));
  return {
    now,
    timeZone: store.dispensarySettings.place_info.timezone || 'UTC',
    customer: { licence, previousOrders: null },
    usage,
    categoryParents,
  };
}

/**
 * Deal views for the given products. A configurable gets one per available size and, under its own
 * sku, the card's: the words of all its sizes and the lowest price after a deal ("from").
 */
export function pageDeals(store: Store, licence: LicenseType, source: PageDealsSource | null, catalog: CatalogLookup, products: readonly CatalogProduct[], now: Date): PageDeals {
  const preset = dealDisplayPresetFor(source?.display, store.dispensarySettings.place_info.address.region_code, licence);
  const bySku: Record<string, ProductDealView> = {};
  if (!source || source.records.length === 0 || products.length === 0) return { display: preset.id, bySku };
  const ctx = pageDealContext(store, licence, source, catalog, now);
  const live = liveDealsForPages(source.records, ctx);
  if (live.length === 0) return { display: preset.id, bySku };
  const group = store.tax.userGroupId;
  const floor = dealFloorOf(source.floor);
  for (const p of products) {
    if (p.type_id === 'configurable') {
      const views: ProductDealView[] = [];
      let cheapest: { price: number; base: number } | null = null;
      for (const child of availableChildren(p)) {
        const price = chosenUnitPrice(child, p, now, group).final_price;
        const view = productDealView(dealFactsOf(p, child, catalog), price, live, ctx, preset.rules, floor);
        if (!view) continue;
        bySku[child.sku] = view;
        views.push(view);
        if (view.priceCents != null && (cheapest == null || view.priceCents < cheapest.price)) cheapest = { price: view.priceCents, base: view.basePriceCents };
      }
      if (views.length > 0) {
        const ids = [...new Set(views.flatMap((v) => v.ids))].slice(0, 3);
        const words = [...new Set(views.flatMap((v) => v.words))].slice(0, 3);
        bySku[p.sku] = { priceCents: cheapest?.price ?? null, basePriceCents: cheapest?.base ?? views[0].basePriceCents, words, ids };
      }
    } else if (p.type_id === 'simple' || p.type_id === 'virtual') {
      const view = productDealView(dealFactsOf(p, null, catalog), chosenUnitPrice(p, null, now, group).final_price, live, ctx, preset.rules, floor);
      if (view) bySku[p.sku] = view;
    }
    // Kits (grouped, bundle) are judged by their members in the cart; their pages show no deal price.
  }
  return { display: preset.id, bySku };
}

/** Every deal live now for a guest of the licence, with its words (null: the store's rules allow the price only). */
export function liveDealWords(store: Store, licence: LicenseType, source: PageDealsSource | null, catalog: Pick<CatalogLookup, 'allCategories'>, now: Date): { id: string; words: string | null }[] {
  if (!source || source.records.length === 0) return [];
  const preset = dealDisplayPresetFor(source.display, store.dispensarySettings.place_info.address.region_code, licence);
  const live = liveDealsForPages(source.records, pageDealContext(store, licence, source, catalog, now));
  return live.map((d) => ({ id: d.id, words: dealDisplayTitle(d, preset.rules) }));
}

/** A line of a cart the browser estimates offline: its key, sku (a size's own sku), whole units and unit price. */
export interface EstimateLine {
  key: string;
  sku: string;
  qty: number;
  unitPrice: number;
}

/**
 * The deals of a cart estimated in the browser offline (issue 28): the engine on the snapshot's
 * products and deals, for a guest of the cart's licence at the browser's clock, each line at the price
 * the cart holds. The server runs the same engine on its own prices and the shopper's facts when the
 * order is sent; its answer counts (a first-order or birthday deal appears only then).
 */
export function estimateCartDeals(
  store: Store,
  licence: LicenseType,
  source: PageDealsSource | null,
  catalog: CatalogLookup & { productBySku(sku: string): CatalogProduct | undefined; parentOfChild(sku: string): CatalogProduct | undefined },
  lines: readonly EstimateLine[],
  now: Date,
): CartDealsEstimate {
  const none: CartDealsEstimate = { discounts: {}, nudges: [] };
  if (!source || source.records.length === 0 || lines.length === 0) return none;
  const preset = dealDisplayPresetFor(source.display, store.dispensarySettings.place_info.address.region_code, licence);
  const ctx = pageDealContext(store, licence, source, catalog, now);
  const engineLines = lines.flatMap((l) => {
    const parent = catalog.parentOfChild(l.sku);
    const child = parent?.configurable_children.find((c) => c.sku === l.sku) ?? null;
    const product = parent ?? catalog.productBySku(l.sku);
    if (!product || !Number.isInteger(l.qty) || l.qty <= 0) return [];
    return [{ id: l.key, product: dealFactsOf(product, child, catalog), unitPriceCents: l.unitPrice, qty: l.qty }];
  });
  if (engineLines.length === 0) return none;
  countDealEvaluation('page');
  const result = evaluateDeals(engineLines, source.records, ctx, dealFloorOf(source.floor));
  const byId = new Map(source.records.map((d) => [d.id, d]));
  return {
    discounts: Object.fromEntries(result.lines.filter((l) => l.discountCents > 0).map((l) => [l.lineId, l.discountCents])),
    nudges: result.nudges.flatMap((n) => {
      const deal = byId.get(n.dealId);
      const text = deal ? nudgeText(deal, n.missing, preset.rules) : null;
      return text ? [text] : [];
    }),
  };
}

/**
 * What the store's tax lines look at for each line of an offline cart (by line key): the product's
 * tax kind and THC percent, read as apps/server/src/tax/facts.ts reads them from the rows (kind from
 * canna_type and the top category; a size takes its parent's, which the documents carry). The
 * estimate then taxes with the same computation as the server (computeTotals with the store's lines).
 */
export function estimateTaxFacts(
  catalog: Pick<CatalogLookup, 'category'> & { productBySku(sku: string): CatalogProduct | undefined; parentOfChild(sku: string): CatalogProduct | undefined },
  lines: readonly EstimateLine[],
): Record<string, { kind: TaxProductKind | null; thcPercent: number | null }> {
  const out: Record<string, { kind: TaxProductKind | null; thcPercent: number | null }> = {};
  for (const l of lines) {
    const product = catalog.parentOfChild(l.sku) ?? catalog.productBySku(l.sku);
    if (!product) continue;
    out[l.key] = { kind: taxKindOf(topCategoryUrlKey(product, catalog), isCannabisType(product.canna_type)), thcPercent: product.thc_percent ?? null };
  }
  return out;
}
