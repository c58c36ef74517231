import type { CatalogCategory } from '@verdant/domain';
import { isRootCategory } from './category-tree.ts';

/**
 * True when the store has no product a shopper can see (the root category's live product_count is
 * 0, see the server's StoreCatalog): a new deployment before its first import. A menu whose every
 * item sold out counts too (for a store that does not list out-of-stock items), which also says the
 * truth: there is nothing to order right now.
 */
export function menuIsEmpty(tree: readonly CatalogCategory[]): boolean {
  const root = tree.find(isRootCategory);
  return !root || root.product_count === 0;
}
