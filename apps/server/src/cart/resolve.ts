/**
 * From a line a client asks for (sku, qty, size, product_option) to what the server sells: the
 * sellable sku, its server price, and its components — what stock, tax and purchase limits are
 * counted on. Pure over the products ./prices/loader.ts read.
 *
 *  - simple / virtual / downloadable, and a configurable child by its own sku: one component;
 *    a child takes its parent's weight price for its size.
 *  - a configurable parent needs a size (`size`, or configurable_item_options) naming a child.
 *  - grouped: expands into one line per available member (as the original client did).
 *  - bundle: one line; each option's chosen selections (else its default, else its first
 *    available member) are components, each priced, taxed, stocked and limited on its own. An
 *    optional option asked for with an empty selection list has no component.
 *  - custom options add their price (domain customOptionsPrice; text options their own price).
 */
import {
  customOptionsPrice,
  isEnabledStatus,
  isSizeId,
  percentOf,
  sizeWeightGrams,
  type Cents,
  type ProductLicenseType,
  type ProductType,
  type StockInfo,
} from '@verdant/domain';
import { ApiError } from '../http/envelope.ts';
import type { LoadedCustomOption, LoadedLink, LoadedProduct, SellableUnit } from '../prices/loader.ts';
import { priceUnit, weightPriceFor } from '../prices/unit-price.ts';
import type { LimitItem } from '@verdant/domain';
import { CART_MESSAGES as M } from './messages.ts';
import type { LineInput, ProductOptionInput } from './schemas.ts';

export interface Component {
  productId: number;
  sku: string;
  /** Member units in one unit of the line (bundle link qty × option qty; 1 otherwise). */
  qtyPerUnit: number;
  unitPrice: Cents;
  taxClassId: number;
  limit: Omit<LimitItem, 'qty'>;
  /** Stock used by one member unit: the size's grams for `g` products, else 1. */
  stockPerUnit: number;
  stock: StockInfo | null;
}

export interface ResolvedLine {
  sku: string;
  parentSku: string | null;
  size: number | null;
  productType: ProductType;
  productId: number;
  name: string;
  qty: number;
  /** Lines with the same key are one line (sku + chosen options). */
  key: string;
  productOption: StoredOption | null;
  licenseTypes: ProductLicenseType[];
  unitPrice: Cents;
  originalPrice: Cents;
  specialPrice: Cents | null;
  components: Component[];
  uom: string;
  cannaType: number | null;
  unitWeight: number | null;
}

export interface StoredOption {
  extension_attributes: {
    custom_options?: { option_id: number; option_value: string }[];
    bundle_options?: { option_id: number; option_qty: number; option_selections: number[] }[];
  };
}

export interface ResolveContext {
  now: Date;
  groupId: number;
}

const fail = (message: string, status = 400): never => {
  throw new ApiError(status, message);
};

/** The lines `input` stands for (several for a grouped product). Throws ApiError 400 when it cannot be sold. */
export function resolveLine(input: LineInput, products: ReadonlyMap<string, LoadedProduct>, ctx: ResolveContext): ResolvedLine[] {
  const p = products.get(input.sku) ?? fail(M.productNotFound(input.sku));
  if (!isEnabledStatus(p.status)) fail(M.productUnavailable);
  const ext = input.product_option?.extension_attributes;
  switch (p.type_id) {
    case 'configurable': {
      const size = input.size ?? ext?.configurable_item_options?.[0]?.option_value ?? null;
      const child = size == null ? undefined : p.children.find((c) => c.size === size);
      if (!child) return fail(M.noSuchConfiguration);
      return [unitLine(child, p, input, ctx)];
    }
    case 'grouped': {
      const members = p.links.filter((l) => l.linkType === 'associated' && l.product && l.product.status === 1);
      if (members.length === 0) fail(M.productUnavailable);
      return members.map((l) => unitLine(l.product!, null, { sku: l.product!.sku, qty: input.qty }, ctx));
    }
    case 'bundle':
      return [bundleLine(p, input.qty, input.product_option, ctx)];
    default: {
      if (p.parent && !isEnabledStatus(p.parent.status)) fail(M.productUnavailable);
      const parent = p.parent ? { sku: p.parent.sku, discounts: p.parent.discounts, licenseType: p.parent.licenseType } : null;
      return [unitLine(p, parent, input, ctx, p.customOptions)];
    }
  }
}

