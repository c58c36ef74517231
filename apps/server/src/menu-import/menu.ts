/**
 * A store's menu as file rows (read from the catalogue tables), the plan of an import against it,
 * and its application. The catalogue tables are the only store of a menu: a variant row is a
 * `simple`/`virtual` product (standalone, or the child of a `configurable` parent whose variants
 * are its sizes), with its `stock`, its group-0 `product_prices` row, its attribute values and,
 * on the product (parent or standalone), its category, brand and weight discounts.
 * Products of other shapes (bundles, grouped products, kits) and the members of kits (the
 * products their links name) are not menu rows: an import never sees, changes or removes them.
 */
import type { Kysely, Transaction } from 'kysely';
import { ROOT_CATEGORY_ID, SIZE_WEIGHTS_GRAMS, sizeLongLabel } from '@verdant/domain';
import type { Database } from '../db/schema.ts';
import { slugify } from '../seed/text.ts';
import { SIZE_ATTRIBUTE_ID } from '../seed/attributes.ts';
import { cellOf, COLUMN_NAMES, emptyRow, PRODUCT_COLUMNS, SIZE_GRAMS, type ColumnName, type MenuRow } from './format.ts';
import type { ParsedRow, Problem } from './parse.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A menu row and where it lives. */
export interface CurrentVariant {
  row: MenuRow;
  productId: number;
  parentId: number | null;
  /** Visibility of the listed product (the variant itself, or its parent). */
  visibility: number;
  /** The variant has an external id of its own (products.external_id); without one its row shows its sku. */
  ownExternalId: boolean;
}

export interface StoreMenu {
  storeId: number;
  /** The store's code (the `store` column of its rows). */
  storeCode: string;
  variants: CurrentVariant[];
  /** Configurable parents by key (external_id, else sku). */
  parents: Map<string, { id: number; sku: string }>;
  /** Category display path ("Flower > Indica") and url path, lower-cased → id. */
  categoryIds: Map<string, number>;
  categoryPath: Map<number, string>;
  /** Brand label (lower-cased) → option value, and back. */
  brandIds: Map<string, number>;
  brandNames: Map<number, string>;
  /** Every product of the store (menu rows or not), lower-cased sku → id, external_id → id. */
  skus: Map<string, number>;
  externalIds: Map<string, number>;
  /** Product url paths in use (a new product gets one that is not). */
  urlPaths: Set<string>;
}

/** Attribute values a menu row owns (product_attribute_values.attribute_code). */
const ATTR = {
  lineage: 'lineage',
  flavours: 'flavours',
  terpenes: 'terpenes',
  thcMg: 'thc_mg',
  cbdMg: 'cbd_mg',
  thcPiece: 'thc_mg_per_piece',
  cbdPiece: 'cbd_mg_per_piece',
  pieces: 'pieces',
  netWeight: 'net_weight',
  concentrate: 'concentrate_grams',
  images: 'image_files',
} as const;
const OWNED_ATTRIBUTES: string[] = Object.values(ATTR);

