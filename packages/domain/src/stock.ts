/**
 * Stock status (spec §4) and the availability rules that variant choice, pricing and cards share:
 * which configurable children and which grouped/bundle members may be offered.
 */
import type { StockInfo, StockStatus } from './product.ts';

/**
 * `out_of_stock` when the stock says not in stock, or it is managed and holds less than
 * `requested`; `volatile` when managed and what would remain is at or below the low-stock
 * threshold (the shopper gets the pre-reservation notice, spec §8); otherwise `ok`.
 * Unmanaged stock that says in stock is always `ok`: nobody counts it.
 */
export function stockStatus(stock: StockInfo, requested = 1): StockStatus {
  if (!stock.is_in_stock) return 'out_of_stock';
  if (!stock.manage_stock) return 'ok';
  if (stock.qty < requested) return 'out_of_stock';
  if (stock.qty - requested <= stock.low_stock_threshold) return 'volatile';
  return 'ok';
}

/** Status 0/1 is enabled; 2 or higher is unavailable (spec §4). */
export function isEnabledStatus(status: number): boolean {
  return status < 2;
}

/**
 * A configurable child may be offered when enabled and, unless out-of-stock listing is allowed,
 * its stock says in stock (spec §4). Only `is_in_stock` is read, like the catalogue query
 * (`stock.is_in_stock`, spec §7), so a listing and a product page agree on what is available.
 */
export function isChildAvailable(
  child: { status: number; stock: Pick<StockInfo, 'is_in_stock'> },
  allowOutOfStock = false,
): boolean {
  return isEnabledStatus(child.status) && (allowOutOfStock || child.stock.is_in_stock);
}

/**
 * Grouped and bundle members must have status 1 and, by default, be in stock (spec §5) —
 * stricter than children (status 0 also passes there), as the spec words it.
 */
export function isMemberAvailable(
  member: { status: number; stock: Pick<StockInfo, 'is_in_stock'> },
  allowOutOfStock = false,
): boolean {
  return member.status === 1 && (allowOutOfStock || member.stock.is_in_stock);
}