type ParentInfo = Pick<LoadedProduct, 'sku' | 'discounts' | 'licenseType'> | null;

function unitLine(unit: SellableUnit, parent: ParentInfo, input: LineInput, ctx: ResolveContext, options: LoadedCustomOption[] = []): ResolvedLine {
  if (!isEnabledStatus(unit.status)) fail(M.productUnavailable);
  const pricing = priceUnit(unit.price, {
    now: ctx.now,
    groupId: ctx.groupId,
    qty: input.qty,
    tiers: unit.tiers,
    weightPrice: parent ? weightPriceFor(parent.discounts, unit.size) : null,
  }) ?? fail(M.priceUnknown);
  const custom = normaliseCustomOptions(options, input.product_option);
  const unitPrice = withCustomOptions(pricing.final, options, custom);
  return {
    sku: unit.sku,
    parentSku: parent?.sku ?? null,
    size: unit.size,
    productType: parent ? 'configurable' : unit.type_id,
    productId: unit.id,
    name: unit.name,
    qty: input.qty,
    key: `${unit.sku}|${custom.length ? JSON.stringify(custom) : ''}`,
    // A child line names its size in `size` and `parentSku`; only custom options need storing.
    productOption: custom.length ? { extension_attributes: { custom_options: custom } } : null,
    licenseTypes: parent ? [unit.licenseType, parent.licenseType] : [unit.licenseType],
    unitPrice,
    originalPrice: pricing.original,
    specialPrice: pricing.special,
    components: [component(unit, 1, unitPrice)],
    uom: unit.uom,
    cannaType: unit.cannaType,
    unitWeight: unit.unitWeight,
  };
}

function component(unit: SellableUnit, qtyPerUnit: number, unitPrice: Cents): Component {
  return {
    productId: unit.id,
    sku: unit.sku,
    qtyPerUnit,
    unitPrice,
    taxClassId: unit.taxClassId,
    limit: { size: unit.size, unit_weight_grams_equivelent: unit.unitWeight, canna_type: unit.cannaType },
    stockPerUnit: unit.uom === 'g' ? sizeWeightGrams(isSizeId(unit.size) ? unit.size : null) : 1,
    stock: unit.stock,
  };
}

/** Chosen custom options, sorted, each checked against the product's options; required ones must be there. */
function normaliseCustomOptions(options: readonly LoadedCustomOption[], po: ProductOptionInput): { option_id: number; option_value: string }[] {
  const chosen = new Map<number, string>();
  for (const c of po?.extension_attributes?.custom_options ?? []) {
    const option = options.find((o) => o.option_id === c.option_id) ?? fail(M.configureOptions);
    const value = c.option_value.trim();
    if (value === '') continue;
    if (option.values.length > 0) {
      const ids = value.split(',').map((v) => Number(v.trim()));
      const multi = option.type === 'checkbox' || option.type === 'multiple';
      if ((!multi && ids.length > 1) || ids.some((id) => !option.values.some((v) => v.option_type_id === id))) fail(M.configureOptions);
      chosen.set(option.option_id, [...new Set(ids)].sort((a, b) => a - b).join(','));
    } else {
      chosen.set(option.option_id, value);
    }
  }
  for (const o of options) if (o.is_require && !chosen.has(o.option_id)) fail(M.configureOptions);
  return [...chosen.entries()].sort(([a], [b]) => a - b).map(([option_id, option_value]) => ({ option_id, option_value }));
}

