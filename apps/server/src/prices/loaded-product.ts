/** Browser-safe (types only in its imports): see ../catalog/offline-services.ts. */
import type { LoadedProduct, SellableUnit } from './loader.ts';

/**
 * A unit with what a product entry adds, field by field: V8 (Node 20) adds properties to a spread
 * copy ({...unit, parent, …}) slowly, about 1-2 µs each, and every cart change builds these.
 */
export function loadedProduct(u: SellableUnit, more: Omit<LoadedProduct, keyof SellableUnit>): LoadedProduct {
  return {
    id: u.id,
    hasTiers: u.hasTiers,
    hasOptions: u.hasOptions,
    sku: u.sku,
    name: u.name,
    type_id: u.type_id,
    status: u.status,
    parentId: u.parentId,
    size: u.size,
    uom: u.uom,
    unitWeight: u.unitWeight,
    cannaType: u.cannaType,
    licenseType: u.licenseType,
    taxClassId: u.taxClassId,
    price: u.price,
    tiers: u.tiers,
    stock: u.stock,
    parent: more.parent,
    children: more.children,
    discounts: more.discounts,
    links: more.links,
    bundleOptions: more.bundleOptions,
    customOptions: more.customOptions,
  };
}

