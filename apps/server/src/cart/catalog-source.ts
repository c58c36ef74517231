/**
 * Where the cart reads products and prices (taxes: the store's tax lines, tax/section.ts): the server's in-memory catalogue
 * (../catalog/sellables.ts, kept current by catalogChanged and the change bus) when it is there,
 * else the database. Stock is always read from the database, the truth for availability.
 * Placing an order never comes here: it re-reads everything from the database inside its
 * transaction (../orders/prepare.ts).
 */
import type { StockInfo } from '@verdant/domain';
import type { StoreCatalog } from '../catalog/store-catalog.ts';
import { placeholders, runSql } from '../db/compiled.ts';
import { loadProducts, type LoadedProduct } from '../prices/loader.ts';
import type { Db } from './repository.ts';

/** The in-memory catalogues (the app's CatalogIndexManager), or null to read the database only. */
export interface CatalogSource {
  find(storeId: number): StoreCatalog | undefined;
}

/**
 * Stock must be read for a cart change (the stock rule); reading a cart only needs it where
 * resolving a line depends on it (a bundle line picks in-stock default members).
 */
export type StockNeed = 'always' | 'when-it-matters';

interface StockRow {
  product_id: number;
  qty: number;
  is_in_stock: number;
  manage_stock: number;
  low_stock_threshold: number;
}

/** loadProducts(), answered from memory when every sku is there (stock from `db`). */
export async function cartProducts(
  db: Db,
  catalog: CatalogSource | null,
  storeId: number,
  skus: readonly string[],
  groupId: number,
  stock: StockNeed,
): Promise<Map<string, LoadedProduct>> {
  const answer = skus.length > 0 ? catalog?.find(storeId)?.sellables.products(skus, groupId) : null;
  if (!answer) return loadProducts(db, storeId, skus, groupId);
  if (stock === 'always' || answer.stockMatters) {
    const ids = [...new Set(answer.units.map((u) => u.id))];
    const { rows } = await runSql<StockRow>(
      db,
      `select product_id, qty, is_in_stock, manage_stock, low_stock_threshold from stock where product_id in (${placeholders(ids.length)})`,
      ids,
    );
    const byId = new Map<number, StockInfo>(
      rows.map((r) => [r.product_id, { qty: r.qty, is_in_stock: r.is_in_stock === 1, manage_stock: r.manage_stock === 1, low_stock_threshold: r.low_stock_threshold ?? 0 }]),
    );
    for (const u of answer.units) {
      const s = byId.get(u.id);
      u.stock = s ? { ...s } : null;
    }
  }
  return answer.products;
}
