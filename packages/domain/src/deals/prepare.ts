import { preparedInSet, prepareProduct } from './match.ts';
import type { Deal, DealContext, DealProductFacts, ProductSet } from './model.ts';

/**
 * A deal list prepared once for many evaluations (README "Speed"): deals sorted by id, each deal's
 * roles as indices into the list's distinct product sets, and an index of those sets by the product
 * facts they can match, so a cart line only looks at the sets that can hold it. What a product
 * matches is remembered by its facts, so a store's products are matched against its deals once.
 *
 * Deal records are values: to change one, replace it (a new object), never edit it in place; the
 * caches here and in match.ts are keyed by object identity.
 */

/** Set index of an absent set ("every product"). */
export const ALL_PRODUCTS = -1;

/** What the engine needs of one deal, worked out once per list. */
export interface DealPlan {
  deal: Deal;
  /** Item-layer roles: the product set of each role (none for an order-level threshold). */
  roleSets: (ProductSet | undefined)[];
  /** The same sets as indices into `PreparedDeals.sets` (ALL_PRODUCTS for an absent one). */
  roles: number[];
  /** Units of each role one application takes. */
  roleSize: number[];
  /** Most applications before the cart is seen (perOrder, and a set reward's maxItems). */
  limit: number;
  /** A threshold's condition set (ALL_PRODUCTS when absent or not a threshold). */
  conditionSet: number;
  orderLevel: boolean;
  percent: boolean;
}

const INF = Number.MAX_SAFE_INTEGER;

/** Most products a list remembers before it starts over (a store's menu is far smaller). */
const MEMO_LIMIT = 50_000;

type Bucket<K> = Map<K, number[]>;

function push<K>(m: Bucket<K>, k: K, i: number): void {
  const xs = m.get(k);
  if (xs) xs.push(i);
  else m.set(k, [i]);
}

const nonEmpty = <T>(xs: readonly T[] | undefined): xs is readonly T[] => xs != null && xs.length > 0;

/** The prepared form `evaluateDeals` also accepts; make one with `prepareDeals`. */
export class PreparedDeals {
  /** The deals, sorted by id. */
  readonly deals: readonly Deal[];
  readonly plans: readonly DealPlan[];
  /** Distinct product sets (by identity) used by the deals' roles and conditions. */
  readonly sets: readonly ProductSet[];
  /** The deals as given, to tell whether a plain list is still the one prepared. */
  readonly source: readonly Deal[];

  private readonly always: number[] = [];
  private readonly bySku: Bucket<string> = new Map();
  private readonly byCategory: Bucket<number> = new Map();
  private readonly byBrand: Bucket<number> = new Map();
  private readonly byKind: Bucket<string> = new Map();
  private readonly byStrain: Bucket<string> = new Map();
  private readonly bySize: Bucket<number> = new Map();
  private readonly byTag: Bucket<string> = new Map();
  private memo = new Map<string, Int32Array>();
  private memoParents: DealContext['categoryParents'] | null = null;
  private readonly stamp: Int32Array;
  private stampNow = 0;

  constructor(deals: readonly Deal[]) {
    this.source = [...deals];
    this.deals = [...deals].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const setIndex = new Map<ProductSet, number>();
    const sets: ProductSet[] = [];
    const indexOf = (set: ProductSet | undefined): number => {
      if (!set) return ALL_PRODUCTS;
      let i = setIndex.get(set);
      if (i === undefined) {
        i = sets.length;
        sets.push(set);
        setIndex.set(set, i);
      }
      return i;
    };
    this.plans = this.deals.map((deal) => {
      let roleSets: (ProductSet | undefined)[] = [];
      let roleSize: number[] = [];
      let limit = deal.limits.perOrder ?? INF;
      let conditionSet = ALL_PRODUCTS;
      let percent = false;
      switch (deal.kind) {
        case 'set_discount':
          roleSets = [deal.set];
          roleSize = [1];
          percent = deal.reward.type === 'percent';
          break;
        case 'threshold':
          conditionSet = indexOf(deal.condition.set);
          if (deal.reward.target === 'set') {
            roleSets = [deal.reward.set];
            roleSize = [1];
            limit = Math.min(limit, deal.reward.maxItems ?? INF);
          }
          percent = deal.reward.reward.type === 'percent';
          break;
        case 'mix_match':
          roleSets = [deal.set];
          roleSize = [deal.qty];
          break;
        case 'bundle':
          roleSets = deal.items.map((i) => i.set);
          roleSize = deal.items.map((i) => i.qty);
          break;
        case 'buy_get':
          roleSets = [deal.buy.set, deal.get.set];
          roleSize = [deal.buy.qty, deal.get.qty];
          percent = deal.get.reward.type === 'percent';
          break;
      }
      const orderLevel = deal.kind === 'threshold' && deal.reward.target === 'order';
      return { deal, roleSets, roles: roleSets.map(indexOf), roleSize, limit, conditionSet, orderLevel, percent };
    });
    this.sets = sets;
    this.stamp = new Int32Array(sets.length);
    sets.forEach((set, i) => this.indexSet(set, i));
  }

