/**
 * The menu file format (FORMAT.md beside this file is the operator's version): one row per sellable
 * variant, grouped into products by `parent_external_id`; identity by the POS's `external_id`
 * (and `sku`). Each column has a parser (cell text → value or a reason) and a formatter (value →
 * the canonical cell text). Formatting is canonical, so two values are equal exactly when their
 * cells are: the plan compares cells, and an export re-imports as "no change".
 *
 * A column absent from the file leaves that field as it is; a present column with an empty cell
 * clears an optional field. Only `REQUIRED_COLUMNS` must be present.
 */
import { SIZE_WEIGHTS_GRAMS } from '@verdant/domain';

export type Unit = 'g' | 'ea';
export type LicenseType = 'recreational' | 'medical' | 'both';
export type PotencyUnit = '%' | 'mg' | 'mg_per_piece';
export type MenuStatus = 'active' | 'disabled';

export interface WeightDiscount {
  grams: number;
  priceCents: number;
}

/** One variant as the file describes it (all values canonical). */
export interface MenuRow {
  /** The code of the store whose menu this is (an export writes it; an import checks it, never writes it). */
  store: string | null;
  external_id: string;
  sku: string;
  parent_external_id: string | null;
  parent_sku: string | null;
  name: string;
  brand: string | null;
  category: string;
  strain_type: string | null;
  lineage: string | null;
  unit: Unit;
  weight_g: number | null;
  price: number;
  price_medical: number | null;
  special_price: number | null;
  special_from: string | null;
  special_to: string | null;
  weight_discounts: WeightDiscount[];
  stock: number;
  orderable: boolean;
  license_type: LicenseType;
  status: MenuStatus;
  description: string;
  effects: string[];
  flavours: string[];
  terpenes: string[];
  thc: number | null;
  thc_unit: PotencyUnit | null;
  cbd: number | null;
  cbd_unit: PotencyUnit | null;
  pieces: number | null;
  flower_equivalent_g: number | null;
  concentrate_g: number | null;
  batch: string | null;
  package_id: string | null;
  lab_test_date: string | null;
  coa_url: string | null;
  images: string[];
}

export type ColumnName = keyof MenuRow;

type Parsed<T> = { value: T } | { error: string };

interface ColumnSpec<K extends ColumnName> {
  name: K;
  /** Must be a column of every file. */
  required: boolean;
  /** Same for every variant of one product (taken from the product, not the variant). */
  product: boolean;
  /** Value of a new variant when the column is absent (required columns have none). */
  empty: MenuRow[K];
  parse(cell: string): Parsed<MenuRow[K]>;
  format(value: MenuRow[K]): string;
  help: string;
}

const MAX_TEXT = 200;
const MAX_DESCRIPTION = 20_000;

const ok = <T>(value: T): Parsed<T> => ({ value });
const fail = <T>(error: string): Parsed<T> => ({ error });

function text(max = MAX_TEXT, required = false) {
  return (cell: string): Parsed<any> => {
    const v = cell.trim();
    if (!v) return required ? fail('is required') : ok(null);
    if (v.length > max) return fail(`is longer than ${max} characters`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(v)) return fail('contains control characters');
    return ok(v);
  };
}

