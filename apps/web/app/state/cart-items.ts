/**
 * Cart lines in the browser (spec §3 Cart item) and the pure rules the cart store applies to them:
 * line identity, adding with merge, taking what the server confirmed, the limit and count views.
 * The sync plan itself (matching, outcomes, rollback, hash) is @verdant/domain's cart/reconcile.
 */
import { sizeLongLabel, type Cents, type ClientCartItem, type LicenseType, type LimitItem, type ProductLicenseType, type ProductType, type TaxRate, type TotalsLine } from '@verdant/domain';
import type { BundleOptionsPayload, ServerItem } from '../api/cart.ts';
import type { MinicartCountType } from '../lib/cart-config.ts';

export interface CartItem extends ClientCartItem {
  sku: string;
  qty: number;
  /** The quantity the server last confirmed (restored when it refuses a change). */
  prev_qty: number | null;
  type_id: ProductType;
  parentSku: string | null;
  size: number | null;
  server_item_id: number | null;
  server_cart_id: string | null;
  name: string;
  image: string | null;
  /** Store-relative product path, for the line's link. */
  path: string | null;
  /** Unit price in cents: the product page's until the server prices the line, then the server's. */
  price: Cents;
  tax_class_id: number | null;
  uom: string | null;
  canna_type: number | null;
  unit_weight_grams_equivelent: number | null;
  license_type: ProductLicenseType | null;
  /** A bundle's chosen options, as the server takes them (pushed with every write of the line). */
  product_option?: BundleOptionsPayload | null;
  /** A bundle's members in one bundle: shown on the line and weighed for the purchase limit. */
  kit?: KitLineMember[] | null;
  info?: { stock?: string };
  errors?: { stock?: string };
}

/** One member of a bundle line: `qty` units of it in each bundle. */
export interface KitLineMember {
  sku: string;
  name: string;
  qty: number;
  size: number | null;
  canna_type: number | null;
  unit_weight_grams_equivelent: number | null;
}

/** A product as "Add to cart" hands it over (the chosen child of a configurable). */
export type NewCartItem = Omit<CartItem, 'prev_qty' | 'server_item_id' | 'server_cart_id' | 'info' | 'errors'>;

/**
 * Lines are the same line when sku and size agree (a child sku already names its size). A bundle
 * is one line per bundle sku: adding it again with other choices is refused (kitConflict).
 */
export function lineKey(item: Pick<CartItem, 'sku' | 'size'>): string {
  return `${item.sku}|${item.size ?? ''}`;
}

export function findLine(items: readonly CartItem[], key: string): CartItem | undefined {
  return items.find((i) => lineKey(i) === key);
}

/** `Blue Dream 3.5 g (1/8 oz)`: the product name with its size, which tells two lines of one product apart. */
export function lineLabel(item: Pick<CartItem, 'name' | 'size'>): string {
  if (item.size == null) return item.name;
  const size = sizeLongLabel(item.size);
  return item.name.includes(size) ? item.name : `${item.name} ${size}`;
}

/** Add `qty` of a product: an existing line grows (merged: true), else a new line is appended. */
export function addToLines(items: readonly CartItem[], add: NewCartItem): { items: CartItem[]; merged: boolean } {
  const key = lineKey(add);
  const existing = findLine(items, key);
  if (existing) {
    return { items: items.map((i) => (i === existing ? { ...i, qty: i.qty + add.qty, price: add.price } : i)), merged: true };
  }
  return { items: [...items, { ...add, prev_qty: null, server_item_id: null, server_cart_id: null }], merged: false };
}

/** The bundle line `add` would be merged into although its choices differ (then adding is refused). */
export function kitConflict(items: readonly CartItem[], add: Pick<NewCartItem, 'sku' | 'size' | 'product_option'>): CartItem | null {
  if (!add.product_option) return null;
  const existing = findLine(items, lineKey(add));
  if (!existing) return null;
  return sameBundleOptions(existing.product_option, add.product_option) ? null : existing;
}

/** Two bundle choices are the same when every option names the same selections and qty. */
export function sameBundleOptions(a: BundleOptionsPayload | null | undefined, b: BundleOptionsPayload | null | undefined): boolean {
  const canon = (o: BundleOptionsPayload | null | undefined) =>
    JSON.stringify(
      [...(o?.extension_attributes.bundle_options ?? [])]
        .map((x) => [x.option_id, x.option_qty, [...x.option_selections].sort((m, n) => m - n)] as const)
        .sort((m, n) => m[0] - n[0]),
    );
  return canon(a) === canon(b);
}

