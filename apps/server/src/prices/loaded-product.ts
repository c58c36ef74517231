/**
 * What the loader (./loader.ts) and the in-memory sellables (../catalog/sellables.ts) answer about a
 * product. Browser-safe (types only in its imports): see ../catalog/offline-services.ts.
 */
import type { CustomOption, ProductLicenseType, QtyDiscount } from '@verdant/domain';
import type { SellableUnit } from './unit-rows.ts';

export interface LoadedLink {
  /** The selection id of a bundle option (product_links.id). */
  id: number;
  linkType: 'associated' | 'bundle';
  qty: number;
  position: number;
  isDefault: boolean;
  bundleOptionId: number | null;
  product: SellableUnit | null;
}

export interface LoadedBundleOption {
  option_id: number;
  title: string;
  type: 'select' | 'radio' | 'checkbox' | 'multi';
  required: boolean;
  position: number;
}

export interface LoadedCustomOption extends CustomOption {
  /** For field/area options (no values): the add-on when a text is given. */
  own: { price_type: 'fixed' | 'percent'; price: number } | null;
}

export interface LoadedProduct extends SellableUnit {
  /** The configurable parent of a child (its status, sku and weight prices matter). */
  parent: LoadedParent | null;
  children: SellableUnit[];
  /** Weight prices of a configurable parent (spec §9 qty_discount). */
  discounts: QtyDiscount[];
  links: LoadedLink[];
  bundleOptions: LoadedBundleOption[];
  customOptions: LoadedCustomOption[];
}

export interface LoadedParent {
  id: number;
  sku: string;
  status: number;
  licenseType: ProductLicenseType;
  discounts: QtyDiscount[];
}


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

