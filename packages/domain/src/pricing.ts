/**
 * Product prices of spec §4 in integer cents: what a card or a product page shows for each
 * product type, option add-ons, and the weight-based quantity discounts of spec §1/§9.
 * Kits multiply a unit price by a link qty and round each line to the cent before summing, so a
 * total is always the exact sum of the lines a shopper could add up.
 */
import { CART_COPY } from './cart/messages.ts';
import type { Cents } from './money.ts';
import { percentOf } from './money.ts';
import type { BundleOption, CatalogProduct, CustomOption, LinkedProduct, ProductLink, QtyDiscount } from './product.ts';
import { isSizeId, PREFERRED_SIZE_ID, sizeWeightGrams } from './sizes.ts';
import { isMemberAvailable } from './stock.ts';
import { cartUnitPrice, tierOffers, unitPrice, type TierOffer, type UnitPrice, type UnitPriceInput } from './unit-price.ts';
import { availableChildren } from './variants.ts';

export interface ProductPrice {
  /** Regular price (for configurables: of the cheapest available child). */
  price: Cents;
  /** After active specials and group tier prices; never above `price`. */
  final_price: Cents;
  /** Shown as "from": a configurable whose available children differ in final price. */
  from: boolean;
  /** The priced part has an active special (for kits: any chosen member). */
  sale: boolean;
}

export type PricedProduct = Pick<
  CatalogProduct,
  | 'type_id'
  | 'price'
  | 'special_price'
  | 'special_from_date'
  | 'special_to_date'
  | 'tier_prices'
  | 'configurable_children'
  | 'product_links'
  | 'bundle_options'
>;

export interface CustomOptionSelection {
  option_id: number;
  option_type_id: number;
}

/**
 * simple, virtual, downloadable: their own price. configurable: the cheapest available child by
 * final price (then regular price, then size 92); with no available child, the parent's own
 * price fields (productErrors tells the page it cannot be bought). grouped: 0 plus each available
 * associated member at qty 1. bundle: each option's default available selection (else its first
 * available, by position) times the link qty (default 1). Members must have status 1 and be in
 * stock (spec §5), as the server's home lists price them.
 */
export function productPrice(product: PricedProduct, now: Date, customerGroupId = 0): ProductPrice {
  switch (product.type_id) {
    case 'configurable':
      return configurablePrice(product, now, customerGroupId);
    case 'grouped':
      return sumLines(groupedLines(product.product_links ?? []), now, customerGroupId);
    case 'bundle': {
      const options = product.bundle_options ?? [];
      return bundlePrice(options, defaultBundleChoice(options), now, customerGroupId);
    }
    default: {
      const own = unitPrice(product, now, customerGroupId);
      return { price: own.price, final_price: own.final_price, from: false, sale: own.sale };
    }
  }
}

function configurablePrice(product: PricedProduct, now: Date, group: number): ProductPrice {
  const cheapest = cheapestAvailableChild(product, now, group);
  if (!cheapest) {
    const own = unitPrice(product, now, group);
    return { price: own.price, final_price: own.final_price, from: false, sale: own.sale };
  }
  const children = availableChildren(product);
  const finals = new Set<Cents>();
  // On sale when any available size is: the same rule the catalogue's sale filter uses.
  let anySale = false;
  for (const child of children) {
    const p = unitPrice(child, now, group);
    finals.add(p.final_price);
    anySale ||= p.sale;
  }
  const chosen = cheapest.price;
  return { price: chosen.price, final_price: chosen.final_price, from: finals.size > 1, sale: anySale };
}

/**
 * The available child a configurable is listed at (spec §4): the cheapest by final price, then by
 * regular price, then size 92; null when none is available. Its size is the weight a card's
 * "from" price is for.
 */
export function cheapestAvailableChild(
  product: Pick<PricedProduct, 'configurable_children'>,
  now: Date,
  group = 0,
): { child: PricedProduct['configurable_children'][number]; price: UnitPrice } | null {
  let best: { child: PricedProduct['configurable_children'][number]; price: UnitPrice; preferred: boolean } | null = null;
  for (const child of availableChildren(product)) {
    const p = unitPrice(child, now, group);
    const preferred = child.size === PREFERRED_SIZE_ID;
    if (
      !best ||
      p.final_price < best.price.final_price ||
      (p.final_price === best.price.final_price &&
        (p.price < best.price.price || (p.price === best.price.price && preferred && !best.preferred)))
    ) {
      best = { child, price: p, preferred };
    }
  }
  return best ? { child: best.child, price: best.price } : null;
}

