/**
 * `GET /api/products/render-list` (spec §7 Prices, §3 platform price response): the server's
 * current price of each sku, read from the database, with per-unit excise and sales tax from the
 * store's named tax lines (issue 14, tax/section.ts) for a recreational shopper: exactly what a
 * cart with one unit pays (domain displayedTax; a kit's members are taxed together, as the cart
 * rounds them). Read on each request, so a tax-line save shows on the next one. Unknown skus are
 * listed, not fatal. Amounts in cents;
 * `price` is what one unit costs now (special, tier at qty 1 and weight price applied),
 * `original_price` the regular price, `special_price` the active special or null, and a price
 * of null means the product has no price and cannot be sold.
 *
 * userGroupId selects a customer group's prices for display only: carts and orders price with
 * the group of the logged-in customer (the accounts issue adds group tokens), never this value.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { displayedTax, isChildAvailable, isEnabledStatus, type Cents } from '@verdant/domain';
import type { CommerceContext } from '../commerce-context.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import { resolveLine } from '../cart/resolve.ts';
import { taxFactsOf } from '../tax/facts.ts';
import { taxLinesOf } from '../tax/section.ts';
import { loadProducts, type LoadedProduct, type SellableUnit } from './loader.ts';
import { priceUnit, weightPriceFor } from './unit-price.ts';

export const MAX_RENDER_LIST_SKUS = 100;

const querySchema = z.object({
  skus: z
    .string({ error: 'skus is required' })
    .transform((s) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))])
    .refine((a) => a.length > 0, 'skus is required')
    .refine((a) => a.length <= MAX_RENDER_LIST_SKUS, `At most ${MAX_RENDER_LIST_SKUS} skus per request`)
    .refine((a) => a.every((s) => s.length <= 128), 'sku is too long'),
  currencyCode: z.string({ error: 'currencyCode is required' }).trim().toUpperCase(),
  storeId: z.coerce.number({ error: 'storeId must be a number' }).int('storeId must be a number').positive('storeId must be a number'),
  userGroupId: z.coerce.number().int().nonnegative().optional(),
  token: z.string().optional(),
});

interface UnitView {
  price: Cents | null;
  original_price: Cents | null;
  special_price: Cents | null;
  excise_tax: Cents;
  sales_tax: Cents;
}

export function registerRenderListRoute(app: FastifyInstance, c: CommerceContext): void {
  app.get(
    '/api/products/render-list',
    { config: { docs: { summary: 'Prices of products now (price, special, taxes; integer cents)', description: '`skus` is a comma-separated list; `userGroupId` picks a price tier.', tags: ['Prices'], query: querySchema, security: 'none', errors: { 404: 'No such store' } } } },
    async (request) => {
    const q = parseOr400(querySchema, request.query, 'shopper');
    const store = c.registry.stores.find((s) => s.storeId === q.storeId);
    if (!store) throw new ApiError(404, `Store ${q.storeId} does not exist`);
    if (q.currencyCode !== store.i18n.currencyCode) throw new ApiError(400, `currencyCode must be ${store.i18n.currencyCode} for this store`);
    const group = q.userGroupId ?? store.tax.userGroupId;
    const [products, lines] = await Promise.all([loadProducts(c.db, store.storeId, q.skus, group), taxLinesOf(c.db, store)]);
    const facts = await taxFactsOf(c.db, store.storeId, [...products.values()].flatMap(productIds));
    const taxOf: TaxOf = (components) =>
      displayedTax(
        components.map((x) => ({ net: x.net, taxClassId: x.taxClassId, kind: facts.get(x.productId)?.kind ?? null, thcPercent: facts.get(x.productId)?.thcPercent ?? null })),
        lines,
      );
    const now = c.now();
    const items = q.skus.flatMap((sku) => {
      const p = products.get(sku);
      return p ? [renderItem(p, group, now, taxOf)] : [];
    });
    return ok({ items, unknown_skus: q.skus.filter((s) => !products.has(s)) });
  });
}

/** The displayed taxes of one unit's worth of components (the store's lines; see the header). */
type TaxOf = (components: { productId: number; net: Cents; taxClassId: number }[]) => { excise: Cents; sales: Cents };

