/**
 * A stock-only change, applied from the stock rows alone (issue 15's 4/20 run). Every order, release
 * and no-show changes only the `stock` rows of what it sold or gave back, and each node that holds
 * the store must reflect it. Re-reading those products through ./catalog-rows.ts costs ~20 queries
 * per node per order (the product, its parent and siblings, the kits embedding any of them, every
 * table a document is built from): at 50 orders/s that was PostgreSQL's largest load.
 *
 * A stock row appears in a document in three places: the product's own `stock`, a configurable
 * parent's `configurable_children[].stock`, and a kit's member `product_links[].product.stock`
 * (grouped, and bundle options' links). The other fields of those documents do not depend on stock,
 * except the summary price of parents and kits (./pricing.ts summaryPriceFields: the cheapest
 * available child, the kit's sums over available members), which is judged again here exactly as a
 * build judges it. So the documents that hold a changed product are copied with the new stock where
 * it appears and their summary prices re-judged: the same JSON a build from every row would give
 * (store-changes.test.ts compares the two after every kind of change).
 *
 * Everything else about those products is what the node already holds: every change other than
 * stock comes with a full notice on the same per-store queue, so the held documents are current
 * except for stock. A product the node does not hold (written but not yet announced) leaves the
 * caller to the full path.
 */
import type { CatalogProduct, LinkedProduct, ProductLink, StockInfo } from '@verdant/domain';
import type { Row } from '../db/schema.ts';
import { summaryPriceFields } from './pricing.ts';

/** A stock row as documents carry it; no row reads as not managed-in-stock with nothing on hand, as in a build. */
export function stockInfo(row: Pick<Row<'stock'>, 'qty' | 'is_in_stock' | 'manage_stock' | 'low_stock_threshold'> | undefined): StockInfo {
  return row
    ? {
        qty: row.qty,
        is_in_stock: row.is_in_stock === 1,
        manage_stock: row.manage_stock === 1,
        low_stock_threshold: row.low_stock_threshold,
      }
    : { qty: 0, is_in_stock: false, manage_stock: true, low_stock_threshold: 0 };
}

/** Replace each item that `patch` changes; the same list (identity) when none changed. */
function mapChanged<T>(list: T[], patch: (item: T) => T): T[] {
  let out: T[] | null = null;
  for (let i = 0; i < list.length; i++) {
    const next = patch(list[i]);
    if (next !== list[i]) (out ??= list.slice())[i] = next;
  }
  return out ?? list;
}

/**
 * `doc` with the stock of `stock`'s products wherever it carries it, and its summary price judged
 * again at `now` for a parent or kit. Keys keep their places (a spread over the old document), so the
 * JSON is what a build gives.
 */
export function withStock(doc: CatalogProduct, stock: ReadonlyMap<number, StockInfo>, now: Date): CatalogProduct {
  const link = (l: ProductLink): ProductLink => {
    const s = l.product ? stock.get(l.product.id) : undefined;
    return s && l.product ? { ...l, product: { ...l.product, stock: s } as LinkedProduct } : l;
  };
  const next: CatalogProduct = {
    ...doc,
    stock: stock.get(doc.id) ?? doc.stock,
    configurable_children: mapChanged(doc.configurable_children, (c) => {
      const s = stock.get(c.id);
      return s ? { ...c, stock: s } : c;
    }),
    product_links: mapChanged(doc.product_links, link),
    bundle_options: mapChanged(doc.bundle_options, (o) => {
      const links = mapChanged(o.product_links, link);
      return links === o.product_links ? o : { ...o, product_links: links };
    }),
  };
  if (next.type_id === 'configurable' || next.type_id === 'grouped' || next.type_id === 'bundle') {
    Object.assign(next, summaryPriceFields(next, now));
  }
  return next;
}
