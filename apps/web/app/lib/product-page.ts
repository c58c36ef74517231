/**
 * What the product page shows, computed from the catalogue document with the domain rules:
 * the size choices with their prices (spec §4 variant choice, §9 sizes and quantity discounts),
 * the stock line, grouped and bundle members and the cart lines they make, and the offers for
 * structured data.
 */
import {
  availableChildren,
  bundleMembers,
  bundlePrice,
  chosenTierOffers,
  chosenUnitPrice,
  DEFAULT_CUSTOMER_GROUP_ID,
  isMemberAvailable,
  isSingleChoiceOption,
  isSizeId,
  pricePerGram,
  productPath,
  productPrice,
  sizeLongLabel,
  sizeWeightGrams,
  stockStatus,
  unitPrice,
  type BundleChoice,
  type BundleOption,
  type CatalogProduct,
  type Cents,
  type ConfigurableChild,
  type LinkedProduct,
  type ProductLink,
  type StockInfo,
  type StockStatus,
  type TierOffer,
} from '@verdant/domain';
import type { BundleOptionsPayload } from '../api/cart.ts';
import type { NewCartItem } from '../state/cart-items.ts';

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
  /** What the cart charges for one unit of this size (the domain's chosenUnitPrice): never anything else is shown as its price. */
  charge: Cents;
  /** Per gram of what the cart charges (pricePerGram: to the cent). */
  perGram: Cents | null;
}

/** Value indexes of the size option in catalogue order; children's sizes when no option is described. */
function sizeValues(product: CatalogProduct): number[] {
  const option = product.configurable_options.find((o) => o.attribute_code === 'size');
  if (option && option.values.length > 0) return option.values.map((v) => v.value_index);
  return [...new Set(product.configurable_children.map((c) => c.size).filter((s): s is number => s != null))].sort((a, b) => a - b);
}

/**
 * The customer group a page prices with. A server render (output-cached per store, URL and
 * cookies) and the first browser render price for a guest: the store's default group, whose
 * prices and tiers apply to every group without rows of its own (the domain's groupPriceRow and
 * groupTiers). Once the page runs and knows the logged-in customer (`/api/user/me` group_id),
 * it prices with the customer's group, as the cart does.
 */
export function pageCustomerGroup(hydrated: boolean, user: { group_id: number } | null | undefined): number {
  return hydrated && user && Number.isInteger(user.group_id) ? user.group_id : DEFAULT_CUSTOMER_GROUP_ID;
}

/**
 * What the page shows for a chosen unit (a configurable's child with its parent, or a simple
 * product with `parent` null) at a quantity, for a customer group: the unit price the cart charges
 * at that quantity (chosenUnitPrice) and the group's "Buy N+" offers (chosenTierOffers).
 */
export function chosenPriceView(
  unit: Parameters<typeof chosenUnitPrice>[0],
  parent: CatalogProduct | null,
  now: Date,
  group: number,
  qty: number,
): { price: Cents; final_price: Cents; sale: boolean; offers: TierOffer[] } {
  const q = Number.isInteger(qty) && qty > 0 ? qty : 1;
  return { ...chosenUnitPrice(unit, parent, now, group, q), offers: chosenTierOffers(unit, parent, now, group) };
}

/**
 * One choice per size of a configurable (spec §4): its child, whether that child may be offered
 * (availableChildren: enabled and in stock), the child's price with an active special, the
 * quantity-discount price (qtyDiscountPrice) and the price per gram — for the shopper's customer
 * group (pageCustomerGroup), at quantity 1.
 */