  /**
   * File a set under one value list it needs: a product the set holds has the set's sku, or meets
   * every criterion, so any one criterion (the first given, in a fixed order) is a sound key; the
   * exclusions only remove, and preparedInSet checks the whole rule on every candidate.
   */
  private indexSet(set: ProductSet, i: number): void {
    for (const sku of set.skus ?? []) push(this.bySku, sku, i);
    if (nonEmpty(set.skus) && !hasCriteria(set)) return;
    if (nonEmpty(set.categories)) for (const c of set.categories) push(this.byCategory, c, i);
    else if (nonEmpty(set.brands)) for (const b of set.brands) push(this.byBrand, b, i);
    else if (nonEmpty(set.kinds)) for (const k of set.kinds) push(this.byKind, k, i);
    else if (nonEmpty(set.strainTypes)) for (const s of set.strainTypes) push(this.byStrain, s.toLowerCase(), i);
    else if (nonEmpty(set.sizes)) for (const s of set.sizes) push(this.bySize, s, i);
    else if (nonEmpty(set.tags)) for (const t of set.tags) push(this.byTag, t.toLowerCase(), i);
    else this.always.push(i);
  }

  /** Indices of the sets (ascending) that hold a product: remembered by the product's facts. */
  setsOf(product: DealProductFacts, parents: DealContext['categoryParents']): Int32Array {
    if (parents !== this.memoParents) {
      this.memo = new Map();
      this.memoParents = parents;
    }
    const key = factsKey(product);
    let found = this.memo.get(key);
    if (!found) {
      found = this.match(product, parents);
      if (this.memo.size >= MEMO_LIMIT) this.memo = new Map();
      this.memo.set(key, found);
    }
    return found;
  }

  /**
   * Ids of the deals some of the products take part in, as `dealTouchesProduct` (shopper-view.ts)
   * tells it: a unit of the product in one of the deal's roles (an order-level threshold: in its
   * condition set), through the remembered set matches instead of matching every deal again.
   */
  touching(products: readonly DealProductFacts[], parents: DealContext['categoryParents']): Set<string> {
    const out = new Set<string>();
    if (products.length === 0) return out;
    const held = new Uint8Array(this.sets.length);
    for (const product of products) for (const i of this.setsOf(product, parents)) held[i] = 1;
    const has = (i: number) => i === ALL_PRODUCTS || held[i] === 1;
    for (const plan of this.plans) {
      if (plan.orderLevel ? has(plan.conditionSet) : plan.roles.some(has)) out.add(plan.deal.id);
    }
    return out;
  }

  private match(product: DealProductFacts, parents: DealContext['categoryParents']): Int32Array {
    const p = prepareProduct(product, parents);
    const stamp = this.stamp;
    const now = ++this.stampNow;
    const candidates: number[] = [];
    const add = (xs: readonly number[] | undefined) => {
      if (!xs) return;
      for (const i of xs) {
        if (stamp[i] === now) continue;
        stamp[i] = now;
        candidates.push(i);
      }
    };
    add(this.always);
    add(this.bySku.get(product.sku));
    for (const c of p.categories) add(this.byCategory.get(c));
    if (product.brandId != null) add(this.byBrand.get(product.brandId));
    if (product.kind != null) add(this.byKind.get(product.kind));
    if (p.strain != null) add(this.byStrain.get(p.strain));
    if (product.size != null) add(this.bySize.get(product.size));
    for (const t of p.tags) add(this.byTag.get(t));
    const out = candidates.filter((i) => preparedInSet(p, this.sets[i])).sort((a, b) => a - b);
    return Int32Array.from(out);
  }
}

function hasCriteria(set: ProductSet): boolean {
  return nonEmpty(set.categories) || nonEmpty(set.brands) || nonEmpty(set.kinds) || nonEmpty(set.strainTypes) || nonEmpty(set.sizes) || nonEmpty(set.tags);
}

/** Everything set matching reads of a product (match.ts prepareProduct / meets), as one string. */
function factsKey(p: DealProductFacts): string {
  return `${p.sku}\u0001${p.categoryIds.join(',')}\u0001${p.brandId ?? ''}\u0001${p.kind ?? ''}\u0001${p.strainType ?? '\u0002'}\u0001${p.size ?? ''}\u0001${p.tags.join('\u0003')}`;
}

const preparedLists = new WeakMap<readonly Deal[], PreparedDeals>();

/**
 * Prepare a deal list for many evaluations (the server keeps one per store and deal version; the
 * offline cart one per snapshot). `evaluateDeals` given a plain array prepares it too, remembering
 * the preparation for that array as long as it holds the same deal objects.
 */
export function prepareDeals(deals: readonly Deal[]): PreparedDeals {
  return new PreparedDeals(deals);
}

/** The preparation of a plain list, reused while the array holds the same deals (checked every call). */
export function preparedFor(deals: readonly Deal[] | PreparedDeals): PreparedDeals {
  if (deals instanceof PreparedDeals) return deals;
  const known = preparedLists.get(deals);
  if (known && sameDeals(known.source, deals)) return known;
  const fresh = new PreparedDeals(deals);
  preparedLists.set(deals, fresh);
  return fresh;
}

function sameDeals(a: readonly Deal[], b: readonly Deal[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
