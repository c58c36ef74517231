/**
 * One statement that reads sellable products with their stock, price rows and parent: the hot
 * part of ./loader.ts (every cart change runs it), kept apart from the assembly of the rest.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ProductLicenseType, ProductType, StockInfo, TierPrice } from '@verdant/domain';
import type { Database } from '../db/schema.ts';
import type { PriceRecord } from './unit-price.ts';

type Db = Kysely<Database>;

export interface SellableUnit {
  id: number;
  /** Set when tier_prices / custom_options hold rows for this product (see unitRows). */
  hasTiers?: boolean;
  hasOptions?: boolean;
  sku: string;
  name: string;
  type_id: ProductType;
  status: number;
  parentId: number | null;
  size: number | null;
  uom: string;
  unitWeight: number | null;
  cannaType: number | null;
  licenseType: ProductLicenseType;
  taxClassId: number;
  price: PriceRecord | null;
  tiers: TierPrice[];
  stock: StockInfo | null;
}

export interface UnitRow {
  id: number;
  sku: string;
  name: string;
  type_id: ProductType;
  status: number;
  parent_id: number | null;
  size: number | null;
  uom: string;
  unit_weight_grams_equivelent: number | null;
  canna_type: number | null;
  license_type: ProductLicenseType;
  tax_class_id: number;
  stock_qty: number | null;
  is_in_stock: number | null;
  manage_stock: number | null;
  low_stock_threshold: number | null;
  price_cents: number | null;
  special_price_cents: number | null;
  special_from_date: string | null;
  special_to_date: string | null;
  g_price_cents: number | null;
  g_special_price_cents: number | null;
  g_special_from_date: string | null;
  g_special_to_date: string | null;
  parent_sku: string | null;
  parent_status: number | null;
  parent_license_type: ProductLicenseType | null;
  has_tiers: unknown;
  has_options: unknown;
}

/**
 * Products with their stock, price rows (general and the group's) and parent, in one statement.
 * Written as SQL rather than with the query builder: this runs on every cart change, and building
 * this select with Kysely cost more than running it. Plain SQL that SQLite and PostgreSQL share.
 * `has_tiers` (of the group or the default group 0, whose tiers apply to a group without its own:
 * domain groupTiers) / `has_options` say whether those side tables hold anything for the product: most
 * products have neither, and a cart change should not pay a query for each empty table.
 */
export async function unitRows(db: Db, groupId: number, where: RawBuilder<unknown>): Promise<UnitRow[]> {
  const { rows } = await sql<UnitRow>`
    select p.id, p.sku, p.name, p.type_id, p.status, p.parent_id, p.size, p.uom,
      p.unit_weight_grams_equivelent, p.canna_type, p.license_type, p.tax_class_id,
      s.qty as stock_qty, s.is_in_stock, s.manage_stock, s.low_stock_threshold,
      pp.price_cents, pp.special_price_cents, pp.special_from_date, pp.special_to_date,
      gp.price_cents as g_price_cents, gp.special_price_cents as g_special_price_cents,
      gp.special_from_date as g_special_from_date, gp.special_to_date as g_special_to_date,
      par.sku as parent_sku, par.status as parent_status, par.license_type as parent_license_type,
      exists (select 1 from tier_prices t where t.product_id = p.id and t.customer_group_id in (${groupId}, 0)) as has_tiers,
      exists (select 1 from custom_options o where o.product_id = p.id) as has_options
    from products p
    left join stock s on s.product_id = p.id
    left join product_prices pp on pp.product_id = p.id and pp.customer_group_id = 0
    left join product_prices gp on gp.product_id = p.id and gp.customer_group_id = ${groupId}
    left join products par on par.id = p.parent_id
    where ${where}
    order by p.id`.execute(db);
  return rows;
}

export const inList = (values: readonly (string | number)[]) => sql.join(values.map((v) => sql`${v}`));

export function toUnit(r: UnitRow): SellableUnit {
  // A price row of the shopper's group replaces the general one (group 0) as a whole.
  const group = r.g_price_cents != null;
  const price: PriceRecord | null = group
    ? { price: r.g_price_cents!, special_price: r.g_special_price_cents, special_from_date: r.g_special_from_date, special_to_date: r.g_special_to_date }
    : r.price_cents != null
      ? { price: r.price_cents, special_price: r.special_price_cents, special_from_date: r.special_from_date, special_to_date: r.special_to_date }
      : null;
  return {
    id: r.id,
    sku: r.sku,
    name: r.name,
    type_id: r.type_id,
    status: r.status,
    parentId: r.parent_id,
    size: r.size,
    uom: r.uom,
    unitWeight: r.unit_weight_grams_equivelent,
    cannaType: r.canna_type,
    licenseType: r.license_type,
    taxClassId: r.tax_class_id,
    price,
    tiers: [],
    hasTiers: truthy(r.has_tiers),
    hasOptions: truthy(r.has_options),
    stock:
      r.stock_qty == null
        ? null
        : { qty: r.stock_qty, is_in_stock: r.is_in_stock === 1, manage_stock: r.manage_stock === 1, low_stock_threshold: r.low_stock_threshold ?? 0 },
  };
}

// SQLite answers exists() with 0/1, PostgreSQL with a boolean.
export const truthy = (v: unknown) => v === true || v === 1 || v === '1';
