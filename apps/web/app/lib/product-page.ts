/**
 * What the product page shows, computed from the catalogue document with the domain rules:
 * the size choices with their prices (spec §4 variant choice, §9 sizes and quantity discounts),
 * the stock line, kit members, and the offers for structured data.
 */
import {
  availableChildren,
  isMemberAvailable,
  productPrice,
  qtyDiscountPrice,
  sizeLongLabel,
  sizeWeightGrams,
  stockStatus,
  unitPrice,
  type CatalogProduct,
  type Cents,
  type ConfigurableChild,
  type LinkedProduct,
  type StockInfo,
  type StockStatus,
} from '@verdant/domain';

export const STOCK_LABELS: Readonly<Record<StockStatus, string>> = {
  ok: 'In stock',
  volatile: 'Low stock',
  out_of_stock: 'Out of stock',
};

export function stockLabel(stock: StockInfo): { status: StockStatus; label: string } {
  const status = stockStatus(stock);
  return { status, label: STOCK_LABELS[status] };
}

export interface SizeChoice {
  /** value_index of the size option (91–95). */
  size: number;
  /** `3.5 g (1/8 oz)` */
  label: string;
  child: ConfigurableChild | null;
  available: boolean;
  price: Cents;
  finalPrice: Cents;
  /** The weight-based quantity-discount price for this size, when lower than the final price. */
  discountPrice: Cents | null;
  /** Per gram, from the lowest price that applies (whole cents). */
  perGram: Cents | null;
}

/** Value indexes of the size option in catalogue order; children's sizes when no option is described. */
function sizeValues(product: CatalogProduct): number[] {
  const option = product.configurable_options.find((o) => o.attribute_code === 'size');
  if (option && option.values.length > 0) return option.values.map((v) => v.value_index);
  return [...new Set(product.configurable_children.map((c) => c.size).filter((s): s is number => s != null))].sort((a, b) => a - b);
}

/**
 * One choice per size of a configurable (spec §4): its child, whether that child may be offered
 * (availableChildren: enabled and in stock), the child's price with an active special, the
 * quantity-discount price (qtyDiscountPrice) and the price per gram.
 */
export function sizeChoices(product: CatalogProduct, now: Date): SizeChoice[] {
  if (product.type_id !== 'configurable') return [];
  const available = new Set(availableChildren(product).map((c) => c.sku));
  return sizeValues(product).map((size) => {
    const children = product.configurable_children.filter((c) => c.size === size);
    const child = children.find((c) => available.has(c.sku)) ?? children[0] ?? null;
    const priced = child ? unitPrice(child, now) : { price: 0, final_price: 0 };
    const qd = child ? qtyDiscountPrice(product, size) : null;
    const discountPrice = qd != null && qd < priced.final_price ? qd : null;
    const grams = sizeWeightGrams(size, 0);
    const pays = discountPrice ?? priced.final_price;
    return {
      size,
      label: sizeLongLabel(size),
      child,
      available: Boolean(child && available.has(child.sku)),
      price: priced.price,
      finalPrice: priced.final_price,
      discountPrice,
      perGram: child && grams > 0 ? Math.round(pays / grams) : null,
    };
  });
}

export interface KitMember {
  sku: string;
  name: string;
  qty: number;
  price: Cents;
  finalPrice: Cents;
  inStock: boolean;
}

/**
 * The members productPrice sums (spec §4, §5): grouped — each available associated member at
 * qty 1; bundle — each option's default available selection (else its first) times its qty.
 */
export function kitMembers(product: CatalogProduct, now: Date): KitMember[] {
  const line = (m: LinkedProduct, qty: number): KitMember => {
    const u = unitPrice(m, now);
    return { sku: m.sku, name: m.name, qty, price: u.price, finalPrice: u.final_price, inStock: m.stock.is_in_stock };
  };
  const usable = (l: { product?: LinkedProduct }) => Boolean(l.product && isMemberAvailable(l.product));
  if (product.type_id === 'grouped') {
    return product.product_links.filter((l) => l.link_type === 'associated' && usable(l)).map((l) => line(l.product!, 1));
  }
  if (product.type_id === 'bundle') {
    return [...product.bundle_options]
      .sort((a, b) => a.position - b.position)
      .flatMap((o) => {
        const links = [...o.product_links].filter(usable).sort((a, b) => a.position - b.position);
        const pick = links.find((l) => l.is_default) ?? links[0];
        return pick ? [line(pick.product!, pick.qty > 0 ? pick.qty : 1)] : [];
      });
  }
  return [];
}

export interface Offer {
  sku: string;
  price: Cents;
  inStock: boolean;
  childSku?: string;
}

/** Offers for JSON-LD: each enabled child of a configurable, else the product's own price. */
export function productOffers(product: CatalogProduct, now: Date): Offer[] {
  if (product.type_id === 'configurable') {
    return product.configurable_children
      .filter((c) => c.status < 2)
      .map((c) => ({ sku: c.sku, price: unitPrice(c, now).final_price, inStock: c.stock.is_in_stock, childSku: c.sku }));
  }
  const priced = productPrice(product, now);
  return [{ sku: product.sku, price: priced.final_price, inStock: product.stock.is_in_stock }];
}

/** Gallery images: the main image first, then the gallery by position, no duplicates, no `no_selection`. */
export function galleryImages(product: Pick<CatalogProduct, 'image' | 'media_gallery' | 'name'>): { image: string; alt: string }[] {
  const out: { image: string; alt: string }[] = [];
  const add = (image: string | null | undefined, label: string | null | undefined) => {
    if (!image || image === 'no_selection' || out.some((o) => o.image === image)) return;
    out.push({ image, alt: label || product.name });
  };
  add(product.image, product.name);
  for (const m of [...product.media_gallery].sort((a, b) => a.position - b.position)) add(m.image, m.label);
  return out;
}

export interface CompareRow {
  sku: string;
  name: string;
  path: string;
  image: string | null;
  brand: string | null;
  strainType: string | null;
  thc: number | null;
  cbd: number | null;
  price: Cents;
  finalPrice: Cents;
  priceFrom: boolean;
  /** Size labels that can be bought now. */
  sizes: string[];
  categories: string[];
  licenseType: CatalogProduct['license_type'];
  tags: string[];
  inStock: boolean;
}

/** The comparable attributes of a product, for the compare table (spec §2 Compare Products). */
export function compareRow(product: CatalogProduct, now: Date, path: string): CompareRow {
  const priced = productPrice(product, now);
  const sizes = sizeChoices(product, now)
    .filter((c) => c.available)
    .map((c) => c.label);
  return {
    sku: product.sku,
    name: product.name,
    path,
    image: product.image && product.image !== 'no_selection' ? product.image : null,
    brand: product.brand,
    strainType: product.strain_type,
    thc: product.thc_percent,
    cbd: product.cbd_percent,
    price: priced.price,
    finalPrice: priced.final_price,
    priceFrom: priced.from,
    sizes,
    categories: product.category.map((c) => c.name),
    licenseType: product.license_type,
    tags: product.discovery_tags,
    inStock: product.type_id === 'configurable' ? availableChildren(product).length > 0 : product.stock.is_in_stock,
  };
}

/** `?skus=a,b,a, c` → `['a', 'b', 'c']`: unique, trimmed, at most `max`. */
export function parseSkuList(raw: string | null, max = 12): string[] {
  if (!raw) return [];
  return [...new Set(raw.split(',').map((s) => s.trim()).filter((s) => s && s.length <= 64))].slice(0, max);
}
