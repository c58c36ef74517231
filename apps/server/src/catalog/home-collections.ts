/**
 * The four home lists (spec §2, §6, §7, §9): new collection, best sellers, specials and staff
 * picks, 15 each, newest first (created_at, then id, descending), for one store and licence type.
 *
 * A product qualifies when it is top-level, catalogue-visible (visibility 2 or 4), enabled
 * (status 0 or 1), in stock (for configurables: the parent's stock says so and at least one child
 * is enabled and in stock), labelled for the shopper's licence type or both, and not in a category
 * the store's compliance settings hide (or a descendant of one). Cards show the cheapest available
 * child for configurables, the sum of available members for grouped products and the default
 * selection for bundles (spec §4).
 *
 * Five queries at most, whatever the catalogue size: hidden categories, candidates, prices, brand
 * labels and, when kits are among the candidates, their members. No caching here.
 */
import type { Kysely } from 'kysely';
import {
  HOME_COLLECTION_SIZE,
  finalPriceCents,
  isSpecialPriceActive,
  type HomeCollections,
  type LicenseType,
  type ProductCard,
  type SpecialPriceInput,
  type Store,
} from '@verdant/domain';
import type { AttributeOption, Database } from '../db/schema.ts';

/** Visibility values a catalogue listing shows (spec: 2 catalogue, 4 catalogue and search). */
export const CATALOG_VISIBILITY = [2, 4];
/** Enabled statuses (spec §7 status filter 0, 1; 2+ is unavailable). */
export const ENABLED_STATUS = [0, 1];
/** Ids per IN list, well below both dialects' parameter limits. */
const CHUNK = 500;

/** What a card needs from the candidates query. */
// prettier-ignore
const CARD_COLUMNS = [
  'p.id', 'p.sku', 'p.type_id', 'p.name', 'p.slug', 'p.url_path', 'p.brand_id', 'p.image', 'p.strain_type',
  'p.thc_percent', 'p.cbd_percent', 'p.license_type', 'p.staff_pick', 'p.best_seller', 'p.is_new', 'p.updated_at',
] as const;

/** A kit member link with its bundle option and the member's availability. */
// prettier-ignore
const LINK_COLUMNS = [
  'l.product_id', 'l.id as link_id', 'l.link_type', 'l.qty', 'l.position', 'l.is_default', 'l.bundle_option_id',
  'bo.position as option_position', 'bo.required', 'm.status', 'ms.is_in_stock',
] as const;

/** A price row in the shape the domain's special-price rules read. */
// prettier-ignore
const PRICE_COLUMNS = <T extends 'pp' | 'mp'>(t: T) => [
  `${t}.customer_group_id`, `${t}.price_cents as price`, `${t}.special_price_cents as special_price`,
  `${t}.special_from_date`, `${t}.special_to_date`,
] as const;

interface Priced {
  price: number;
  final: number;
  sale: boolean;
}

