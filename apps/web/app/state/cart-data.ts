/**
 * The persisted part of the cart state (spec §3 Cart state: items, server token, items hash,
 * last sync and last totals sync, platform totals) and its check on the way in: IndexedDB and
 * other tabs may hold what an older build wrote, so every field is checked and bad lines dropped.
 */
import { isLicenseType, PRODUCT_TYPES, type LicenseType, type ProductType } from '@verdant/domain';
import type { ServerTotals } from '../api/cart.ts';
import type { CartItem } from './cart-items.ts';

export interface CartData {
  /** Revision of this copy: a tab adopts a stored or heard copy only when it is newer. */
  rev: number;
  items: CartItem[];
  token: string | null;
  /** The licence type of the server cart (set when it was created). */
  licenseType: LicenseType | null;
  lastSyncedHash: string | null;
  lastSyncAt: number | null;
  totals: ServerTotals | null;
  /** The items hash the totals were computed for; other lines mean the totals are stale. */
  totalsHash: string | null;
  lastTotalsSyncAt: number | null;
}

export const EMPTY_CART: CartData = {
  rev: 0,
  items: [],
  token: null,
  licenseType: null,
  lastSyncedHash: null,
  lastSyncAt: null,
  totals: null,
  totalsHash: null,
  lastTotalsSyncAt: null,
};

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function sanitizeItem(v: unknown): CartItem | null {
  if (!v || typeof v !== 'object') return null;
  const r = v as Record<string, unknown>;
  const qty = num(r.qty);
  const price = num(r.price);
  if (!str(r.sku) || qty == null || !Number.isInteger(qty) || qty < 1 || price == null || price < 0) return null;
  const path = str(r.path);
  return {
    sku: r.sku as string,
    qty,
    prev_qty: num(r.prev_qty),
    type_id: (PRODUCT_TYPES as readonly string[]).includes(r.type_id as string) ? (r.type_id as ProductType) : 'simple',
    parentSku: str(r.parentSku),
    size: num(r.size),
    server_item_id: num(r.server_item_id),
    server_cart_id: str(r.server_cart_id),
    name: str(r.name) ?? (r.sku as string),
    image: str(r.image),
    path: path && path.startsWith('/') && !path.startsWith('//') ? path : null,
    price: Math.round(price),
    tax_class_id: num(r.tax_class_id),
    uom: str(r.uom),
    canna_type: num(r.canna_type),
    unit_weight_grams_equivelent: num(r.unit_weight_grams_equivelent),
    license_type: r.license_type === 'both' || isLicenseType(r.license_type) ? r.license_type : null,
    product_option: sanitizeBundleOptions(r.product_option),
    kit: sanitizeKit(r.kit),
    info: r.info && typeof r.info === 'object' ? { stock: str((r.info as Record<string, unknown>).stock) ?? undefined } : {},
    errors: r.errors && typeof r.errors === 'object' ? { stock: str((r.errors as Record<string, unknown>).stock) ?? undefined } : {},
  };
}

const ids = (v: unknown): number[] | null =>
  Array.isArray(v) && v.every((x) => Number.isInteger(x) && (x as number) >= 0) ? (v as number[]) : null;

/** A bundle line's options: kept only whole (a partial one would make the server fall back to defaults). */
function sanitizeBundleOptions(v: unknown): CartItem['product_option'] {
  const list = (v as { extension_attributes?: { bundle_options?: unknown } } | null)?.extension_attributes?.bundle_options;
  if (!Array.isArray(list)) return null;
  const out: NonNullable<CartItem['product_option']>['extension_attributes']['bundle_options'] = [];
  for (const o of list as Record<string, unknown>[]) {
    const optionId = num(o?.option_id);
    const qty = num(o?.option_qty);
    const selections = ids(o?.option_selections);
    if (optionId == null || qty == null || qty < 1 || !selections) return null;
    out.push({ option_id: optionId, option_qty: qty, option_selections: selections });
  }
  return { extension_attributes: { bundle_options: out } };
}

function sanitizeKit(v: unknown): CartItem['kit'] {
  if (!Array.isArray(v)) return null;
  const out: NonNullable<CartItem['kit']> = [];
  for (const m of v as Record<string, unknown>[]) {
    const qty = num(m?.qty);
    if (!str(m?.sku) || qty == null || qty <= 0) continue;
    out.push({ sku: m.sku as string, name: str(m.name) ?? (m.sku as string), qty, size: num(m.size), canna_type: num(m.canna_type), unit_weight_grams_equivelent: num(m.unit_weight_grams_equivelent) });
  }
  return out.length ? out : null;
}

export function sanitizeCartData(value: unknown): CartData | null {
  if (!value || typeof value !== 'object') return null;
  const r = value as Record<string, unknown>;
  const items: CartItem[] = [];
  for (const raw of Array.isArray(r.items) ? r.items : []) {
    const item = sanitizeItem(raw);
    // One line per sku and size: a duplicate would be pushed twice.
    if (item && !items.some((i) => i.sku === item.sku && i.size === item.size)) items.push(item);
  }
  const totals = r.totals && typeof r.totals === 'object' && Array.isArray((r.totals as ServerTotals).total_segments) ? (r.totals as ServerTotals) : null;
  return {
    rev: num(r.rev) ?? 0,
    items,
    token: str(r.token),
    licenseType: isLicenseType(r.licenseType) ? r.licenseType : null,
    lastSyncedHash: str(r.lastSyncedHash),
    lastSyncAt: num(r.lastSyncAt),
    totals,
    totalsHash: totals ? str(r.totalsHash) : null,
    lastTotalsSyncAt: num(r.lastTotalsSyncAt),
  };
}