const id = (cell: string): Parsed<string> => {
  const v = cell.trim();
  if (!v) return fail('is required');
  if (v.length > 100) return fail('is longer than 100 characters');
  if (!/^[\p{L}\p{N}._:/#-]+$/u.test(v)) return fail('may only hold letters, digits and . _ : / # -');
  return ok(v);
};

const optionalId = (cell: string): Parsed<string | null> => (cell.trim() ? id(cell) : ok(null));

/** Every price of a menu (price, sale, medical, weight discounts) is under $100,000. */
export const MAX_PRICE_CENTS = 10_000_000;

/** `12.50`, `12`, `$12.50` → 1250 cents; at most 2 decimals, not negative, under $100,000. */
export function parseMoney(cell: string): Parsed<number | null> {
  const v = cell.trim().replace(/^\$/, '');
  if (!v) return ok(null);
  if (/^-/.test(v)) return fail('must not be negative');
  if (!/^\d+(\.\d{1,2})?$/.test(v)) return fail('must be an amount in dollars such as 12.50');
  const cents = Math.round(Number(v) * 100);
  if (cents >= MAX_PRICE_CENTS) return fail('must be under $100,000');
  return ok(cents);
}

export const formatMoney = (cents: number | null): string => (cents == null ? '' : (cents / 100).toFixed(2));

function decimal(max: number, what: string) {
  return (cell: string): Parsed<number | null> => {
    const v = cell.trim();
    if (!v) return ok(null);
    if (!/^-?\d+(\.\d+)?$/.test(v)) return fail(`must be a number (${what})`);
    const n = Number(v);
    if (n < 0) return fail('must not be negative');
    if (n > max) return fail(`must be at most ${max} (${what})`);
    return ok(Math.round(n * 10_000) / 10_000);
  };
}

const formatNumber = (n: number | null): string => (n == null ? '' : String(n));

function choice<T extends string>(values: readonly T[], fallback: T | null, aliases: Record<string, T> = {}) {
  return (cell: string): Parsed<any> => {
    const v = cell.trim().toLowerCase();
    if (!v) return fallback === null ? ok(null) : ok(fallback);
    const hit = values.find((x) => x.toLowerCase() === v) ?? aliases[v];
    return hit ? ok(hit) : fail(`must be one of ${values.join(', ')}`);
  };
}

const YES = new Set(['yes', 'y', 'true', '1']);
const NO = new Set(['no', 'n', 'false', '0']);

function parseBool(cell: string): Parsed<boolean> {
  const v = cell.trim().toLowerCase();
  if (!v || YES.has(v)) return ok(true);
  if (NO.has(v)) return ok(false);
  return fail('must be yes or no');
}

/** Lists are comma-separated: `relaxed, sleepy`. Canonical: trimmed, in file order, no duplicates. */
function list(cell: string): Parsed<string[]> {
  const items = [
    ...new Set(
      cell
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (items.some((s) => s.length > 60)) return fail('has an item longer than 60 characters');
  if (items.length > 50) return fail('has more than 50 items');
  return ok(items);
}

/** Image file names, `;`-separated, beside the import file: no folders, no `..`. */
function images(cell: string): Parsed<string[]> {
  const items = cell
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const f of items)
    if (!/^[\w][\w .-]*\.(jpe?g|png|webp)$/i.test(f) || f.includes('..'))
      return fail(`"${f.slice(0, 80)}" is not an image file name (.jpg, .png or .webp, no folders)`);
  if (items.length > 20) return fail('has more than 20 images');
  return ok(items);
}

/** `2026-05-01` or a full ISO time → ISO UTC; a date alone means its start (UTC). */
function dateTime(cell: string): Parsed<string | null> {
  const v = cell.trim();
  if (!v) return ok(null);
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v))
    return fail('must be a date such as 2026-05-01');
  const d = new Date(v.length === 10 ? `${v}T00:00:00Z` : v.replace(' ', 'T'));
  if (Number.isNaN(d.getTime())) return fail('is not a real date');
  return ok(d.toISOString());
}

function dateOnly(cell: string): Parsed<string | null> {
  const v = cell.trim();
  if (!v) return ok(null);
  const parsed = dateTime(v);
  if ('error' in parsed) return parsed;
  if (v.length !== 10) return fail('must be a date such as 2026-05-01');
  return ok(v);
}

function url(cell: string): Parsed<string | null> {
  const v = cell.trim();
  if (!v) return ok(null);
  if (v.length > 500) return fail('is longer than 500 characters');
  try {
    const u = new URL(v);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return fail('must be an http(s) link');
  } catch {
    return fail('must be a link such as https://lab.example/coa/123.pdf');
  }
  return ok(v);
}

/** `3.5=30.00; 7=55.00`: buying exactly 3.5 g costs $30.00 in total. Canonical: by grams. */
function weightDiscounts(cell: string): Parsed<WeightDiscount[]> {
  const out: WeightDiscount[] = [];
  for (const part of cell
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^(\d+(?:\.\d+)?)\s*g?\s*=\s*\$?(\d+(?:\.\d{1,2})?)$/.exec(part);
    if (!m) return fail(`"${part.slice(0, 40)}" is not grams=price such as 7=55.00`);
    const grams = Number(m[1]);
    if (!Object.values(SIZE_WEIGHTS_GRAMS).includes(grams)) return fail(`${grams} g is not a size (1, 3.5, 7, 14 or 28 g)`);
    if (out.some((d) => d.grams === grams)) return fail(`${grams} g is given twice`);
    const priceCents = Math.round(Number(m[2]) * 100);
    // The bound of every other price (parseMoney): the catalogue's integer cents column holds it on every database.
    if (priceCents >= MAX_PRICE_CENTS) return fail(`${grams} g: the price must be under $100,000`);
    out.push({ grams, priceCents });
  }
  return ok(out.sort((a, b) => a.grams - b.grams));
}

const formatDiscounts = (d: WeightDiscount[]) => d.map((x) => `${x.grams}=${formatMoney(x.priceCents)}`).join('; ');

function stock(cell: string): Parsed<number> {
  const v = cell.trim();
  if (!/^\d+$/.test(v)) return fail(v.startsWith('-') ? 'must not be negative' : 'must be a whole number of packages');
  const n = Number(v);
  return n > 1_000_000 ? fail('must be at most 1000000') : ok(n);
}

function col<K extends ColumnName>(
  name: K,
  help: string,
  parse: (cell: string) => Parsed<MenuRow[K]>,
  format: (v: MenuRow[K]) => string,
  empty: MenuRow[K],
  o: { required?: boolean; product?: boolean } = {},
): ColumnSpec<K> {
  return { name, help, parse, format, empty, required: o.required ?? false, product: o.product ?? false };
}

const str = (v: string | null) => v ?? '';
const joinList = (v: string[]) => v.join(', ');

/** Every column, in file order. */
export const COLUMNS = [
  col('store', "The code of the store whose menu this is (written by an export; an import into another store is refused).", optionalId, str, null),
  col('external_id', 'The POS id of this variant; unique in the file.', id, str, '', { required: true }),
  col('sku', 'The variant sku; unique in the store.', id, str, '', { required: true }),
  col('parent_external_id', 'The POS id of the product this variant is a size of; empty = a product of its own.', optionalId, str, null),
  col('parent_sku', "The product's sku (default: parent_external_id).", optionalId, str, null, { product: true }),
  col('name', 'The product name (sizes are added to it).', text(MAX_TEXT, true), str, '', { required: true, product: true }),
  col('brand', 'Brand name.', text(), str, null, { product: true }),
  col('category', 'Category path of the store, by names or url path: "Flower > Indica" or flower/indica.', text(MAX_TEXT, true), str, '', {
    required: true,
    product: true,
  }),
  col('strain_type', 'Indica, Sativa, Hybrid or CBD.', choice(['Indica', 'Sativa', 'Hybrid', 'CBD'], null), str, null, { product: true }),
  col('lineage', 'Parent strains: "Blueberry x Haze".', text(), str, null, { product: true }),
  col(
    'unit',
    'g: sold by weight (a size of 1, 3.5, 7, 14 or 28 g); ea: a package.',
    choice(['g', 'ea'] as const, null, { each: 'ea', unit: 'ea', grams: 'g', gram: 'g' }),
    (v) => v,
    'ea',
    { required: true },
  ),
  col('weight_g', 'Grams per package: the size for unit g, the net weight for ea.', decimal(1000, 'grams'), formatNumber, null),
  col(
    'price',
    'Price in dollars (recreational, and medical unless price_medical).',
    parseMoney as (c: string) => Parsed<number>,
    formatMoney,
    0,
    { required: true },
  ),
  col('price_medical', 'Price for medical shoppers when different.', parseMoney, formatMoney, null),
  col('special_price', 'Sale price in dollars.', parseMoney, formatMoney, null),
  col('special_from', 'Sale starts (2026-05-01 or ISO time, UTC); empty = now.', dateTime, str, null),
  col('special_to', 'Sale ends; empty = open-ended.', dateTime, str, null),
  col('weight_discounts', 'Product-wide total price per weight: "7=55.00; 14=100.00".', weightDiscounts, formatDiscounts, [], {
    product: true,
  }),
  col('stock', 'Packages on hand (a whole number).', stock, (v) => String(v), 0, { required: true }),
  col('orderable', 'yes/no: can be ordered online (separate from stock).', parseBool, (v) => (v ? 'yes' : 'no'), true),
  col(
    'license_type',
    'recreational, medical or both.',
    choice(['recreational', 'medical', 'both'] as const, 'both', { rec: 'recreational', med: 'medical', adult: 'recreational' }),
    (v) => v,
    'both',
    {
      product: true,
    },
  ),
  col(
    'status',
    'active or disabled (not on the menu).',
    choice(['active', 'disabled'] as const, 'active', { enabled: 'active', inactive: 'disabled' }),
    (v) => v,
    'active',
  ),
  col(
    'description',
    'Plain text.',
    (c) => {
      const r = text(MAX_DESCRIPTION)(c);
      return 'error' in r ? r : ok(r.value ?? '');
    },
    (v) => v,
    '',
    { product: true },
  ),
  col('effects', 'Comma-separated: "relaxed, sleepy".', list, joinList, [], { product: true }),
  col('flavours', 'Comma-separated.', list, joinList, [], { product: true }),
  col('terpenes', 'Comma-separated.', list, joinList, [], { product: true }),
  col('thc', 'THC content, in thc_unit.', decimal(100_000, 'THC'), formatNumber, null),
  col(
    'thc_unit',
    '%, mg (per package) or mg_per_piece.',
    choice(['%', 'mg', 'mg_per_piece'] as const, null, { percent: '%', 'mg/piece': 'mg_per_piece' }),
    (v) => v ?? '',
    null,
  ),
  col('cbd', 'CBD content, in cbd_unit.', decimal(100_000, 'CBD'), formatNumber, null),
  col(
    'cbd_unit',
    '%, mg or mg_per_piece.',
    choice(['%', 'mg', 'mg_per_piece'] as const, null, { percent: '%', 'mg/piece': 'mg_per_piece' }),
    (v) => v ?? '',
    null,
  ),
  col('pieces', 'Pieces per package (gummies, pre-rolls).', decimal(10_000, 'pieces'), formatNumber, null),
  col('flower_equivalent_g', 'Grams of flower one package counts toward purchase limits.', decimal(1000, 'grams'), formatNumber, null),
  col('concentrate_g', 'Grams of concentrate in one package.', decimal(1000, 'grams'), formatNumber, null),
  col('batch', 'Batch / lot number.', text(100), str, null),
  col('package_id', 'Seed-to-sale package tag (Metrc).', text(100), str, null),
  col('lab_test_date', 'Date of the lab test: 2026-05-01.', dateOnly, str, null),
  col('coa_url', 'Link to the certificate of analysis.', url, str, null),
  col('images', 'Image file names beside the file, ";"-separated.', images, (v) => v.join('; '), [], { product: true }),
] as const satisfies readonly ColumnSpec<any>[];

export type AnyColumn = ColumnSpec<ColumnName>;

export const COLUMN_BY_NAME: ReadonlyMap<string, AnyColumn> = new Map(COLUMNS.map((c) => [c.name, c as unknown as AnyColumn]));
export const COLUMN_NAMES: readonly ColumnName[] = COLUMNS.map((c) => c.name);
export const REQUIRED_COLUMNS: readonly ColumnName[] = COLUMNS.filter((c) => c.required).map((c) => c.name);
/** Columns whose value is the product's (the same on every variant of it). */
export const PRODUCT_COLUMNS: readonly ColumnName[] = COLUMNS.filter((c) => c.product).map((c) => c.name);

/** The canonical cell text of one field. */
export function cellOf(row: MenuRow, column: ColumnName): string {
  return (COLUMN_BY_NAME.get(column)!.format as (v: unknown) => string)(row[column]);
}

/** A new variant's values for every column the file did not have. */
export function emptyRow(): MenuRow {
  return Object.fromEntries(COLUMNS.map((c) => [c.name, Array.isArray(c.empty) ? [] : c.empty])) as unknown as MenuRow;
}

/** The size grams a `g` variant may weigh. */
export const SIZE_GRAMS: readonly number[] = Object.values(SIZE_WEIGHTS_GRAMS);
