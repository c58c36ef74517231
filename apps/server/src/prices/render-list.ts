/**
 * `GET /api/products/render-list` (spec §7 Prices, §3 platform price response): the server's
 * current price of each sku, read from the database, with per-unit excise and sales tax from the
 * store's rules for a guest's tax class. Unknown skus are listed, not fatal. Amounts in cents;
 * `price` is what one unit costs now (special, tier at qty 1 and weight price applied),
 * `original_price` the regular price, `special_price` the active special or null, and a price
 * of null means the product has no price and cannot be sold.
 *
 * userGroupId selects a customer group's prices for display only: carts and orders price with
 * the group of the logged-in customer (the accounts issue adds group tokens), never this value.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isChildAvailable, isEnabledStatus, type Cents } from '@verdant/domain';
import type { CommerceContext } from '../commerce.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../cart/routes.ts';
import { resolveLine } from '../cart/resolve.ts';
import { taxOn, type TaxRate } from '@verdant/domain';
import { loadProducts, type LoadedProduct, type SellableUnit } from './loader.ts';
import { loadTaxRules, rateLookup, storeTaxContext } from './tax-rules.ts';
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
    const q = parseOr400(querySchema, request.query);
    const store = c.registry.stores.find((s) => s.storeId === q.storeId);
    if (!store) throw new ApiError(404, `Store ${q.storeId} does not exist`);
    if (q.currencyCode !== store.i18n.currencyCode) throw new ApiError(400, `currencyCode must be ${store.i18n.currencyCode} for this store`);
    const group = q.userGroupId ?? store.tax.userGroupId;
    const [products, rules] = await Promise.all([loadProducts(c.db, store.storeId, q.skus, group), loadTaxRules(c.db, store.storeId)]);
    const ratesOf = rateLookup(rules, storeTaxContext(store));
    const now = c.now();
    const items = q.skus.flatMap((sku) => {
      const p = products.get(sku);
      return p ? [renderItem(p, group, now, ratesOf)] : [];
    });
    return ok({ items, unknown_skus: q.skus.filter((s) => !products.has(s)) });
  });
}

function unitView(u: SellableUnit, discounts: LoadedProduct['discounts'], group: number, now: Date, ratesOf: (c: number) => TaxRate[]): UnitView {
  const p = priceUnit(u.price, { now, groupId: group, qty: 1, tiers: u.tiers, weightPrice: weightPriceFor(discounts, u.size) });
  if (!p) return { price: null, original_price: null, special_price: null, excise_tax: 0, sales_tax: 0 };
  const tax = taxOn(p.final, ratesOf(u.taxClassId));
  return { price: p.final, original_price: p.original, special_price: p.special, excise_tax: tax.excise, sales_tax: tax.sales };
}

function renderItem(p: LoadedProduct, group: number, now: Date, ratesOf: (c: number) => TaxRate[]) {
  const base = { sku: p.sku, status: p.status, size: p.size, tier_prices: p.tiers };
  if (p.type_id === 'configurable') {
    const children = p.children.map((ch) => ({ sku: ch.sku, size: ch.size, status: ch.status, ...unitView(ch, p.discounts, group, now, ratesOf) }));
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
    return { ...base, ...kitView(p, group, now, ratesOf), discounts: [], configurable_children: [] };
  }
  const discounts = p.parent?.discounts ?? [];
  return { ...base, ...unitView(p, discounts, group, now, ratesOf), discounts, configurable_children: [] };
}

/** Grouped: its available members at qty 1; bundle: its default selections (as the cart prices them). */
function kitView(p: LoadedProduct, group: number, now: Date, ratesOf: (c: number) => TaxRate[]): UnitView {
  if (!isEnabledStatus(p.status)) return { price: null, original_price: null, special_price: null, excise_tax: 0, sales_tax: 0 };
  try {
    const lines = resolveLine({ sku: p.sku, qty: 1 }, new Map([[p.sku, p]]), { now, groupId: group });
    let price = 0;
    let original = 0;
    let excise = 0;
    let sales = 0;
    for (const l of lines) {
      price += l.unitPrice;
      original += p.type_id === 'grouped' ? l.originalPrice : l.unitPrice;
      for (const comp of l.components) {
        const t = taxOn(Math.round(comp.unitPrice * comp.qtyPerUnit), ratesOf(comp.taxClassId));
        excise += t.excise;
        sales += t.sales;
      }
    }
    return { price, original_price: original, special_price: price < original ? price : null, excise_tax: excise, sales_tax: sales };
  } catch (e) {
    if (e instanceof ApiError) return { price: null, original_price: null, special_price: null, excise_tax: 0, sales_tax: 0 };
    throw e;
  }
}