export function sizeChoices(product: CatalogProduct, now: Date, group = DEFAULT_CUSTOMER_GROUP_ID): SizeChoice[] {
  if (product.type_id !== 'configurable') return [];
  const available = new Set(availableChildren(product).map((c) => c.sku));
  return sizeValues(product).map((size) => {
    const children = product.configurable_children.filter((c) => c.size === size);
    const child = children.find((c) => available.has(c.sku)) ?? children[0] ?? null;
    const priced = child ? unitPrice(child, now, group) : { price: 0, final_price: 0 };
    const charge = child ? chosenUnitPrice(child, product, now, group).final_price : 0;
    const discountPrice = charge < priced.final_price ? charge : null;
    const grams = sizeWeightGrams(size, 0);
    return {
      size,
      label: sizeLongLabel(size),
      child,
      available: Boolean(child && available.has(child.sku)),
      price: priced.price,
      finalPrice: priced.final_price,
      discountPrice,
      charge,
      perGram: child && grams > 0 ? pricePerGram(charge, grams) : null,
    };
  });
}

/** A grouped or bundle member as the product page offers it (spec §5: only members with status 1). */
export interface KitChoiceMember {
  /** The link id a bundle selection is named by in the cart (null when the catalogue lacks it). */
  linkId: number | null;
  sku: string;
  name: string;
  /** Units in one kit: a bundle link's qty (default 1); 1 in a grouped set. */
  qty: number;
  /** `3.5 g (1/8 oz)` for a weighed member, else `Each`. */
  sizeLabel: string;
  /** Unit prices. */
  price: Cents;
  finalPrice: Cents;
  stock: { status: StockStatus; label: string };
  /** In stock (spec §5: members must be, by default); others are shown but cannot be chosen. */
  available: boolean;
  member: LinkedProduct;
}

export interface BundleOptionView {
  option_id: number;
  title: string;
  required: boolean;
  type: BundleOption['type'];
  /** radio and select take one member; checkbox and multi any number. */
  single: boolean;
  members: KitChoiceMember[];
}

const byPosition = <T extends { position: number }>(items: readonly T[]): T[] =>
  items.map((item, i) => ({ item, i })).sort((a, b) => a.item.position - b.item.position || a.i - b.i).map((x) => x.item);

function choiceMember(link: ProductLink & { product: LinkedProduct }, qty: number, now: Date, group: number): KitChoiceMember {
  const m = link.product;
  const u = unitPrice(m, now, group);
  return {
    linkId: link.id ?? null,
    sku: m.sku,
    name: m.name,
    qty,
    sizeLabel: isSizeId(m.size) ? sizeLongLabel(m.size) : 'Each',
    price: u.price,
    finalPrice: u.final_price,
    stock: stockLabel(m.stock),
    available: isMemberAvailable(m),
    member: m,
  };
}

/** Members of status 1 (a disabled one is not there for a shopper, spec §5); an out-of-stock one stays, marked. */
const listed = (l: ProductLink): l is ProductLink & { product: LinkedProduct } => l.product != null && isMemberAvailable(l.product, true);

/** A grouped product's members, by position, each at qty 1 (spec §4 Pricing). */
export function groupedMembers(product: Pick<CatalogProduct, 'product_links'>, now: Date, group = DEFAULT_CUSTOMER_GROUP_ID): KitChoiceMember[] {
  return byPosition(product.product_links.filter((l) => l.link_type === 'associated')).filter(listed).map((l) => choiceMember(l, 1, now, group));
}

/** A bundle's options by position, each with its listed members and their link qty. */
export function bundleOptionViews(product: Pick<CatalogProduct, 'bundle_options'>, now: Date, group = DEFAULT_CUSTOMER_GROUP_ID): BundleOptionView[] {
  return byPosition(product.bundle_options).map((o) => ({
    option_id: o.option_id,
    title: o.title,
    required: o.required,
    type: o.type,
    single: isSingleChoiceOption(o),
    members: byPosition(o.product_links).filter(listed).map((l) => choiceMember(l, Number.isFinite(l.qty) && l.qty > 0 ? l.qty : 1, now, group)),
  }));
}

/** The quantities a grouped form starts with: one of each member that can be bought. */
export function initialGroupedQtys(members: readonly KitChoiceMember[]): Record<string, number> {
  return Object.fromEntries(members.map((m) => [m.sku, m.available ? 1 : 0]));
}