const num = (v: string | undefined): number | null => {
  if (v === undefined) return null;
  const n = Number(v.replace(/[^\d.]/g, ''));
  return v.trim() && Number.isFinite(n) ? n : null;
};
/** `tags` without those in `others` (case-insensitive), without repeats: how effects are told apart from flavours and terpenes. */
export function withoutTags(tags: readonly string[], others: readonly string[]): string[] {
  const drop = new Set(others.map((t) => t.toLowerCase()));
  const seen = new Set<string>();
  return tags.filter((t) => {
    const k = t.toLowerCase();
    if (drop.has(k) || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
const listOf = (v: string | undefined) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
const sizeOf = (grams: number | null) => {
  const hit = Object.entries(SIZE_WEIGHTS_GRAMS).find(([, g]) => g === grams);
  return hit ? Number(hit[0]) : null;
};

async function loadCategories(db: Db, storeId: number) {
  const cats = await db.selectFrom('categories').select(['id', 'parent_id', 'name', 'url_path']).where('store_id', '=', storeId).execute();
  const byId = new Map(cats.map((c) => [c.id, c]));
  const categoryIds = new Map<string, number>();
  const categoryPath = new Map<number, string>();
  for (const c of cats) {
    if (c.id === ROOT_CATEGORY_ID) continue;
    const names: string[] = [];
    for (let x: typeof c | undefined = c; x && x.id !== ROOT_CATEGORY_ID; x = x.parent_id === null ? undefined : byId.get(x.parent_id))
      names.unshift(x.name);
    const display = names.join(' > ');
    categoryPath.set(c.id, display);
    categoryIds.set(display.toLowerCase(), c.id);
    categoryIds.set(c.url_path.toLowerCase(), c.id);
    categoryIds.set(c.url_path.toLowerCase().replace(/^menu\//, ''), c.id);
  }
  return { categoryIds, categoryPath };
}

async function loadBrands(db: Db) {
  const attr = await db.selectFrom('attributes').select('options').where('attribute_code', '=', 'brand_id').executeTakeFirst();
  const options = attr ? (JSON.parse(attr.options) as { value: string; label: string }[]) : [];
  return {
    brandIds: new Map(options.map((o) => [o.label.toLowerCase(), Number(o.value)])),
    brandNames: new Map(options.map((o) => [Number(o.value), o.label])),
  };
}

/** The store's menu rows, as an export writes them. */
export async function readStoreMenu(db: Db, storeId: number): Promise<StoreMenu> {
  const { categoryIds, categoryPath } = await loadCategories(db, storeId);
  const { brandIds, brandNames } = await loadBrands(db);
  const products = await db.selectFrom('products').selectAll().where('store_id', '=', storeId).orderBy('id').execute();
  const storeCode = (await db.selectFrom('stores').select('code').where('id', '=', storeId).executeTakeFirst())?.code ?? String(storeId);
  const byId = new Map(products.map((p) => [p.id, p]));
  const parents = new Map<string, { id: number; sku: string }>();
  for (const p of products) if (p.type_id === 'configurable') parents.set(p.external_id ?? p.sku, { id: p.id, sku: p.sku });
  // Members of kits (bundle selections, grouped items) belong to their kit, not to the menu.
  const kitMembers = new Set(
    (
      await db
        .selectFrom('product_links')
        .innerJoin('products', 'products.id', 'product_links.product_id')
        .select('product_links.linked_product_sku')
        .where('products.store_id', '=', storeId)
        .execute()
    ).map((l) => l.linked_product_sku),
  );
  const sellable = products.filter(
    (p) =>
      (p.type_id === 'simple' || p.type_id === 'virtual') &&
      (p.parent_id === null ? !kitMembers.has(p.sku) : byId.get(p.parent_id)?.type_id === 'configurable'),
  );
  const ids = products.map((p) => p.id);
  const attrs = new Map<number, Record<string, string>>();
  const stock = new Map<number, number>();
  const prices = new Map<
    number,
    {
      price_cents: number;
      medical_price_cents?: number | null;
      special_price_cents: number | null;
      special_from_date: string | null;
      special_to_date: string | null;
    }
  >();
  const discounts = new Map<number, { grams: number; priceCents: number }[]>();
  const cats = new Map<number, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const a of await db.selectFrom('product_attribute_values').selectAll().where('product_id', 'in', chunk).execute())
      (attrs.get(a.product_id) ?? attrs.set(a.product_id, {}).get(a.product_id)!)[a.attribute_code] = a.value;
    for (const s of await db.selectFrom('stock').select(['product_id', 'qty']).where('product_id', 'in', chunk).execute())
      stock.set(s.product_id, s.qty);
    for (const p of await db
      .selectFrom('product_prices')
      .selectAll()
      .where('product_id', 'in', chunk)
      .where('customer_group_id', '=', 0)
      .execute())
      prices.set(p.product_id, p);
    for (const d of await db.selectFrom('qty_discounts').selectAll().where('product_id', 'in', chunk).orderBy('qty_to_buy').execute())
      (discounts.get(d.product_id) ?? discounts.set(d.product_id, []).get(d.product_id)!).push({
        grams: d.qty_to_buy,
        priceCents: d.price_cents,
      });
    for (const c of await db
      .selectFrom('product_categories')
      .select(['product_id', 'category_id'])
      .where('product_id', 'in', chunk)
      .orderBy('category_id')
      .execute())
      cats.set(c.product_id, c.category_id);
  }
  const variants: CurrentVariant[] = sellable.map((v) => {
    const parent = v.parent_id === null ? null : byId.get(v.parent_id)!;
    const product = parent ?? v;
    const pa = attrs.get(product.id) ?? {};
    const va = attrs.get(v.id) ?? {};
    const price = prices.get(v.id);
    const weight = v.uom === 'g' ? (v.size != null ? (SIZE_WEIGHTS_GRAMS[v.size] ?? null) : null) : num(va[ATTR.netWeight]);
    const qty = stock.get(v.id) ?? 0;
    const [thc, thcUnit] =
      v.thc_percent != null
        ? [v.thc_percent, '%' as const]
        : va[ATTR.thcPiece]
          ? [num(va[ATTR.thcPiece]), 'mg_per_piece' as const]
          : va[ATTR.thcMg]
            ? [num(va[ATTR.thcMg]), 'mg' as const]
            : [null, null];
    const [cbd, cbdUnit] =
      v.cbd_percent != null
        ? [v.cbd_percent, '%' as const]
        : va[ATTR.cbdPiece]
          ? [num(va[ATTR.cbdPiece]), 'mg_per_piece' as const]
          : va[ATTR.cbdMg]
            ? [num(va[ATTR.cbdMg]), 'mg' as const]
            : [null, null];
    const disabled = parent ? v.status >= 3 || parent.visibility === 1 : v.visibility === 1;
    // discovery_tags holds effects, flavours and terpenes; the latter two are also kept apart, so
    // the effects are the other tags (all of them for a product that never came from a file).
    const flavours = listOf(pa[ATTR.flavours]);
    const terpenes = listOf(pa[ATTR.terpenes]);
    const effects = withoutTags(listOf(product.discovery_tags), [...flavours, ...terpenes]);
    const orderable = parent ? v.status <= 1 || v.status === 3 : v.status <= 1;
    const row: MenuRow = {
      store: storeCode,
      external_id: v.external_id ?? v.sku,
      sku: v.sku,
      parent_external_id: parent ? (parent.external_id ?? parent.sku) : null,
      parent_sku: parent ? parent.sku : null,
      name: product.name,
      brand: product.brand_id == null ? null : (brandNames.get(product.brand_id) ?? null),
      category: categoryPath.get(cats.get(product.id) ?? -1) ?? '',
      strain_type: product.strain_type,
      lineage: pa[ATTR.lineage] ?? null,
      unit: v.uom === 'g' ? 'g' : 'ea',
      weight_g: weight,
      price: price?.price_cents ?? 0,
      price_medical: price?.medical_price_cents ?? null,
      special_price: price?.special_price_cents ?? null,
      special_from: price?.special_from_date ?? null,
      special_to: price?.special_to_date ?? null,
      weight_discounts: discounts.get(product.id) ?? [],
      stock: v.uom === 'g' && weight ? Math.round(qty / weight) : Math.round(qty),
      orderable,
      license_type: product.license_type as MenuRow['license_type'],
      status: disabled ? 'disabled' : 'active',
      description: product.description,
      effects,
      flavours,
      terpenes,
      thc,
      thc_unit: thc == null ? null : thcUnit,
      cbd,
      cbd_unit: cbd == null ? null : cbdUnit,
      pieces: num(va[ATTR.pieces]),
      flower_equivalent_g: v.unit_weight_grams_equivelent,
      concentrate_g: num(va[ATTR.concentrate]),
      batch: v.batch_number ?? null,
      package_id: v.package_id ?? null,
      lab_test_date: v.lab_tested_at ?? null,
      coa_url: v.coa_url ?? null,
      images: pa[ATTR.images] ? pa[ATTR.images].split(';').filter(Boolean) : [],
    };
    return { row, productId: v.id, parentId: parent?.id ?? null, visibility: product.visibility, ownExternalId: v.external_id != null };
  });
  const skus = new Map(products.map((p) => [p.sku.toLowerCase(), p.id]));
  const externalIds = new Map(products.filter((p) => p.external_id).map((p) => [p.external_id!.toLowerCase(), p.id]));
  const urlPaths = new Set(products.map((p) => p.url_path));
  return { storeId, storeCode, variants, parents, categoryIds, categoryPath, brandIds, brandNames, skus, externalIds, urlPaths };
}

// ---------------------------------------------------------------- plan

export interface FieldChange {
  column: ColumnName;
  before: string;
  after: string;
}

export interface PlannedVariant {
  /** File row; 0 for a removal. */
  row: number;
  external_id: string;
  sku: string;
  name: string;
  /** For updates: what changes, as cells. */
  changes?: FieldChange[];
}

export interface ImportPlan {
  created: PlannedVariant[];
  updated: PlannedVariant[];
  unchanged: number;
  /** Only with `full`: variants of the menu the file does not have; they are taken off the menu (status disabled). */
  removed: PlannedVariant[];
  problems: Problem[];
  problemCount: number;
  /** Rows to write: the merged rows of created and updated variants, and removals. */
  writes: { row: MenuRow; current: CurrentVariant | null }[];
}

const EDIBLE = /edible|gumm|chocolate|candy|candies|beverage|drink|baked/i;

/** Rules on one merged row (its cells are already valid one by one). */
function rowProblems(r: MenuRow, menu: StoreMenu): { column: ColumnName; reason: string }[] {
  const out: { column: ColumnName; reason: string }[] = [];
  if (!menu.categoryIds.has(r.category.toLowerCase()) && !menu.categoryIds.has(r.category.replace(/\s*>\s*/g, ' > ').toLowerCase()))
    out.push({
      column: 'category',
      reason: 'unknown category: it must be one of the store\'s categories ("Flower > Indica" or flower/indica)',
    });
  if (r.unit === 'g' && r.weight_g == null) out.push({ column: 'weight_g', reason: 'a variant sold by the gram (unit g) needs weight_g' });
  else if (r.unit === 'g' && !SIZE_GRAMS.includes(r.weight_g!))
    out.push({ column: 'weight_g', reason: `a variant sold by the gram must weigh ${SIZE_GRAMS.join(', ')} g` });
  if (r.parent_external_id && r.unit !== 'g')
    out.push({ column: 'unit', reason: 'the variants of one product are its sizes: unit must be g' });
  for (const [v, u, name] of [
    [r.thc, r.thc_unit, 'thc'],
    [r.cbd, r.cbd_unit, 'cbd'],
  ] as const) {
    if (v != null && u == null) out.push({ column: `${name}_unit`, reason: `${name} needs ${name}_unit (%, mg or mg_per_piece)` });
    if (u === '%' && v != null && v > 100) out.push({ column: name, reason: `${name.toUpperCase()} % cannot be over 100` });
  }
  if (r.special_price != null && r.special_price >= r.price)
    out.push({ column: 'special_price', reason: 'special_price must be below price' });
  if (r.special_price == null && (r.special_from || r.special_to))
    out.push({ column: 'special_from', reason: 'a sale window needs special_price' });
  if (r.special_from && r.special_to && r.special_to <= r.special_from)
    out.push({ column: 'special_to', reason: 'special_to must be after special_from' });
  if (r.flower_equivalent_g != null && r.flower_equivalent_g > 56.7)
    out.push({
      column: 'flower_equivalent_g',
      reason: 'one package counting more than two ounces of flower toward purchase limits is implausible',
    });
  if (r.concentrate_g != null && r.concentrate_g > 28.35)
    out.push({ column: 'concentrate_g', reason: 'more than 28 g of concentrate in one package is implausible' });
  if (r.unit === 'ea' && r.weight_g != null && EDIBLE.test(r.category)) {
    const perPiece = r.weight_g / (r.pieces && r.pieces > 0 ? r.pieces : 1);
    if (perPiece > 10)
      out.push({ column: 'weight_g', reason: `${perPiece} g per piece is implausible for an edible (check weight_g and pieces)` });
  }
  return out;
}

/** Compute what importing `rows` would do to `menu`. `full`: the file is the whole menu. */
export interface PlanOptions {
  /**
   * A row with a new external_id and the sku of a variant that has no external id of its own (the
   * demo's) gives that variant the id. Off by default: then such a row is the problem "sku belongs to
   * another variant", as for any other variant (a file of another store or POS never takes items over).
   */
  adoptExternalIds?: boolean;
  /**
   * The operator insists that the file is this store's although its content looks like another
   * store's (foreignContent): the content check is skipped. The store-column and external-id checks
   * still apply.
   */
  confirmStore?: boolean;
}

/**
 * The content check (issue 26): in the demo every store sells the same skus and each item's external
 * id is its sku, so another store's export without its `store` column matches by id and sku, and only
 * its content tells: it adds many items and reprices most of those it matches. Thresholds a store's
 * own weekly update (a few price changes, a handful of new products, stock counts; a whole export or
 * only the changed rows) never reaches, measured against the store's menu (at least MIN_MENU items):
 *  - creations: at least 20 new items, more than a quarter as many as the menu has, while the file
 *    matches at least 10 of the menu's items (a first import into a new or different menu matches none);
 *  - repricing: at least 10 items whose price or name would change, more than half of the items the
 *    file matches and more than a quarter of the menu.
 */
export const FOREIGN_CONTENT = { minMenu: 20, minCreated: 20, minMatched: 10, minChanged: 10 } as const;

export function foreignContent(
  menu: Pick<StoreMenu, 'storeCode' | 'variants'>,
  plan: Pick<ImportPlan, 'created' | 'updated' | 'unchanged'>,
): Problem | null {
  const T = FOREIGN_CONTENT;
  const size = menu.variants.length;
  if (size < T.minMenu) return null;
  const created = plan.created.length;
  const matched = plan.updated.length + plan.unchanged;
  const changed = plan.updated.filter((u) => u.changes?.some((c) => c.column === 'price' || c.column === 'name')).length;
  const creates = created >= T.minCreated && matched >= T.minMatched && created * 4 > size;
  const reprices = changed >= T.minChanged && changed * 2 > matched && changed * 4 > size;
  if (!creates && !reprices) return null;
  const what = [
    ...(creates ? [`add ${created} new items`] : []),
    ...(reprices ? [`change the price or name of ${changed} of the ${matched} items it matches`] : []),
  ].join(' and ');
  const code = menu.storeCode;
  return {
    row: 0,
    column: '',
    value: '',
    code: 'looks_like_another_store',
    reason:
      `this file looks like another store's menu: compared with ${code}'s menu of ${size} items it would ${what}; nothing is applied. ` +
      `Check that it is ${code}'s file. If it is (a new menu, prices changed across the menu), apply it anyway: ` +
      `tick "This is ${code}'s menu" in the console, --confirm-store on the command line, confirm_store: true in the integration API`,
  };
}

export function planImport(
  menu: StoreMenu,
  parsed: { rows: ParsedRow[]; problems: Problem[]; problemCount: number },
  full: boolean,
  options: PlanOptions = {},
): ImportPlan {
  const plan: ImportPlan = {
    created: [],
    updated: [],
    unchanged: 0,
    removed: [],
    problems: [...parsed.problems],
    problemCount: parsed.problemCount,
    writes: [],
  };
  const problem = (p: Problem) => {
    plan.problemCount++;
    if (plan.problems.length < 1000) plan.problems.push(p);
  };
  const byExternal = new Map(menu.variants.map((v) => [v.row.external_id.toLowerCase(), v]));
  const bySku = new Map(menu.variants.map((v) => [v.row.sku.toLowerCase(), v]));
  const fileIds = new Map(parsed.rows.filter((r) => r.values.external_id).map((r) => [r.values.external_id!.toLowerCase(), r.row]));
  const fileSkus = new Map(parsed.rows.filter((r) => r.values.sku).map((r) => [r.values.sku!.toLowerCase(), r.row]));
  const seen = new Set<CurrentVariant>();
  // A file of another store: rows naming another store code, or rows whose sku is the store's under an
  // external id it does not know (another store's or POS's ids for the same skus).
  const otherStores = new Map<string, number>();
  let foreignIds = 0;
  const groups = new Map<string, { row: number; merged: MenuRow }>();
  for (const pr of parsed.rows) {
    const ext = pr.values.external_id;
    const sku = pr.values.sku;
    if (!ext || !sku) continue; // reported by the parser
    if (pr.values.store && pr.values.store.toLowerCase() !== menu.storeCode.toLowerCase())
      otherStores.set(pr.values.store, (otherStores.get(pr.values.store) ?? 0) + 1);
    if (!byExternal.has(ext.toLowerCase()) && !menu.externalIds.has(ext.toLowerCase()) && menu.skus.has(sku.toLowerCase())) foreignIds++;
    const current =
      byExternal.get(ext.toLowerCase()) ?? (bySku.get(sku.toLowerCase())?.productId ? bySku.get(sku.toLowerCase()) : undefined);
    if (
      current &&
      current.row.external_id.toLowerCase() !== ext.toLowerCase() &&
      !(options.adoptExternalIds === true && !current.ownExternalId)
    ) {
      problem({
        row: pr.row,
        column: 'sku',
        value: sku,
        reason: `sku ${sku} belongs to the variant with external_id ${current.row.external_id}`,
      });
      continue;
    }
    const skuOwner = menu.skus.get(sku.toLowerCase());
    if (skuOwner !== undefined && skuOwner !== current?.productId) {
      problem({ row: pr.row, column: 'sku', value: sku, reason: `sku ${sku} is already used by another product of the store` });
      continue;
    }
    const extOwner = menu.externalIds.get(ext.toLowerCase());
    if (!current && extOwner !== undefined) {
      problem({ row: pr.row, column: 'external_id', value: ext, reason: `external_id ${ext} is already a product's (not a variant's) id` });
      continue;
    }
    if (current) seen.add(current);
    const merged: MenuRow = { ...(current ? current.row : emptyRow()) };
    for (const col of pr.present) if (col in pr.values) (merged as unknown as Record<string, unknown>)[col] = pr.values[col];
    merged.store = menu.storeCode; // checked above, never written
    if (!merged.parent_external_id) merged.parent_sku = null;
    else if (!merged.parent_sku) merged.parent_sku = menu.parents.get(merged.parent_external_id)?.sku ?? merged.parent_external_id;
    // An effect that is also a flavour or terpene is that (it is one tag of the product).
    merged.effects = withoutTags(merged.effects, [...merged.flavours, ...merged.terpenes]);
    const categoryId =
      menu.categoryIds.get(merged.category.toLowerCase()) ?? menu.categoryIds.get(merged.category.replace(/\s*>\s*/g, ' > ').toLowerCase());
    if (categoryId !== undefined) merged.category = menu.categoryPath.get(categoryId)!;
    if (merged.brand) merged.brand = menu.brandNames.get(menu.brandIds.get(merged.brand.toLowerCase()) ?? -1) ?? merged.brand;
    for (const p of rowProblems(merged, menu))
      problem({ row: pr.row, column: p.column, value: cellOf(merged, p.column), reason: p.reason });
    if (merged.parent_external_id) {
      const key = merged.parent_external_id;
      const parent = menu.parents.get(key);
      const keyOwner = menu.externalIds.get(key.toLowerCase()) ?? menu.skus.get(key.toLowerCase());
      const parentSku = merged.parent_sku!.toLowerCase();
      const parentSkuOwner = menu.skus.get(parentSku);
      if (fileIds.has(key.toLowerCase()) || (!parent && keyOwner !== undefined))
        problem({
          row: pr.row,
          column: 'parent_external_id',
          value: key,
          reason: `${key} is the id of a variant, not of a product with sizes`,
        });
      else if (fileSkus.has(parentSku) || (parentSkuOwner !== undefined && parentSkuOwner !== parent?.id))
        problem({
          row: pr.row,
          column: 'parent_sku',
          value: merged.parent_sku!,
          reason: `sku ${merged.parent_sku} is already used by another product`,
        });
      const first = groups.get(merged.parent_external_id);
      if (!first) groups.set(merged.parent_external_id, { row: pr.row, merged });
      else
        for (const col of PRODUCT_COLUMNS)
          if (cellOf(first.merged, col) !== cellOf(merged, col))
            problem({
              row: pr.row,
              column: col,
              value: cellOf(merged, col),
              reason: `${col} differs from row ${first.row} of the same product (${merged.parent_external_id}): "${cellOf(first.merged, col).slice(0, 60)}"`,
            });
    }
    const entry = { row: pr.row, external_id: merged.external_id, sku: merged.sku, name: merged.name };
    if (!current) {
      plan.created.push(entry);
      plan.writes.push({ row: merged, current: null });
      continue;
    }
    const changes: FieldChange[] = [];
    for (const col of COLUMN_NAMES) {
      const before = cellOf(current.row, col);
      const after = cellOf(merged, col);
      if (before !== after) changes.push({ column: col, before, after });
    }
    if (changes.length === 0) plan.unchanged++;
    else {
      plan.updated.push({ ...entry, changes });
      plan.writes.push({ row: merged, current });
    }
  }
  const fileProblems: Problem[] = [];
  for (const [code, rows] of otherStores)
    fileProblems.push({
      row: 0,
      column: 'store',
      value: code,
      reason: `this file is the menu of store ${code} (${rows} of ${parsed.rows.length} rows say so), not of ${menu.storeCode}: nothing is applied. Import it into ${code}, or, to copy that menu here on purpose, empty the store column first`,
    });
  const adopting = options.adoptExternalIds === true;
  if (!adopting && foreignIds >= 3 && foreignIds * 2 > parsed.rows.length)
    fileProblems.push({
      row: 0,
      column: 'external_id',
      value: '',
      reason: `this file looks like another store's menu: ${foreignIds} of its ${parsed.rows.length} rows have a sku of ${menu.storeCode} under an external id ${menu.storeCode} does not know; nothing is applied. Import it into the store it came from (to give ${menu.storeCode}'s items these POS ids, use npm run import with --adopt-ids)`,
    });
  if (fileProblems.length === 0 && options.confirmStore !== true) {
    const foreign = foreignContent(menu, plan);
    if (foreign) fileProblems.push(foreign);
  }
  if (fileProblems.length) {
    plan.problemCount += fileProblems.length;
    plan.problems = [...fileProblems, ...plan.problems].slice(0, 1000);
  }
  if (full && parsed.problemCount === 0 && fileProblems.length === 0 && parsed.rows.length > 0)
    for (const v of menu.variants) {
      if (seen.has(v) || v.row.status === 'disabled') continue;
      plan.removed.push({ row: 0, external_id: v.row.external_id, sku: v.row.sku, name: v.row.name });
      plan.writes.push({ row: { ...v.row, status: 'disabled' }, current: v });
    }
  return plan;
}

// ---------------------------------------------------------------- apply

/** Write a plan (without problems) in `trx`; returns the product ids written (variants and parents). */
/**
 * Write a plan (no problems) in the caller's transaction; returns the product ids written.
 * `media` (images.ts): the pictures of the products written from `media.rows` become what their
 * `images` cell names; other products' pictures are left alone.
 */
export async function applyPlan(
  trx: Transaction<Database>,
  menu: StoreMenu,
  plan: ImportPlan,
  now: Date,
  media?: { mediaOf: ReadonlyMap<string, string>; rows: ReadonlySet<MenuRow> },
): Promise<number[]> {
  if (plan.problemCount > 0) throw new Error('a plan with problems is never applied');
  if (plan.writes.length === 0) return [];
  const at = now.toISOString();
  const storeId = menu.storeId;
  const maxRow = await trx
    .selectFrom('products')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  let nextId = Number(maxRow?.max ?? 0) + 1;
  const touched = new Set<number>();
  const parentIds = new Map(menu.parents);
  const parentRows = new Map<number, MenuRow>();
  const activeParents = new Set<number>();
  const brandId = await brandResolver(trx, menu);
  const categoryOf = (r: MenuRow) =>
    menu.categoryIds.get(r.category.toLowerCase()) ?? menu.categoryIds.get(r.category.replace(/\s*>\s*/g, ' > ').toLowerCase())!;

  const productFields = async (r: MenuRow) => ({
    license_type: r.license_type,
    brand_id: r.brand ? await brandId(r.brand) : null,
    strain_type: r.strain_type,
    description: r.description,
    discovery_tags: [...new Set([...r.effects, ...r.flavours, ...r.terpenes])].join(', '),
    updated_at: at,
  });

  // The everyday change — stock, orderable, a price or a sale of an existing variant (a budtender's
  // "sold out", a POS price push) — writes only those rows (quickWrite), not the whole product.
  const quick = new Set<MenuRow>();
  const restockParents = new Set<number>();
  for (const { row, current } of plan.writes)
    if (current && COLUMN_NAMES.every((c) => QUICK_COLUMNS.has(c) || cellOf(current.row, c) === cellOf(row, c))) {
      quick.add(row);
      if (current.parentId != null) restockParents.add(current.parentId);
    }

  // Parents first (a new child needs its parent's id).
  for (const { row } of plan.writes) {
    if (!row.parent_external_id || quick.has(row)) continue;
    let parent = parentIds.get(row.parent_external_id);
    if (!parent) {
      parent = { id: nextId++, sku: row.parent_sku ?? row.parent_external_id };
      parentIds.set(row.parent_external_id, parent);
      await trx
        .insertInto('products')
        .values({
          id: parent.id,
          store_id: storeId,
          sku: parent.sku,
          external_id: row.parent_external_id,
          parent_id: null,
          type_id: 'configurable',
          name: row.name,
          ...slugs(menu, row.name, parent.sku),
          uom: 'g',
          image: null,
          canna_type: cannaTypeOf(row),
          created_at: at,
          ...(await productFields(row)),
        })
        .execute();
    }
    parentRows.set(parent.id, row);
    if (row.status === 'active') activeParents.add(parent.id);
  }

  for (const { row, current } of plan.writes) {
    if (current && quick.has(row)) {
      await quickWrite(trx, current, row, at);
      touched.add(current.productId);
      continue;
    }
    const parent = row.parent_external_id ? parentIds.get(row.parent_external_id)! : null;
    const size = row.unit === 'g' ? sizeOf(row.weight_g) : null;
    const name = parent && size ? `${row.name} ${sizeLongLabel(size)}` : row.name;
    const status = parent ? (row.status === 'disabled' ? (row.orderable ? 3 : 4) : row.orderable ? 1 : 2) : row.orderable ? 1 : 2;
    const fields = {
      sku: row.sku,
      external_id: row.external_id,
      parent_id: parent?.id ?? null,
      name,
      status,
      // A listed product keeps how it is listed (catalogue only, search only) unless disabled.
      visibility: parent ? 1 : row.status === 'disabled' ? 1 : current && current.visibility > 1 ? current.visibility : 4,
      size,
      uom: row.unit,
      unit_weight_grams_equivelent: row.flower_equivalent_g,
      thc_percent: row.thc_unit === '%' ? row.thc : null,
      cbd_percent: row.cbd_unit === '%' ? row.cbd : null,
      batch_number: row.batch,
      package_id: row.package_id,
      lab_tested_at: row.lab_test_date,
      coa_url: row.coa_url,
      ...(await productFields(row)),
    };
    let id: number;
    if (current) {
      id = current.productId;
      await trx.updateTable('products').set(fields).where('id', '=', id).execute();
    } else {
      id = nextId++;
      await trx
        .insertInto('products')
        .values({
          id,
          store_id: storeId,
          type_id: 'simple',
          canna_type: cannaTypeOf(row),
          image: null,
          created_at: at,
          ...slugs(menu, name, row.sku),
          ...fields,
        })
        .execute();
    }
    touched.add(id);
    const qty = row.unit === 'g' ? row.stock * (row.weight_g ?? 1) : row.stock;
    const stockUpdate = current
      ? await trx
          .updateTable('stock')
          .set((eb) => ({ qty, is_in_stock: qty > 0 ? 1 : 0, version: eb('version', '+', 1), updated_at: at }))
          .where('product_id', '=', id)
          .executeTakeFirst()
      : null;
    if (!stockUpdate || Number(stockUpdate.numUpdatedRows) === 0)
      await trx
        .insertInto('stock')
        .values({ product_id: id, qty, is_in_stock: qty > 0 ? 1 : 0, manage_stock: 1, updated_at: at })
        .execute();
    const price = {
      price_cents: row.price,
      medical_price_cents: row.price_medical,
      special_price_cents: row.special_price,
      special_from_date: row.special_price == null ? null : row.special_from,
      special_to_date: row.special_price == null ? null : row.special_to,
    };
    const priceUpdate = current
      ? await trx
          .updateTable('product_prices')
          .set(price)
          .where('product_id', '=', id)
          .where('customer_group_id', '=', 0)
          .executeTakeFirst()
      : null;
    if (!priceUpdate || Number(priceUpdate.numUpdatedRows) === 0)
      await trx
        .insertInto('product_prices')
        .values({ product_id: id, customer_group_id: 0, ...price })
        .execute();
    const variantAttrs: Record<string, string | null> = {
      [ATTR.thcMg]: row.thc_unit === 'mg' && row.thc != null ? String(row.thc) : null,
      [ATTR.cbdMg]: row.cbd_unit === 'mg' && row.cbd != null ? String(row.cbd) : null,
      [ATTR.thcPiece]: row.thc_unit === 'mg_per_piece' && row.thc != null ? String(row.thc) : null,
      [ATTR.cbdPiece]: row.cbd_unit === 'mg_per_piece' && row.cbd != null ? String(row.cbd) : null,
      [ATTR.pieces]: row.pieces == null ? null : String(row.pieces),
      [ATTR.netWeight]: row.unit === 'ea' && row.weight_g != null ? `${row.weight_g} g` : null,
      [ATTR.concentrate]: row.concentrate_g == null ? null : String(row.concentrate_g),
    };
    if (parent) await writeAttributes(trx, id, variantAttrs);
    else {
      await writeAttributes(trx, id, { ...variantAttrs, ...productAttributes(row) });
      await writeProductParts(trx, storeId, id, row, categoryOf(row));
      if (media?.rows.has(row)) await writeMedia(trx, id, row, media.mediaOf);
    }
  }

  for (const [parentId, row] of parentRows) {
    touched.add(parentId);
    await trx
      .updateTable('products')
      .set({
        name: row.name,
        sku: row.parent_sku ?? row.parent_external_id!,
        type_id: 'configurable',
        parent_id: null,
        ...(await productFields(row)),
      })
      .where('id', '=', parentId)
      .execute();
    await writeAttributes(trx, parentId, productAttributes(row));
    await writeProductParts(trx, storeId, parentId, row, categoryOf(row));
    if (media?.rows.has(row)) await writeMedia(trx, parentId, row, media.mediaOf);
    const children = await trx
      .selectFrom('products')
      .innerJoin('stock', 'stock.product_id', 'products.id')
      .select(['products.size', 'products.status', 'stock.qty'])
      .where('products.parent_id', '=', parentId)
      .execute();
    const grams = children.filter((c) => c.status <= 2).reduce((s, c) => s + c.qty, 0);
    // The parent is disabled (not listed) when every size is; listed again when the file makes a size active.
    const { visibility } = await trx.selectFrom('products').select('visibility').where('id', '=', parentId).executeTakeFirstOrThrow();
    const listed = visibility > 1 ? visibility : 4;
    const next = children.every((c) => c.status >= 3) ? 1 : activeParents.has(parentId) ? listed : visibility;
    if (next !== visibility) await trx.updateTable('products').set({ visibility: next }).where('id', '=', parentId).execute();
    await trx.deleteFrom('stock').where('product_id', '=', parentId).execute();
    await trx
      .insertInto('stock')
      .values({ product_id: parentId, qty: grams, is_in_stock: grams > 0 ? 1 : 0, manage_stock: 0, updated_at: at })
      .execute();
    await trx.deleteFrom('product_configurable_option_values').where('product_id', '=', parentId).execute();
    await trx.deleteFrom('product_configurable_options').where('product_id', '=', parentId).execute();
    await trx
      .insertInto('product_configurable_options')
      .values({ product_id: parentId, attribute_id: SIZE_ATTRIBUTE_ID, attribute_code: 'size', label: 'Size', position: 0 })
      .execute();
    const sizes = [...new Set(children.map((c) => c.size).filter((s): s is number => s != null))].sort((a, b) => a - b);
    if (sizes.length)
      await trx
        .insertInto('product_configurable_option_values')
        .values(
          sizes.map((size, position) => ({
            product_id: parentId,
            attribute_id: SIZE_ATTRIBUTE_ID,
            value_index: size,
            label: sizeLongLabel(size),
            position,
          })),
        )
        .execute();
  }
  // Sizes changed quickly and nothing else of their product: the parent's stock total and its
  // page's updated_at follow.
  for (const parentId of restockParents) {
    if (parentRows.has(parentId)) continue;
    touched.add(parentId);
    const grams = await childGrams(trx, parentId);
    await trx.updateTable('products').set({ updated_at: at }).where('id', '=', parentId).execute();
    await trx
      .updateTable('stock')
      .set({ qty: grams, is_in_stock: grams > 0 ? 1 : 0, updated_at: at })
      .where('product_id', '=', parentId)
      .execute();
  }
  await trx
    .insertInto('catalog_sources')
    .values({ store_id: storeId, source: 'import', options: null, written_at: at })
    .onConflict((oc) => oc.column('store_id').doUpdateSet({ source: 'import', options: null, written_at: at }))
    .execute();
  return [...touched];
}

/** Columns quickWrite writes by itself; any other changed column takes the whole-product path. */
const QUICK_COLUMNS: ReadonlySet<ColumnName> = new Set<ColumnName>([
  'stock',
  'orderable',
  'price',
  'price_medical',
  'special_price',
  'special_from',
  'special_to',
]);

/**
 * An existing variant whose changes are all QUICK_COLUMNS: its stock row, its price row and its
 * status (orderable) — the same values the whole-product path writes for them, nothing else.
 */
async function quickWrite(trx: Transaction<Database>, current: CurrentVariant, row: MenuRow, at: string): Promise<void> {
  const id = current.productId;
  const was = current.row;
  const parent = current.parentId != null;
  const status = parent ? (row.status === 'disabled' ? (row.orderable ? 3 : 4) : row.orderable ? 1 : 2) : row.orderable ? 1 : 2;
  // updated_at too: the sitemap's lastmod of the page says it changed.
  await trx.updateTable('products').set({ status, updated_at: at }).where('id', '=', id).execute();
  if (was.stock !== row.stock) {
    const qty = row.unit === 'g' ? row.stock * (row.weight_g ?? 1) : row.stock;
    const done = await trx
      .updateTable('stock')
      .set((eb) => ({ qty, is_in_stock: qty > 0 ? 1 : 0, version: eb('version', '+', 1), updated_at: at }))
      .where('product_id', '=', id)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0)
      await trx
        .insertInto('stock')
        .values({ product_id: id, qty, is_in_stock: qty > 0 ? 1 : 0, manage_stock: 1, updated_at: at })
        .execute();
  }
  if ((['price', 'price_medical', 'special_price', 'special_from', 'special_to'] as const).some((c) => cellOf(was, c) !== cellOf(row, c))) {
    const price = {
      price_cents: row.price,
      medical_price_cents: row.price_medical,
      special_price_cents: row.special_price,
      special_from_date: row.special_price == null ? null : row.special_from,
      special_to_date: row.special_price == null ? null : row.special_to,
    };
    const done = await trx
      .updateTable('product_prices')
      .set(price)
      .where('product_id', '=', id)
      .where('customer_group_id', '=', 0)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0)
      await trx
        .insertInto('product_prices')
        .values({ product_id: id, customer_group_id: 0, ...price })
        .execute();
  }
}

/** Grams on hand over a configurable product's listed sizes (what its own stock row says). */
async function childGrams(trx: Transaction<Database>, parentId: number): Promise<number> {
  const children = await trx
    .selectFrom('products')
    .innerJoin('stock', 'stock.product_id', 'products.id')
    .select(['products.status', 'stock.qty'])
    .where('products.parent_id', '=', parentId)
    .execute();
  return children.filter((c) => c.status <= 2).reduce((s, c) => s + c.qty, 0);
}

/**
 * canna_type of a new product: 4 (accessory, never counted toward limits) in an Accessories
 * category; otherwise null (cannabis). An existing product keeps its own (the file has no column
 * for it), so a hemp product (6) stays uncounted.
 */
function cannaTypeOf(r: MenuRow): number | null {
  return /^accessor/i.test(r.category) ? 4 : null;
}

function productAttributes(r: MenuRow): Record<string, string | null> {
  return {
    [ATTR.lineage]: r.lineage,
    [ATTR.flavours]: r.flavours.length ? r.flavours.join(', ') : null,
    [ATTR.terpenes]: r.terpenes.length ? r.terpenes.join(', ') : null,
    [ATTR.images]: r.images.length ? r.images.join(';') : null,
  };
}

async function writeAttributes(trx: Transaction<Database>, productId: number, values: Record<string, string | null>): Promise<void> {
  const codes = Object.keys(values).filter((c) => OWNED_ATTRIBUTES.includes(c));
  await trx.deleteFrom('product_attribute_values').where('product_id', '=', productId).where('attribute_code', 'in', codes).execute();
  const rows = codes.filter((c) => values[c] != null).map((c) => ({ product_id: productId, attribute_code: c, value: values[c]! }));
  if (rows.length) await trx.insertInto('product_attribute_values').values(rows).execute();
}

/** The product's pictures become the row's `images`, in order; the first is its main image. */
async function writeMedia(trx: Transaction<Database>, productId: number, r: MenuRow, mediaOf: ReadonlyMap<string, string>): Promise<void> {
  const paths = [...new Set(r.images.map((n) => mediaOf.get(n)).filter((p): p is string => p !== undefined))];
  await trx
    .updateTable('products')
    .set({ image: paths[0] ?? null })
    .where('id', '=', productId)
    .execute();
  await trx.deleteFrom('product_media').where('product_id', '=', productId).where('media_type', '=', 'image').execute();
  if (paths.length)
    await trx
      .insertInto('product_media')
      .values(
        paths.map((image, position) => ({
          product_id: productId,
          position,
          media_type: 'image' as const,
          image,
          video: null,
          label: r.name,
        })),
      )
      .execute();
}

/** Category and weight discounts of a product (parent or standalone). */
async function writeProductParts(
  trx: Transaction<Database>,
  storeId: number,
  productId: number,
  r: MenuRow,
  categoryId: number,
): Promise<void> {
  const current = await trx.selectFrom('product_categories').select('category_id').where('product_id', '=', productId).execute();
  if (current.length !== 1 || current[0].category_id !== categoryId) {
    await trx.deleteFrom('product_categories').where('product_id', '=', productId).execute();
    await trx
      .insertInto('product_categories')
      .values({ product_id: productId, store_id: storeId, category_id: categoryId, position: 0 })
      .execute();
  }
  await trx.deleteFrom('qty_discounts').where('product_id', '=', productId).execute();
  if (r.weight_discounts.length)
    await trx
      .insertInto('qty_discounts')
      .values(r.weight_discounts.map((d) => ({ product_id: productId, qty_to_buy: d.grams, price_cents: d.priceCents })))
      .execute();
}

/** A url key unique in the store: the name's slug, else with the sku appended (and a number). */
function slugs(menu: StoreMenu, name: string, sku: string) {
  const base = slugify(name) || slugify(sku) || 'product';
  let slug = base;
  for (let n = 1; menu.urlPaths.has(slug); n++) slug = n === 1 ? `${base}-${slugify(sku)}` : `${base}-${slugify(sku)}-${n}`;
  menu.urlPaths.add(slug);
  return { slug, url_key: slug, url_path: slug };
}

/** Brand label → option value of the global brand_id attribute; a new brand becomes a new option. */
async function brandResolver(trx: Transaction<Database>, menu: StoreMenu) {
  return async (label: string): Promise<number> => {
    const known = menu.brandIds.get(label.toLowerCase());
    if (known !== undefined) return known;
    const attr = await trx.selectFrom('attributes').select(['options']).where('attribute_code', '=', 'brand_id').executeTakeFirst();
    const options = attr ? (JSON.parse(attr.options) as { value: string; label: string }[]) : [];
    const hit = options.find((o) => o.label.toLowerCase() === label.toLowerCase());
    const value = hit ? Number(hit.value) : Math.max(0, ...options.map((o) => Number(o.value) || 0)) + 1;
    if (!hit) {
      options.push({ value: String(value), label });
      if (attr)
        await trx
          .updateTable('attributes')
          .set({ options: JSON.stringify(options) })
          .where('attribute_code', '=', 'brand_id')
          .execute();
      else
        await trx
          .insertInto('attributes')
          .values({
            attribute_id: 143,
            attribute_code: 'brand_id',
            frontend_label: 'Brand',
            frontend_input: 'select',
            is_filterable: 1,
            options: JSON.stringify(options),
          })
          .execute();
    }
    menu.brandIds.set(label.toLowerCase(), value);
    menu.brandNames.set(value, label);
    return value;
  };
}