export function replaceLine(items: readonly CartItem[], key: string, change: (item: CartItem) => CartItem | null): CartItem[] {
  return items.flatMap((i) => {
    if (lineKey(i) !== key) return [i];
    const next = change(i);
    return next ? [next] : [];
  });
}

/**
 * Record what the server confirmed for a line: its ids, the confirmed quantity (prev_qty) and its
 * price. The line's own quantity is left alone: the shopper may have changed it meanwhile, and
 * that newer change is pushed by the next sync.
 */
export function confirmLine(item: CartItem, server: ServerItem, token: string): CartItem {
  return {
    ...item,
    server_item_id: server.item_id,
    server_cart_id: token,
    prev_qty: server.qty,
    price: server.price ?? item.price,
    name: item.name || server.name || item.sku,
    canna_type: server.canna_type ?? item.canna_type,
    unit_weight_grams_equivelent: server.unit_weight_grams_equivelent ?? item.unit_weight_grams_equivelent,
  };
}

/** A server line this browser did not have (another device): added locally, without a notice. */
export function lineFromServer(server: ServerItem, token: string): CartItem {
  return {
    sku: server.sku,
    qty: server.qty,
    prev_qty: server.qty,
    type_id: server.product_type,
    parentSku: server.parentSku,
    size: server.size,
    server_item_id: server.item_id,
    server_cart_id: token,
    name: server.name ?? server.sku,
    image: null,
    path: null,
    price: server.price ?? 0,
    tax_class_id: null,
    uom: server.uom,
    canna_type: server.canna_type,
    unit_weight_grams_equivelent: server.unit_weight_grams_equivelent,
    license_type: null,
    ...(server.product_type === 'bundle' && server.product_option?.extension_attributes?.bundle_options ? { product_option: server.product_option } : {}),
  };
}

/** Forget the server ids (a new server cart): every line is pushed again as new. */
export function unlinkLines(items: readonly CartItem[]): CartItem[] {
  return items.map((i) => ({ ...i, server_item_id: null, server_cart_id: null, prev_qty: null }));
}

/**
 * What the purchase limit weighs (spec §5): each line, and for a bundle each member times its
 * qty per bundle — the server's rule too (apps/server/src/cart/checks.ts limitItems).
 */
export function limitItems(items: readonly CartItem[]): LimitItem[] {
  return items.flatMap((i) =>
    i.kit?.length
      ? i.kit.map((m) => ({ qty: i.qty * m.qty, size: m.size, unit_weight_grams_equivelent: m.unit_weight_grams_equivelent, canna_type: m.canna_type }))
      : [{ qty: i.qty, size: i.size, unit_weight_grams_equivelent: i.unit_weight_grams_equivelent, canna_type: i.canna_type }],
  );
}

/** The instant estimate's lines (computeTotals), with each line's tax rates. */
export function totalsLines(items: readonly CartItem[], ratesOf: (taxClassId: number | null) => readonly TaxRate[]): TotalsLine[] {
  return items
    .filter((i) => i.qty > 0 && Number.isInteger(i.price) && i.price >= 0)
    .map((i) => ({
      id: lineKey(i),
      qty: i.qty,
      unitPrice: i.price,
      rates: ratesOf(i.tax_class_id),
      limit: { size: i.size, unit_weight_grams_equivelent: i.unit_weight_grams_equivelent, canna_type: i.canna_type },
    }));
}

/** Spec §4 Mini-cart count: number of lines or sum of quantities, by config. */
export function miniCartCount(items: readonly Pick<CartItem, 'qty'>[], type: MinicartCountType): number {
  return type === 'lines' ? items.length : items.reduce((a, i) => a + i.qty, 0);
}

/** A product may join a cart of a licence type when it is for `both` or for that type (spec §5). */
export function fitsLicense(productLicense: ProductLicenseType | null, cartLicense: LicenseType): boolean {
  return productLicense == null || productLicense === 'both' || productLicense === cartLicense;
}

/** A virtual cart (every line virtual or downloadable) has no cash on delivery (spec §5). */
export function isVirtualCart(items: readonly Pick<CartItem, 'type_id'>[]): boolean {
  return items.length > 0 && items.every((i) => i.type_id === 'virtual' || i.type_id === 'downloadable');
}