export async function homeCollections(
  db: Kysely<Database>,
  store: Store,
  licenseType: LicenseType,
  now: Date = new Date(),
): Promise<HomeCollections> {
  const storeId = store.storeId;
  const pinned = store.dispensarySettings.best_sellers;
  const groups = [...new Set([0, store.tax.userGroupId])];
  const hidden = await hiddenCategoryIds(db, store);
  const nowIso = now.toISOString();

  const query = db
    .selectFrom('products as p')
    .innerJoin('stock as s', 's.product_id', 'p.id')
    .select(CARD_COLUMNS)
    .where('p.store_id', '=', storeId)
    .where('p.parent_id', 'is', null)
    .where('p.visibility', 'in', CATALOG_VISIBILITY)
    .where('p.status', 'in', ENABLED_STATUS)
    .where('p.license_type', 'in', [licenseType, 'both'])
    .where('s.is_in_stock', '=', 1)
    .where((eb) =>
      eb.or([
        eb('p.type_id', '!=', 'configurable'),
        eb.exists(
          eb
            .selectFrom('products as c')
            .innerJoin('stock as cs', 'cs.product_id', 'c.id')
            .select('c.id')
            .whereRef('c.parent_id', '=', 'p.id')
            .where('c.status', 'in', ENABLED_STATUS)
            .where('cs.is_in_stock', '=', 1),
        ),
      ]),
    )
    .where((eb) => {
      // Only products some list could show. The special-price test here is a superset (dates as
      // text, a bare `to` date compared by day); isSpecialPriceActive decides exactly below.
      const special = eb
        .selectFrom('product_prices as sp')
        .select('sp.product_id')
        .where('sp.customer_group_id', 'in', groups)
        .where('sp.special_price_cents', 'is not', null)
        .whereRef('sp.special_price_cents', '<', 'sp.price_cents')
        .where((w) => w.or([w('sp.special_from_date', 'is', null), w('sp.special_from_date', '<=', nowIso)]))
        .where((w) => w.or([w('sp.special_to_date', 'is', null), w('sp.special_to_date', '>=', nowIso.slice(0, 10))]))
        .where((w) =>
          w.or([
            w('sp.product_id', '=', w.ref('p.id')),
            w(
              'sp.product_id',
              'in',
              w.selectFrom('products as sc').select('sc.id').whereRef('sc.parent_id', '=', 'p.id'),
            ),
          ]),
        );
      return eb.or([
        eb('p.is_new', '=', 1),
        eb('p.best_seller', '=', 1),
        eb('p.staff_pick', '=', 1),
        // Kits are priced from their members, which may be on special.
        eb('p.type_id', 'in', ['grouped', 'bundle']),
        eb.exists(special),
        ...(pinned.length > 0 ? [eb('p.sku', 'in', pinned)] : []),
      ]);
    })
    .$if(hidden.length > 0, (qb) =>
      qb.where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('product_categories as pc')
              .select('pc.product_id')
              .whereRef('pc.product_id', '=', 'p.id')
              .where('pc.category_id', 'in', hidden),
          ),
        ),
      ),
    );
  const candidates = await query.orderBy('p.created_at', 'desc').orderBy('p.id', 'desc').execute();

  const kits = candidates.filter((c) => c.type_id === 'grouped' || c.type_id === 'bundle').map((c) => c.id);
  const [prices, brands, kitPrices] = await Promise.all([
    ownAndChildPrices(db, storeId, candidates, groups, now),
    brandLabels(db),
    kitPricing(db, storeId, kits, groups, now),
  ]);

  const cards: ProductCard[] = [];
  for (const c of candidates) {
    const priced = c.type_id === 'grouped' || c.type_id === 'bundle' ? kitPrices.get(c.id) : prices.get(c.id);
    if (!priced) continue; // no price, or no available variant / member
    cards.push({
      id: c.id,
      sku: c.sku,
      type_id: c.type_id,
      name: c.name,
      slug: c.slug,
      url_path: c.url_path,
      brand: c.brand_id == null ? null : (brands.get(String(c.brand_id)) ?? null),
      image: c.image && c.image !== 'no_selection' ? c.image : null,
      strain_type: c.strain_type,
      thc_percent: c.thc_percent,
      cbd_percent: c.cbd_percent,
      license_type: c.license_type,
      price: priced.price,
      final_price: priced.final,
      price_from: c.type_id === 'configurable' || c.type_id === 'bundle',
      sale: priced.sale,
      new: c.is_new === 1,
      staff_pick: c.staff_pick === 1,
      best_seller: c.best_seller === 1,
      updated_at: c.updated_at,
    });
  }

  const first = (list: ProductCard[]) => list.slice(0, HOME_COLLECTION_SIZE);
  const pinnedCards = pinned.flatMap((sku) => cards.filter((c) => c.sku === sku));
  return {
    new_collection: first(cards.filter((c) => c.new)),
    bestsellers: first([...pinnedCards, ...cards.filter((c) => c.best_seller && !pinned.includes(c.sku))]),
    specials: first(cards.filter((c) => c.sale)),
    staff_picks: first(cards.filter((c) => c.staff_pick)),
  };
}

/**
 * Ids of the categories the store's compliance settings hide (by url_key) and all their
 * descendants, found by the materialised `path` (`2/7/14` lies under `2/7`).
 */
export async function hiddenCategoryIds(db: Kysely<Database>, store: Store): Promise<number[]> {
  const keys = store.dispensarySettings.compliance_settings?.hidden_categories ?? [];
  if (keys.length === 0) return [];
  const categories = await db
    .selectFrom('categories')
    .select(['id', 'path', 'url_key'])
    .where('store_id', '=', store.storeId)
    .execute();
  const roots = categories.filter((c) => keys.includes(c.url_key)).map((c) => c.path);
  return categories.filter((c) => roots.some((r) => c.path === r || c.path.startsWith(`${r}/`))).map((c) => c.id);
}

/** The price of one sellable product from its group rows: the shopper's group wins over group 0. */
function pick<T extends { customer_group_id: number }>(rows: T[]): T | undefined {
  return rows.reduce<T | undefined>(
    (best, r) => (!best || r.customer_group_id > best.customer_group_id ? r : best),
    undefined,
  );
}

function priced(row: SpecialPriceInput, now: Date): Priced {
  return { price: row.price, final: finalPriceCents(row, now), sale: isSpecialPriceActive(row, now) };
}