interface Line {
  member: LinkedProduct;
  qty: number;
}

function linkQty(link: ProductLink): number {
  return Number.isFinite(link.qty) && link.qty > 0 ? link.qty : 1;
}

function usable(link: ProductLink): link is ProductLink & { product: LinkedProduct } {
  return link.product != null && isMemberAvailable(link.product);
}

function groupedLines(links: readonly ProductLink[]): Line[] {
  // Grouped members count at qty 1 whatever their link says (spec §4).
  return links.filter((l) => l.link_type === 'associated' && usable(l)).map((l) => ({ member: l.product!, qty: 1 }));
}

function byPosition<T extends { position: number }>(items: readonly T[]): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => a.item.position - b.item.position || a.i - b.i)
    .map((x) => x.item);
}

/**
 * A shopper's bundle choice (spec §4 Configuring, §3 bundle_options): per option id, the skus of
 * the chosen members. The cart payload names links by id; the rules here only need the member.
 */
export type BundleChoice = Readonly<Record<number, readonly string[]>>;

/** radio and select options take one member; checkbox and multi take any number. */
export function isSingleChoiceOption(option: Pick<BundleOption, 'type'>): boolean {
  return option.type === 'radio' || option.type === 'select';
}

/**
 * The choice a bundle is listed with (spec §4 Pricing): each option's default link when its
 * member is available, else its first available link by position. Options with no available
 * member get no selection.
 */
export function defaultBundleChoice(options: readonly BundleOption[]): BundleChoice {
  const choice: Record<number, string[]> = {};
  for (const option of byPosition(options)) {
    const links = byPosition(option.product_links ?? []).filter(usable);
    const selection = links.find((l) => l.is_default) ?? links[0];
    choice[option.option_id] = selection ? [selection.linked_product_sku] : [];
  }
  return choice;
}

export interface BundleMember {
  option: BundleOption;
  link: ProductLink & { product: LinkedProduct };
  /** Member units in one bundle: the link qty (default 1). */
  qty: number;
}

/**
 * The members a choice puts in one bundle, option by option (by position): each chosen sku that
 * is an available member of its option (spec §5: status 1 and in stock), with its link qty.
 */
export function bundleMembers(options: readonly BundleOption[], choice: BundleChoice): BundleMember[] {
  const out: BundleMember[] = [];
  for (const option of byPosition(options)) {
    const links = byPosition(option.product_links ?? []).filter(usable);
    for (const sku of new Set(choice[option.option_id] ?? [])) {
      const link = links.find((l) => l.linked_product_sku === sku);
      if (link) out.push({ option, link, qty: linkQty(link) });
    }
  }
  return out;
}

/**
 * Why a bundle choice cannot be added, or null (spec §8 "Please configure product bundle options
 * and custom options."): a required option without a member, a single-choice option with more
 * than one, or a chosen sku that is not an available member of its option.
 */
export function bundleChoiceProblem(options: readonly BundleOption[], choice: BundleChoice): string | null {
  for (const option of options) {
    const chosen = [...new Set(choice[option.option_id] ?? [])];
    const links = (option.product_links ?? []).filter(usable);
    if (chosen.some((sku) => !links.some((l) => l.linked_product_sku === sku))) return CART_COPY.configureOptions;
    if (option.required && chosen.length === 0) return CART_COPY.configureOptions;
    if (isSingleChoiceOption(option) && chosen.length > 1) return CART_COPY.configureOptions;
  }
  return null;
}

/**
 * A bundle's price for a choice: each chosen available member's unit price (at qty 1, with the
 * customer group's tiers) times its link qty, rounded to the cent, summed — as the server's cart
 * prices the line. `productPrice` is this with the default choice.
 */