function withCustomOptions(base: Cents, options: readonly LoadedCustomOption[], chosen: readonly { option_id: number; option_value: string }[]): Cents {
  const selections = chosen.flatMap((c) => {
    const o = options.find((x) => x.option_id === c.option_id)!;
    return o.values.length ? c.option_value.split(',').map((id) => ({ option_id: o.option_id, option_type_id: Number(id) })) : [];
  });
  let total = customOptionsPrice(base, options, selections);
  // Text options (engraving) carry their own price on the option; the domain rule prices values only.
  for (const c of chosen) {
    const own = options.find((x) => x.option_id === c.option_id)!.own;
    if (own) total += own.price_type === 'percent' ? percentOf(base, own.price) : Math.round(own.price);
  }
  return Math.max(0, total);
}

function bundleLine(p: LoadedProduct, qty: number, po: ProductOptionInput, ctx: ResolveContext): ResolvedLine {
  const asked = po?.extension_attributes?.bundle_options ?? [];
  for (const a of asked) if (!p.bundleOptions.some((o) => o.option_id === a.option_id)) fail(M.configureOptions);
  const components: Component[] = [];
  const stored: { option_id: number; option_qty: number; option_selections: number[] }[] = [];
  const licenseTypes: ProductLicenseType[] = [p.licenseType];
  for (const option of p.bundleOptions) {
    const links = p.links.filter((l) => l.linkType === 'bundle' && l.bundleOptionId === option.option_id);
    const a = asked.find((x) => x.option_id === option.option_id);
    let picked: LoadedLink[];
    if (a?.option_selections?.length) {
      picked = a.option_selections.map((id) => links.find((l) => l.id === id) ?? fail(M.configureOptions));
      const single = option.type === 'radio' || option.type === 'select';
      if (single && picked.length > 1) fail(M.configureOptions);
    } else if (a?.option_selections && !option.required) {
      // An optional option asked for with no selection: the shopper chose none of it. Stored as
      // such, so the line keeps saying so when it is read again (no default slips back in).
      stored.push({ option_id: option.option_id, option_qty: a.option_qty ?? 1, option_selections: [] });
      continue;
    } else {
      // As the product card prices it: the default member, else the first available one.
      const usable = links.filter((l) => l.product && l.product.status === 1 && l.product.stock?.is_in_stock !== false);
      const fallback = usable.find((l) => l.isDefault) ?? usable[0];
      picked = fallback ? [fallback] : [];
    }
    if (picked.length === 0) {
      if (option.required) fail(M.productUnavailable);
      continue;
    }
    const optionQty = a?.option_qty ?? 1;
    for (const link of picked) {
      const member = link.product;
      if (!member || member.status !== 1) return fail(M.productUnavailable);
      // Members are priced at quantity 1: a bundle has one price, whatever their tiers say.
      const pricing = priceUnit(member.price, { now: ctx.now, groupId: ctx.groupId, qty: 1, tiers: member.tiers }) ?? fail(M.priceUnknown);
      const perUnit = (Number.isFinite(link.qty) && link.qty > 0 ? link.qty : 1) * optionQty;
      components.push(component(member, perUnit, pricing.final));
      licenseTypes.push(member.licenseType);
    }
    stored.push({ option_id: option.option_id, option_qty: optionQty, option_selections: picked.map((l) => l.id).sort((x, y) => x - y) });
  }
  if (components.length === 0) fail(M.productUnavailable);
  const unitPrice = components.reduce((sum, c) => sum + Math.round(c.unitPrice * c.qtyPerUnit), 0);
  return {
    sku: p.sku,
    parentSku: null,
    size: null,
    productType: 'bundle',
    productId: p.id,
    name: p.name,
    qty,
    key: `${p.sku}|${JSON.stringify(stored)}`,
    productOption: { extension_attributes: { bundle_options: stored } },
    licenseTypes,
    unitPrice,
    originalPrice: unitPrice,
    specialPrice: null,
    components,
    uom: p.uom,
    cannaType: p.cannaType,
    unitWeight: p.unitWeight,
  };
}