/** Every product whose tax facts a rendered item needs: itself, its children, its kit members. */
function productIds(p: LoadedProduct): number[] {
  return [p.id, ...p.children.map((c) => c.id), ...p.links.flatMap((l) => (l.product ? [l.product.id] : []))];
}

function unitView(u: SellableUnit, discounts: LoadedProduct['discounts'], group: number, now: Date, taxOf: TaxOf): UnitView {
  const p = priceUnit(u.price, { now, groupId: group, qty: 1, tiers: u.tiers, weightPrice: weightPriceFor(discounts, u.size) });
  if (!p) return { price: null, original_price: null, special_price: null, excise_tax: 0, sales_tax: 0 };
  const tax = taxOf([{ productId: u.id, net: p.final, taxClassId: u.taxClassId }]);
  return { price: p.final, original_price: p.original, special_price: p.special, excise_tax: tax.excise, sales_tax: tax.sales };
}

function renderItem(p: LoadedProduct, group: number, now: Date, taxOf: TaxOf) {
  const base = { sku: p.sku, status: p.status, size: p.size, tier_prices: p.tiers };
  if (p.type_id === 'configurable') {
    const children = p.children.map((ch) => ({ sku: ch.sku, size: ch.size, status: ch.status, ...unitView(ch, p.discounts, group, now, taxOf) }));
    // The parent shows its cheapest available child (any child when none is available).
    const pool = children.filter((ch, i) => ch.price != null && isChildAvailable({ status: ch.status, stock: p.children[i].stock ?? { is_in_stock: false } }));
    const candidates = pool.length ? pool : children.filter((ch) => ch.price != null);
    const cheapest = candidates.reduce<(typeof children)[number] | null>((best, ch) => (!best || ch.price! < best.price! ? ch : best), null);
    return {
      ...base,
      price: cheapest?.price ?? null,
      original_price: cheapest?.original_price ?? null,
      special_price: cheapest?.special_price ?? null,
      excise_tax: cheapest?.excise_tax ?? 0,
      sales_tax: cheapest?.sales_tax ?? 0,
      discounts: p.discounts,
      configurable_children: children,
    };
  }
  if (p.type_id === 'grouped' || p.type_id === 'bundle') {
    return { ...base, ...kitView(p, group, now, taxOf), discounts: [], configurable_children: [] };
  }
  const discounts = p.parent?.discounts ?? [];
  return { ...base, ...unitView(p, discounts, group, now, taxOf), discounts, configurable_children: [] };
}

/** Grouped: its available members at qty 1; bundle: its default selections (as the cart prices them). */
function kitView(p: LoadedProduct, group: number, now: Date, taxOf: TaxOf): UnitView {
  if (!isEnabledStatus(p.status)) return { price: null, original_price: null, special_price: null, excise_tax: 0, sales_tax: 0 };
  try {
    const lines = resolveLine({ sku: p.sku, qty: 1 }, new Map([[p.sku, p]]), { now, groupId: group });
    let price = 0;
    let original = 0;
    for (const l of lines) {
      price += l.unitPrice;
      original += p.type_id === 'grouped' ? l.originalPrice : l.unitPrice;
    }
    // Every member of every line at once: the cart taxes (and rounds) them together.
    const t = taxOf(lines.flatMap((l) => l.components.map((comp) => ({ productId: comp.productId, net: Math.round(comp.unitPrice * comp.qtyPerUnit), taxClassId: comp.taxClassId }))));
    return { price, original_price: original, special_price: price < original ? price : null, excise_tax: t.excise, sales_tax: t.sales };
  } catch (e) {
    if (e instanceof ApiError) return { price: null, original_price: null, special_price: null, excise_tax: 0, sales_tax: 0 };
    throw e;
  }
}