export function bundlePrice(options: readonly BundleOption[], choice: BundleChoice, now: Date, customerGroupId = 0): ProductPrice {
  return sumLines(
    bundleMembers(options, choice).map((m) => ({ member: m.link.product, qty: m.qty })),
    now,
    customerGroupId,
  );
}

function sumLines(lines: readonly Line[], now: Date, group: number): ProductPrice {
  let price = 0;
  let final = 0;
  let sale = false;
  for (const { member, qty } of lines) {
    const u = unitPrice(member, now, group);
    price += Math.round(u.price * qty);
    final += Math.round(u.final_price * qty);
    sale ||= u.sale;
  }
  return { price, final_price: final, from: false, sale };
}

/**
 * The product price plus the chosen custom-option add-ons (spec §4). A selection counts only
 * when its option_type_id is above 0 and names a value of that option; fixed add-ons are cents
 * as is, percent add-ons a percentage of `basePrice` rounded to the cent. A total below zero
 * (negative add-ons) is clamped to 0: a price is never negative.
 */
export function customOptionsPrice(
  basePrice: Cents,
  options: readonly CustomOption[],
  selections: readonly CustomOptionSelection[],
): Cents {
  let total = basePrice;
  for (const s of selections) {
    if (!(s.option_type_id > 0)) continue;
    const value = options.find((o) => o.option_id === s.option_id)?.values.find((v) => v.option_type_id === s.option_type_id);
    if (!value) continue;
    total += value.price_type === 'percent' ? percentOf(basePrice, value.price) : Math.round(value.price);
  }
  return Math.max(0, total);
}

/**
 * The quantity-discount price for a size: the discount whose qty_to_buy equals the size's
 * weight in grams (default weight 1 when the size is unknown or missing, spec §9), or null.
 */
export function qtyDiscountPrice(product: Pick<CatalogProduct, 'discounts'>, sizeId: number | null | undefined): Cents | null {
  return weightPrice(product.discounts ?? [], sizeId);
}

/**
 * The weight price (spec §9): the quantity discount whose qty_to_buy equals the size's weight in
 * grams (default weight 1), as the total for that weight. Negative prices are data errors.
 */
export function weightPrice(discounts: readonly QtyDiscount[], sizeId: number | null | undefined): Cents | null {
  const grams = sizeWeightGrams(sizeId);
  const match = discounts.find((d) => d.TYPE === 'qty_discount' && Math.abs(d.qty_to_buy - grams) < 1e-9 && d.price >= 0);
  return match ? match.price : null;
}

/**
 * The weight price of a real size id (spec §9), else null: the spec's default weight of 1 g suits
 * a listing, but a unit without a size must never be charged the 1 g weight price.
 */
export function sizeWeightPrice(discounts: readonly QtyDiscount[] | null | undefined, size: number | null | undefined): Cents | null {
  return size != null && isSizeId(size) ? weightPrice(discounts ?? [], size) : null;
}

/**
 * What the cart charges for one unit of a chosen configurable child (or a simple product, with
 * `parent` null): cartUnitPrice with the parent's weight price for the child's size. The product
 * page's headline and size prices are this, so the page shows exactly what the cart charges.
 */
export function chosenUnitPrice(
  unit: UnitPriceInput & { size?: number | null },
  parent: Pick<CatalogProduct, 'discounts'> | null,
  now: Date,
  customerGroupId = 0,
  qty = 1,
): UnitPrice {
  return cartUnitPrice(unit, { now, customerGroupId, qty, weightPrice: parent ? sizeWeightPrice(parent.discounts, unit.size) : null });
}

/**
 * The "Buy 3+: $X each" offers of a chosen unit for a customer group: the quantities from which
 * chosenUnitPrice charges less each (the group's tiers, else the default group's; weight price and
 * special included), so an offer is exactly what the cart charges at that quantity.
 */
export function chosenTierOffers(
  unit: UnitPriceInput & { size?: number | null },
  parent: Pick<CatalogProduct, 'discounts'> | null,
  now: Date,
  customerGroupId = 0,
): TierOffer[] {
  return tierOffers(unit, { now, customerGroupId, weightPrice: parent ? sizeWeightPrice(parent.discounts, unit.size) : null });
}
