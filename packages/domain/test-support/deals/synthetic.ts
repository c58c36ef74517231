/**
 * Synthetic deals and carts for the bench (bench/suites/deals.ts) and the large-cart tests: a
 * store's worth of active deals of every kind over the demo menu's brands and categories, with
 * schedules and eligibility like a real store's (some run on other days or hours, some are for
 * medical patients), and carts of demo products; or the same over a synthetic store of 2,000
 * products (`syntheticStore`), where a cart meets a smaller share of the deals. Deterministic for a seed.
 */
import { BRAND, CAT, DEMO_DEAL_PRODUCTS, type DemoDealProduct } from './demo-products.fixture.ts';
import { dealSchema, type Deal, type DealCartLine, type DealInput, type ProductSet } from '../../src/deals/model.ts';

export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] };
}

const CATEGORY_IDS = Object.values(CAT);
const BRAND_IDS = Object.values(BRAND);

/** A menu the synthetic deals and carts draw from: its products and brand ids. */
export interface SyntheticMenu {
  products: readonly DemoDealProduct[];
  brandIds: readonly number[];
}

/** What synthetic deals draw their product sets from: skus, brand ids and (default: the demo menu's) category ids. */
export interface DealMenu {
  products: readonly { sku: string }[];
  brandIds: readonly number[];
  categoryIds?: readonly number[];
}

/** The demo menu (32 real products, 14 brands): a 20-line cart meets most of the deals. */
export const DEMO_MENU: SyntheticMenu = { products: DEMO_DEAL_PRODUCTS, brandIds: BRAND_IDS };

/**
 * A store of `count` products made from the demo products (same kinds, categories, sizes and
 * strains), spread over 60 brands, with their own skus, prices ±30 % and now and then a tag.
 */
export function syntheticStore(count = 2000, seed = 2000): SyntheticMenu {
  const r = rng(seed);
  const brandIds = Array.from({ length: 60 }, (_, i) => 201 + i);
  const tags = ['sleep', 'daytime', 'staff-pick', 'new', 'local'];
  const products = Array.from({ length: count }, (_, i): DemoDealProduct => {
    const t = DEMO_DEAL_PRODUCTS[i % DEMO_DEAL_PRODUCTS.length];
    return { ...t, sku: `${t.sku}-S${i}`, name: `${t.name} #${i}`, brandId: r.pick(brandIds), priceCents: Math.max(100, Math.round((t.priceCents * r.int(70, 130)) / 100)), tags: r.next() < 0.2 ? [r.pick(tags)] : [] };
  });
  return { products, brandIds };
}

function randomSet(r: ReturnType<typeof rng>, menu: DealMenu): ProductSet {
  const categoryIds = menu.categoryIds ?? CATEGORY_IDS;
  switch (r.int(0, 4)) {
    case 0:
      return { categories: [r.pick(categoryIds)] };
    case 1:
      return { brands: [r.pick(menu.brandIds), r.pick(menu.brandIds)] };
    case 2:
      return { kinds: [r.pick(['flower', 'preroll', 'vape', 'concentrate', 'edible'] as const)], exclude: { brands: [r.pick(menu.brandIds)] } };
    case 3:
      return { skus: [r.pick(menu.products).sku, r.pick(menu.products).sku, r.pick(menu.products).sku] };
    default:
      return { categories: [r.pick(categoryIds)], sizes: [92] };
  }
}

/** `count` active deals over a menu (default: the demo menu); about a third are limited to other days, hours or customers. */
export function syntheticDeals(count: number, seed = 28, menu: DealMenu = DEMO_MENU): Deal[] {
  const r = rng(seed);
  const out: Deal[] = [];
  for (let i = 0; i < count; i++) {
    const id = `syn-${String(i).padStart(4, '0')}`;
    const stacking = { deals: r.next() < 0.9, coupons: true, points: true };
    const extra: Partial<DealInput> = {};
    const gate = r.int(0, 8);
    if (gate === 0) extra.schedule = { days: [r.int(0, 6)] };
    else if (gate === 1) extra.schedule = { hours: { from: '16:00', to: '18:00' } };
    else if (gate === 2) extra.eligibility = { licence: 'medical' };
    const base = { id, title: `Deal ${i}`, status: 'active' as const, stacking, ...extra };
    let input: DealInput;
    switch (r.int(0, 5)) {
      case 0:
        input = { ...base, kind: 'set_discount', set: randomSet(r, menu), reward: r.next() < 0.5 ? { type: 'percent', percent: r.pick([10, 15, 20, 25]) } : { type: 'amount', cents: r.pick([200, 500, 1000]) } };
        break;
      case 1:
        input = { ...base, kind: 'set_discount', set: randomSet(r, menu), reward: { type: 'price', cents: r.pick([1500, 2500, 3500]) } };
        break;
      case 2:
        input = { ...base, kind: 'buy_get', buy: { set: randomSet(r, menu), qty: r.int(1, 2) }, get: { set: randomSet(r, menu), qty: 1, reward: r.next() < 0.5 ? { type: 'price', cents: 1 } : { type: 'percent', percent: 50 } }, limits: { perOrder: r.int(1, 3) } };
        break;
      case 3:
        input = { ...base, kind: 'mix_match', set: randomSet(r, menu), qty: r.int(2, 4), priceCents: r.pick([4000, 6000, 9000, 12000]) };
        break;
      case 4:
        input = { ...base, kind: 'bundle', name: `Bundle ${i}`, items: [{ set: randomSet(r, menu), qty: 1 }, { set: randomSet(r, menu), qty: 1 }], priceCents: r.pick([3000, 5000, 7000]), limits: { perOrder: 2 } };
        break;
      default:
        input =
          r.next() < 0.5
            ? { ...base, kind: 'threshold', condition: { type: 'spend', cents: r.pick([5000, 10000, 20000]) }, reward: { target: 'order', reward: r.next() < 0.5 ? { type: 'percent', percent: r.pick([5, 10]) } : { type: 'amount', cents: r.pick([500, 1000, 2000]) } } }
            : { ...base, kind: 'threshold', condition: { type: 'items', count: r.int(3, 8) }, reward: { target: 'set', set: randomSet(r, menu), reward: { type: 'price', cents: r.pick([100, 500]) }, maxItems: 1 } };
    }
    out.push(dealSchema.parse(input));
  }
  return out;
}

/** A cart of `lines` distinct products of a menu (default: the demo menu), 1–3 of each, in a seeded order. */
export function syntheticCart(lines: number, seed: number, menu: SyntheticMenu = DEMO_MENU): DealCartLine[] {
  const r = rng(seed);
  const pool = [...menu.products];
  const out: DealCartLine[] = [];
  for (let i = 0; i < lines && pool.length; i++) {
    const product = pool.splice(r.int(0, pool.length - 1), 1)[0];
    out.push({ id: `line-${seed}-${i}`, product, unitPriceCents: product.priceCents, qty: r.int(1, 3) });
  }
  return out;
}
