/**
 * Catalogue rows in the shapes the price rules take, written once for the three readers of them:
 * the database loader (./loader.ts), the in-memory sellables (../catalog/sellables.ts) and the
 * catalogue documents (../catalog/documents.ts). Browser-safe: types only in its imports (the
 * offline catalogue runs the sellables in the browser).
 */
import type { QtyDiscount } from '@verdant/domain';
import type { Row } from '../db/schema.ts';
import type { LoadedBundleOption, LoadedLink } from './loaded-product.ts';
import type { SellableUnit } from './unit-rows.ts';

type PricedRow = { price_type: 'fixed' | 'percent' | null; price_cents: number | null; price_percent: number | null };

/** Domain shape of an add-on price: cents when fixed, a percentage when percent; 0 when unset. */
export function addOnPrice(r: PricedRow): number {
  return (r.price_type === 'percent' ? r.price_percent : r.price_cents) ?? 0;
}

/** A text option's own add-on (field, area: priced on the option), or null when it has none. */
export function ownAddOn(o: PricedRow): { price_type: 'fixed' | 'percent'; price: number } | null {
  const own = o.price_type === 'percent' ? o.price_percent : o.price_cents;
  return o.price_type && own != null ? { price_type: o.price_type, price: own } : null;
}

export function qtyDiscountOf(d: Pick<Row<'qty_discounts'>, 'qty_to_buy' | 'price_cents'>): QtyDiscount {
  return { TYPE: 'qty_discount', qty_to_buy: d.qty_to_buy, price: d.price_cents };
}

export function bundleOptionOf(o: Row<'bundle_options'>): LoadedBundleOption {
  return { option_id: o.option_id, title: o.title, type: o.type, required: o.required === 1, position: o.position };
}

export function loadedLinkOf(l: Row<'product_links'>, product: SellableUnit | null): LoadedLink {
  return {
    id: l.id,
    linkType: l.link_type as 'associated' | 'bundle',
    qty: l.qty,
    position: l.position,
    isDefault: l.is_default === 1,
    bundleOptionId: l.bundle_option_id,
    product,
  };
}