/**
 * The bundle options a choice sends (spec §3 product_option): every option, its chosen available
 * members by link id (none for an optional option left empty), qty 1. Null when a chosen member
 * has no link id (an old catalogue document): the server could not tell which one was meant.
 */
export function bundlePayload(options: readonly BundleOption[], choice: BundleChoice): BundleOptionsPayload | null {
  const members = bundleMembers(options, choice);
  const out: BundleOptionsPayload['extension_attributes']['bundle_options'] = [];
  for (const o of byPosition(options)) {
    const ids = members.filter((m) => m.option.option_id === o.option_id).map((m) => m.link.id);
    if (ids.some((id) => id == null)) return null;
    out.push({ option_id: o.option_id, option_qty: 1, option_selections: (ids as number[]).sort((a, b) => a - b) });
  }
  return { extension_attributes: { bundle_options: out } };
}

/**
 * The cart line a configured bundle makes: one line of the bundle sku with its options and its
 * members (shown on the line and weighed for the purchase limit), priced by the domain's rule.
 */
export function newBundleItem(product: CatalogProduct, choice: BundleChoice, qty: number, now: Date, group = DEFAULT_CUSTOMER_GROUP_ID): NewCartItem | null {
  const productOption = bundlePayload(product.bundle_options, choice);
  if (!productOption) return null;
  return {
    sku: product.sku,
    qty,
    type_id: 'bundle',
    parentSku: null,
    size: null,
    name: product.name,
    image: product.image,
    path: productPath(product),
    price: bundlePrice(product.bundle_options, choice, now, group).final_price,
    tax_class_id: product.tax_class_id,
    uom: product.uom,
    canna_type: null,
    unit_weight_grams_equivelent: null,
    license_type: product.license_type,
    product_option: productOption,
    kit: bundleMembers(product.bundle_options, choice).map(({ link, qty: per }) => ({
      sku: link.product.sku,
      name: link.product.name,
      qty: per,
      size: link.product.size ?? null,
      canna_type: link.product.canna_type ?? null,
      unit_weight_grams_equivelent: link.product.unit_weight_grams_equivelent ?? null,
    })),
  };
}

/**
 * The cart line a grouped member makes: the server sells a grouped set as its members' own lines
 * (apps/server/src/cart/resolve.ts), so each chosen member is a line of its own sku, linking back
 * to the set's page. Like a simple product, its size only weighs it for the purchase limit.
 */
export function newGroupedMemberItem(product: CatalogProduct, member: LinkedProduct, qty: number, now: Date, group = DEFAULT_CUSTOMER_GROUP_ID): NewCartItem {
  const size = isSizeId(member.size) ? member.size : null;
  return {
    sku: member.sku,
    qty,
    type_id: member.type_id,
    parentSku: null,
    size: null,
    name: member.name,
    image: product.image,
    path: productPath(product),
    price: unitPrice(member, now, group).final_price,
    tax_class_id: null,
    uom: member.uom ?? 'ea',
    canna_type: member.canna_type ?? null,
    unit_weight_grams_equivelent: member.unit_weight_grams_equivelent ?? (size != null ? sizeWeightGrams(size) : null),
    license_type: product.license_type,
  };
}

export interface Offer {
  sku: string;
  price: Cents;
  inStock: boolean;
  childSku?: string;
}

/** Offers for JSON-LD (a server render: the default group's prices): each enabled child of a configurable, else the product's own price. */
export function productOffers(product: CatalogProduct, now: Date, group = DEFAULT_CUSTOMER_GROUP_ID): Offer[] {
  if (product.type_id === 'configurable') {
    return product.configurable_children
      .filter((c) => c.status < 2)
      .map((c) => ({ sku: c.sku, price: chosenUnitPrice(c, product, now, group).final_price, inStock: c.stock.is_in_stock, childSku: c.sku }));
  }
  const priced = productPrice(product, now, group);
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
