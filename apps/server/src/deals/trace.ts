/**
 * "Why didn't I get the deal?" (issue 28 trace): for an order, which deals applied (per line, as the
 * order kept them: order_items.deal_discounts) and, for every other deal the store had when the
 * order was placed (active or paused then; ended ones are left out), the reason it did not apply.
 *
 * The reasons come from running the engine again on the order's lines (their unit prices before
 * deals, as charged), at the order's moment, with:
 *  - each deal's record as it was then: the `after` of its last change at or before the order
 *    (deal_changes); a deal created later is not part of it;
 *  - the shopper's facts: the order's licence type; the customer's group, account date and birthday,
 *    and the orders placed before this one (not cancelled);
 *  - usage as it stood: redemptions written before the order and not given back before it (budget),
 *    and this shopper's within the deal's window (per-customer limit, by the order's customer key);
 *  - a coupon / points on the order.
 * `consistent` says whether this run's applied deals and discounts equal what the order charged; it
 * can differ when a product's facts (category, brand, tags) changed since, which the trace then says.
 */
import { DEAL_DISPLAY_PRESETS, dealSchema, evaluateDeals, reasonText, type Deal, type DealCartLine, type DealContext, type DealUsage, type Store } from '@verdant/domain';
import type { DealTrace } from '@verdant/domain/console-api';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { customerKeyOf, storeDealFloor, windowStart } from './apply.ts';
import { dealCatalogFacts } from './facts.ts';
import { orderLineDeals } from './order-lines.ts';
import { storeTimeZone } from './preview.ts';
import { countDealEvaluation } from '../metrics/deal-evaluations.ts';

type Db = Kysely<Database>;