/** Card prices of simple products (their own row) and configurables (cheapest available child). */
async function ownAndChildPrices(
  db: Kysely<Database>,
  storeId: number,
  candidates: { id: number; type_id: string }[],
  groups: number[],
  now: Date,
): Promise<Map<number, Priced>> {
  const configurable = candidates.filter((c) => c.type_id === 'configurable').map((c) => c.id);
  const simple = candidates
    .filter((c) => c.type_id !== 'configurable' && c.type_id !== 'grouped' && c.type_id !== 'bundle')
    .map((c) => c.id);
  const rows = await chunked([...simple, ...configurable], (ids) =>
    db
      .selectFrom('products as c')
      .innerJoin('product_prices as pp', 'pp.product_id', 'c.id')
      .innerJoin('stock as cs', 'cs.product_id', 'c.id')
      .select(['c.id', 'c.parent_id', ...PRICE_COLUMNS('pp')])
      .where('c.store_id', '=', storeId)
      .where('pp.customer_group_id', 'in', groups)
      .where((eb) =>
        eb.or([
          eb('c.id', 'in', ids),
          eb.and([eb('c.parent_id', 'in', ids), eb('c.status', 'in', ENABLED_STATUS), eb('cs.is_in_stock', '=', 1)]),
        ]),
      )
      .execute(),
  );
  const simpleIds = new Set(simple);
  const bySellable = groupBy(rows, (r) => r.id);
  const out = new Map<number, Priced>();
  for (const [id, group] of bySellable) {
    const row = pick(group);
    if (!row) continue;
    const p = priced(row, now);
    const owner = row.parent_id ?? id;
    if (row.parent_id == null && !simpleIds.has(id)) continue;
    const current = out.get(owner);
    // Configurables: the cheapest child by final price (then regular price); on sale if any child is.
    if (!current) out.set(owner, p);
    else {
      const better = p.final < current.final || (p.final === current.final && p.price < current.price);
      out.set(owner, { ...(better ? p : current), sale: current.sale || p.sale });
    }
  }
  return out;
}

/**
 * Grouped: the sum of its enabled, in-stock members at qty 1. Bundle: per option (by position) the
 * default available selection, else the first available, times its qty; a required option with no
 * available selection makes the bundle unavailable. Members must have status 1 (spec §5).
 */
async function kitPricing(
  db: Kysely<Database>,
  storeId: number,
  kitIds: number[],
  groups: number[],
  now: Date,
): Promise<Map<number, Priced>> {
  const rows = await chunked(kitIds, (ids) =>
    db
      .selectFrom('product_links as l')
      .innerJoin('products as m', (join) =>
        join.onRef('m.sku', '=', 'l.linked_product_sku').on('m.store_id', '=', storeId),
      )
      .innerJoin('stock as ms', 'ms.product_id', 'm.id')
      .innerJoin('product_prices as mp', 'mp.product_id', 'm.id')
      .leftJoin('bundle_options as bo', 'bo.option_id', 'l.bundle_option_id')
      .select([...LINK_COLUMNS, ...PRICE_COLUMNS('mp')])
      .where('l.product_id', 'in', ids)
      .where('l.link_type', 'in', ['associated', 'bundle'])
      .where('mp.customer_group_id', 'in', groups)
      .execute(),
  );
  const out = new Map<number, Priced>();
  for (const [kitId, kitRows] of groupBy(rows, (r) => r.product_id)) {
    const links = [...groupBy(kitRows, (r) => r.link_id).values()].map((g) => pick(g)!);
    const available = links.filter((l) => l.status === 1 && l.is_in_stock === 1);
    const chosen: { qty: number; p: Priced }[] = [];
    if (kitRows[0].link_type === 'associated') {
      for (const l of available) chosen.push({ qty: 1, p: priced(l, now) });
    } else {
      const options = groupBy(links, (l) => l.bundle_option_id ?? 0);
      const order = [...options.values()].sort((a, b) => (a[0].option_position ?? 0) - (b[0].option_position ?? 0));
      let complete = true;
      for (const option of order) {
        const usable = option.filter((l) => available.includes(l)).sort((a, b) => a.position - b.position);
        const selection = usable.find((l) => l.is_default === 1) ?? usable[0];
        if (!selection) {
          if (option[0].required !== 0) complete = false;
          continue;
        }
        chosen.push({ qty: selection.qty > 0 ? selection.qty : 1, p: priced(selection, now) });
      }
      if (!complete) continue;
    }
    if (chosen.length === 0) continue;
    const price = chosen.reduce((sum, c) => sum + Math.round(c.p.price * c.qty), 0);
    const final = chosen.reduce((sum, c) => sum + Math.round(c.p.final * c.qty), 0);
    out.set(kitId, { price, final, sale: final < price });
  }
  return out;
}

/** Brand option value → label, from the brand_id attribute. */
async function brandLabels(db: Kysely<Database>): Promise<Map<string, string>> {
  const row = await db
    .selectFrom('attributes')
    .select('options')
    .where('attribute_code', '=', 'brand_id')
    .executeTakeFirst();
  const options = row ? (JSON.parse(row.options) as AttributeOption[]) : [];
  return new Map(options.map((o) => [String(o.value), o.label]));
}

async function chunked<T>(ids: number[], run: (ids: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await run(ids.slice(i, i + CHUNK))));
  return out;
}

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = map.get(k);
    if (list) list.push(r);
    else map.set(k, [r]);
  }
  return map;
}