export async function orderDealTrace(db: Db, store: Store, orderId: number): Promise<DealTrace> {
  const order = await db
    .selectFrom('orders')
    .select(['id', 'created_at', 'license_type', 'customer_id', 'coupon_code', 'credits_used_cents', 'personal_details'])
    .where('store_id', '=', store.storeId)
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order) throw new ApiError(404, 'Order not found.', { errorCode: 'order_not_found' });
  const at = order.created_at;
  const now = new Date(at);
  const timeZone = storeTimeZone(store);
  const items = await db
    .selectFrom('order_items')
    .select(['id', 'product_id', 'sku', 'name', 'qty', 'size', 'price_cents', 'deal_discounts'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();

  // Each deal as it was at the order's moment.
  const changes = await db
    .selectFrom('deal_changes as c')
    .innerJoin('deals as d', 'd.id', 'c.deal_id')
    .select(['c.deal_id', 'c.after', 'c.id', 'd.title'])
    .where('c.store_id', '=', store.storeId)
    .where('c.at', '<=', at)
    .orderBy('c.deal_id')
    .orderBy('c.id')
    .execute();
  const thenById = new Map<number, Deal>();
  for (const c of changes) thenById.set(c.deal_id, dealSchema.parse(JSON.parse(c.after)));
  const dealIdByCode = new Map([...thenById].map(([id, d]) => [d.id, id]));
  const records = [...thenById.values()];

  const lines: DealCartLine[] = [];
  const facts = await dealCatalogFacts(
    db,
    store.storeId,
    items.flatMap((i) => (i.product_id == null ? [] : [i.product_id])),
  );
  for (const i of items) {
    const product = i.product_id == null ? undefined : facts.products.get(i.product_id);
    if (!product) continue;
    lines.push({ id: `item-${String(i.id).padStart(10, '0')}`, product: { ...product, sku: i.sku, size: i.size ?? product.size }, unitPriceCents: i.price_cents, qty: i.qty });
  }

  let phone: string | null = null;
  try {
    const p = (JSON.parse(order.personal_details) as { phone?: unknown }).phone;
    phone = typeof p === 'string' ? p : null;
  } catch {
    phone = null;
  }
  const customer: DealContext['customer'] = { licence: order.license_type, previousOrders: null };
  if (order.customer_id != null) {
    const c = await db.selectFrom('customers').select(['group_id', 'created_at', 'birthday', 'phone']).where('id', '=', order.customer_id).executeTakeFirst();
    if (c) {
      customer.groupId = c.group_id;
      customer.createdAt = c.created_at;
      customer.birthday = c.birthday;
      phone ??= c.phone;
    }
    const n = await db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('customer_id', '=', order.customer_id)
      .where('status', '!=', 'cancelled')
      .where('created_at', '<', at)
      .executeTakeFirstOrThrow();
    customer.previousOrders = Number(n.n);
  }
  // The key the order's redemptions were written under, else the one the order would have had.
  const own = await db.selectFrom('deal_redemptions').select('customer_key').where('order_id', '=', orderId).executeTakeFirst();
  const key = own?.customer_key ?? customerKeyOf({ licence: order.license_type, customerId: order.customer_id, phone });

  const usage: Record<string, DealUsage> = {};
  for (const [dealId, record] of thenById) {
    const u: DealUsage = {};
    const held = (q: ReturnType<typeof base>) => q.where((eb) => eb.or([eb('released_at', 'is', null), eb('released_at', '>', at)]));
    const base = () =>
      db
        .selectFrom('deal_redemptions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('deal_id', '=', dealId)
        .where('order_id', '!=', orderId)
        .where('created_at', '<', at);
    if (record.limits.budget != null) u.totalRedemptions = Number((await held(base()).executeTakeFirstOrThrow()).n);
    if (record.limits.perCustomer && key) {
      let q = held(base()).where('customer_key', '=', key);
      const from = windowStart(record, now, timeZone);
      if (from) q = q.where('created_at', '>=', from);
      u.customerRedemptions = Number((await q.executeTakeFirstOrThrow()).n);
    }
    usage[record.id] = u;
  }

  countDealEvaluation('trace');
  const result = evaluateDeals(
    lines,
    records,
    {
      now,
      timeZone,
      customer,
      usage,
      couponApplied: order.coupon_code != null,
      pointsRedeemed: Number(order.credits_used_cents) > 0,
      categoryParents: facts.categoryParents,
    },
    // The floor set now (the trace re-runs the order's deals as the store's settings are today).
    await storeDealFloor(db, store),
  );

  const rules = DEAL_DISPLAY_PRESETS.default.rules;
  const traceLines = items.map((i) => ({
    sku: i.sku,
    name: i.name,
    qty: i.qty,
    unit_price_cents: i.price_cents,
    deals: orderLineDeals(i.deal_discounts).map((d) => ({ code: d.id, title: d.title, discount_cents: d.discount_cents })),
  }));
  const appliedByCode = new Map<string, { code: string; title: string; discount_cents: number }>();
  for (const l of traceLines)
    for (const d of l.deals) {
      const a = appliedByCode.get(d.code) ?? { code: d.code, title: d.title, discount_cents: 0 };
      a.discount_cents += d.discount_cents;
      appliedByCode.set(d.code, a);
    }
  const applied = [...appliedByCode.values()].sort((a, b) => a.code.localeCompare(b.code));
  const engineApplied = result.applied.map((a) => `${a.dealId}:${a.discountCents}`).sort();
  const consistent = JSON.stringify(engineApplied) === JSON.stringify(applied.map((a) => `${a.code}:${a.discount_cents}`).sort());
  const byCode = new Map(records.map((r) => [r.id, r]));
  const notApplied = result.notApplied
    .filter((n) => !appliedByCode.has(n.dealId))
    .flatMap((n) => {
      const record = byCode.get(n.dealId);
      // Deals that had ended by then are not part of the answer (they ran no more).
      if (!record || record.status === 'ended' || dealIdByCode.get(n.dealId) === undefined) return [];
      return [{ code: n.dealId, title: record.title, reason: n.reason, text: reasonText(record, n.reason, n.missing, rules) }];
    })
    .sort((a, b) => a.code.localeCompare(b.code));
  return { at, lines: traceLines, applied, not_applied: notApplied, consistent };
}
