/**
 * The deals engine (issue 28): cart + context + floor + deals → the combination of deals best for
 * the shopper, per-line discounts in integer cents that add up to the order's discount, a reason for
 * every deal that did not apply and nudges. Pure and deterministic; README.md explains the model,
 * the search and its bounds.
 */
import { roundedSum, splitExact, splitProportional } from './allocate.ts';
import { eligibilityReason, type EligibilityReason } from './match.ts';
import type { Deal, DealCartLine, DealContext, DealFloor, DealMeasure, ProductSet, ThresholdCondition, ThresholdDeal } from './model.ts';
import { ALL_PRODUCTS, preparedFor, prepareDeals, type DealPlan, type PreparedDeals } from './prepare.ts';

/* ------------------------------------------------------------------ results */

export type DealReason =
  | EligibilityReason
  | 'no_matching_items'
  | 'not_enough_items'
  | 'below_threshold'
  | 'not_combinable'
  | 'better_deal_chosen'
  | 'no_saving';

export interface DealMissing {
  /** Items still needed (mix and match, buy X get Y, bundles, item-count thresholds). */
  items?: number;
  /** Cents still to spend (spend thresholds). */
  cents?: number;
  /** Amount of a measure still needed (weight thresholds). */
  amount?: number;
  measure?: DealMeasure;
  /** True when the deal already applied and this many more would apply it again. */
  again?: boolean;
}

export interface DealNotApplied {
  dealId: string;
  reason: DealReason;
  missing?: DealMissing;
}

export interface DealNudge {
  dealId: string;
  missing: DealMissing;
}

export interface AppliedDeal {
  dealId: string;
  kind: Deal['kind'];
  discountCents: number;
  /** Applications: items for an item discount, groups for group kinds, 1 for thresholds. */
  applications: number;
  /** Lines the deal discounted or used to qualify (a buy item of buy X get Y), by id. */
  lineIds: string[];
}

export interface DealLineResult {
  lineId: string;
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  /** Each deal's share of this line's discount (0 for a line that only qualified a deal). */
  deals: { dealId: string; discountCents: number }[];
}

export interface DealsResult {
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  lines: DealLineResult[];
  applied: AppliedDeal[];
  notApplied: DealNotApplied[];
  nudges: DealNudge[];
  /** Every applied deal allows a coupon / points on the same order. */
  allowsCoupons: boolean;
  allowsPoints: boolean;
  /** The search covered every combination (README "Search"); false: the best of the heuristic orders. */
  exact: boolean;
}

export interface EvaluateOptions {
  /** Largest search space (ways to share the units out) searched exhaustively; beyond it the heuristic answer is kept (default 20,000). */
  exactLimit?: number;
}

export const DEFAULT_EXACT_LIMIT = 20_000;

/* ------------------------------------------------------------------ internal model */

interface UnitClass {
  key: string;
  line0: DealCartLine;
  price: number;
  floor: number;
  room: number;
  count: number;
  /** Lines in id order with their quantities: unit j of the class belongs to the line covering j. */
  lines: { id: string; qty: number }[];
  /** The prepared list's sets holding the class's product (ascending indices). */
  sets: Int32Array;
}

/** The cart seen through a prepared deal list: its classes and which set holds which class. */
interface Cart {
  classes: UnitClass[];
  /** Per set: is class c in it (rowOf), which classes, highest price first (eligOf), their units. */
  rows: (Uint8Array | undefined)[];
  /** inSet[s × classes + c]: class c is in set s. */
  inSet: Uint8Array;
  eligs: (number[] | undefined)[];
  units: Int32Array;
  hits: Int32Array;
  all: Uint8Array;
  allElig: number[];
  allUnits: number;
  /** Units per class; scratch arrays (a per-class value; zeros the greedy leaves as zeros). */
  counts: number[];
  scratchValues: Float64Array;
  scratchUsed: number[];
}

interface Cand {
  deal: Deal;
  /** Item-layer roles: the product set of each role (order-level thresholds have none). */
  roleSets: (ProductSet | undefined)[];
  /** Units of each role one application takes (set-discount/threshold: 1 and ∞ applications cap via limit). */
  roleSize: number[];
  /** Most applications (units for item discounts; groups otherwise). */
  limit: number;
  /** roleEligible[r][c]: class c may fill role r (1) or not (0). */
  roleEligible: Uint8Array[];
  exclusive: boolean;
  /** Eligible classes per role, highest price first. */
  elig: number[][];
  /** Classes of the reward role by what one unit saves, most first (only those saving something). */
  valueOrder: number[];
  /** What the candidate saves alone on the whole cart, greedily (heuristic order; the trace's no_saving). */
  standalone: number;
  /** The pools of that greedy application (what the candidate takes when none of its classes is touched yet). */
  alonePools: number[][];
  /** Classes eligible for any role, ascending. */
  touches: number[];
  percent: boolean;
}

interface Slot {
  cand: number;
  role: number;
}

const INF = Number.MAX_SAFE_INTEGER;
const NO_UNITS: number[] = [];

function unitFloor(line: DealCartLine, floor: DealFloor): number {
  const min = floor.minUnitCents ?? 1;
  const cost = floor.useCost && line.product.costCents != null ? line.product.costCents : 0;
  return Math.min(line.unitPriceCents, Math.max(min, cost));
}

function buildCart(lines: readonly DealCartLine[], floor: DealFloor, ctx: DealContext, prepared: PreparedDeals): Cart {
  const byKey = new Map<string, UnitClass>();
  for (const line of lines) {
    if (!Number.isInteger(line.qty) || line.qty < 0) throw new RangeError(`line ${line.id}: qty must be a whole number ≥ 0`);
    if (!Number.isInteger(line.unitPriceCents) || line.unitPriceCents < 0) throw new RangeError(`line ${line.id}: price must be whole cents ≥ 0`);
    if (line.qty === 0) continue;
    const f = unitFloor(line, floor);
    const key = `${line.product.sku}\u0000${line.unitPriceCents}\u0000${f}`;
    let c = byKey.get(key);
    if (!c) {
      c = { key, line0: line, price: line.unitPriceCents, floor: f, room: line.unitPriceCents - f, count: 0, lines: [], sets: EMPTY_SETS };
      byKey.set(key, c);
    }
    c.count += line.qty;
    c.lines.push({ id: line.id, qty: line.qty });
  }
  const classes = [...byKey.values()];
  for (const c of classes) {
    if (c.lines.length > 1) c.lines.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    // The facts of the class are those of its first line in id order (same sku: same product).
    const first = c.lines[0].id;
    for (const l of lines) {
      if (l.id === first) {
        c.line0 = l;
        break;
      }
    }
    c.sets = prepared.setsOf(c.line0.product, ctx.categoryParents);
  }
  classes.sort((a, b) => b.price - a.price || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const n = classes.length;
  const nSets = prepared.sets.length;
  const hits = new Int32Array(nSets);
  const units = new Int32Array(nSets);
  const inSet = new Uint8Array(nSets * n);
  let allUnits = 0;
  for (let c = 0; c < n; c++) {
    const cl = classes[c];
    allUnits += cl.count;
    const sets = cl.sets;
    for (let k = 0; k < sets.length; k++) {
      inSet[sets[k] * n + c] = 1;
      hits[sets[k]] += 1;
      units[sets[k]] += cl.count;
    }
  }
  const allElig = new Array<number>(n);
  for (let c = 0; c < n; c++) allElig[c] = c;
  return {
    classes,
    rows: new Array(nSets),
    inSet,
    eligs: new Array(nSets),
    units,
    hits,
    all: new Uint8Array(n).fill(1),
    allElig,
    allUnits,
    counts: classes.map((c) => c.count),
    scratchValues: new Float64Array(n),
    scratchUsed: new Array<number>(n).fill(0),
  };
}

const EMPTY_SETS = new Int32Array(0);

function rowOf(cart: Cart, s: number): Uint8Array {
  if (s === ALL_PRODUCTS) return cart.all;
  let row = cart.rows[s];
  if (!row) {
    const n = cart.classes.length;
    row = cart.inSet.subarray(s * n, s * n + n);
    cart.rows[s] = row;
  }
  return row;
}

function eligOf(cart: Cart, s: number): number[] {
  if (s === ALL_PRODUCTS) return cart.allElig;
  let elig = cart.eligs[s];
  if (!elig) {
    elig = [];
    const row = rowOf(cart, s);
    for (let c = 0; c < row.length; c++) if (row[c]) elig.push(c);
    cart.eligs[s] = elig;
  }
  return elig;
}

/** Does any class fill any of the plan's roles? */
function anyEligible(cart: Cart, plan: DealPlan): boolean {
  for (const s of plan.roles) if (s === ALL_PRODUCTS ? cart.classes.length > 0 : cart.hits[s] > 0) return true;
  return false;
}

const unitsIn = (cart: Cart, s: number): number => (s === ALL_PRODUCTS ? cart.allUnits : cart.units[s]);

const p100 = (percent: number) => Math.round(percent * 100);

/** Exact percent discount numerator of one unit (over 10000), capped at its room. */
function percentNumer(price: number, room: number, percent: number): number {
  return Math.min(price * p100(percent), room * 10000);
}

/** Discount of one unit at a fixed price (0 when the price is not lower). */
function priceDiscount(price: number, room: number, target: number): number {
  return Math.max(0, Math.min(price - target, room));
}

/* ------------------------------------------------------------------ conditions */

function conditionProgress(cond: ThresholdCondition, condSet: number, cart: Cart): { met: boolean; missing: DealMissing } {
  let have = 0;
  const row = rowOf(cart, condSet);
  const classes = cart.classes;
  for (let i = 0; i < classes.length; i++) {
    if (!row[i]) continue;
    const c = classes[i];
    if (cond.type === 'spend') have += c.price * c.count;
    else if (cond.type === 'items') have += c.count;
    else have += (c.line0.product.measures?.[cond.measure] ?? 0) * c.count;
  }
  if (cond.type === 'spend') return { met: have >= cond.cents, missing: { cents: Math.max(0, cond.cents - have) } };
  if (cond.type === 'items') return { met: have >= cond.count, missing: { items: Math.max(0, cond.count - have) } };
  const need = Math.round((cond.amount - have) * 1000) / 1000;
  return { met: need <= 1e-9, missing: { amount: Math.max(0, need), measure: cond.measure } };
}

/* ------------------------------------------------------------------ one deal's value on its pools */

/**
 * Value of a candidate given its pools: for each role, the units (class indices, highest price
 * first). Null when the pools are not a valid, useful application (wrong sizes, over the limit, a
 * unit that saves nothing): such an assignment is never better than one leaving those units out,
 * which the search also visits. With `out`, each unit's discount is written (out[r][i]).
 * Without `out` nothing is allocated (the search calls this at every leaf and greedy step).
 */
function valueOf(cand: Cand, pools: readonly (readonly number[])[], classes: readonly UnitClass[], out?: number[][]): number | null {
  const d = cand.deal;
  switch (d.kind) {
    case 'set_discount':
      return itemRewardValue(d.reward, pools[0], classes, cand.limit, out?.[0]);
    case 'threshold': {
      if (d.reward.target !== 'set') return null;
      const pool = pools[0];
      if (pool.length === 0) return null;
      if (d.reward.reward.type === 'amount') {
        if (pool.length > cand.limit) return null;
        let sum = 0;
        let min = INF;
        for (const c of pool) {
          const r = classes[c].room;
          if (r === 0) return null;
          sum += r;
          if (r < min) min = r;
        }
        if (sum - min >= d.reward.reward.cents) return null;
        const total = Math.min(d.reward.reward.cents, sum);
        if (out) out[0] = splitProportional(total, pool.map((c) => classes[c].room));
        return total;
      }
      return itemRewardValue(d.reward.reward, pool, classes, cand.limit, out?.[0]);
    }
    case 'mix_match': {
      const pool = pools[0];
      if (pool.length === 0 || pool.length % d.qty !== 0) return null;
      const k = pool.length / d.qty;
      if (k > cand.limit) return null;
      let total = 0;
      const parts: number[] | null = out ? [] : null;
      for (let g = 0; g < k; g++) {
        let sum = 0;
        let room = 0;
        for (let i = g * d.qty; i < (g + 1) * d.qty; i++) {
          sum += classes[pool[i]].price;
          room += classes[pool[i]].room;
        }
        const v = Math.min(sum - d.priceCents, room);
        if (v <= 0) return null;
        total += v;
        if (parts) parts.push(...splitProportional(v, pool.slice(g * d.qty, (g + 1) * d.qty).map((c) => classes[c].room)));
      }
      if (out && parts) out[0] = parts;
      return total;
    }
    case 'bundle': {
      const items = d.items;
      const k = pools[0].length / items[0].qty;
      if (k < 1 || !Number.isInteger(k) || k > cand.limit) return null;
      for (let r = 0; r < items.length; r++) if (pools[r].length !== k * items[r].qty) return null;
      let total = 0;
      if (out) for (let r = 0; r < items.length; r++) out[r] = new Array<number>(pools[r].length).fill(0);
      for (let g = 0; g < k; g++) {
        let sum = 0;
        let room = 0;
        for (let r = 0; r < items.length; r++) {
          const q = items[r].qty;
          const pool = pools[r];
          for (let i = g * q; i < (g + 1) * q; i++) {
            sum += classes[pool[i]].price;
            room += classes[pool[i]].room;
          }
        }
        const v = Math.min(sum - d.priceCents, room);
        if (v <= 0) return null;
        total += v;
        if (out) {
          const rooms: number[] = [];
          for (let r = 0; r < items.length; r++) {
            const q = items[r].qty;
            for (let i = g * q; i < (g + 1) * q; i++) rooms.push(classes[pools[r][i]].room);
          }
          const parts = splitProportional(v, rooms);
          let j = 0;
          for (let r = 0; r < items.length; r++) {
            const q = items[r].qty;
            for (let i = g * q; i < (g + 1) * q; i++) out[r][i] = parts[j++];
          }
        }
      }
      return total;
    }
    case 'buy_get': {
      const buy = pools[0];
      const get = pools[1];
      const X = d.buy.qty;
      const Y = d.get.qty;
      if (get.length === 0 || get.length % Y !== 0) return null;
      const k = get.length / Y;
      if (buy.length !== k * X || k > cand.limit) return null;
      if (d.rewardNoPricierThanBuy) {
        for (let g = 0; g < k; g++) if (classes[get[g * Y]].price > classes[buy[g * X + X - 1]].price) return null;
      }
      if (out) out[0] = new Array<number>(buy.length).fill(0);
      return itemRewardValue(d.get.reward, get, classes, INF, out?.[1]);
    }
  }
}

type ItemReward = { type: 'percent'; percent: number } | { type: 'amount'; cents: number } | { type: 'price'; cents: number };

function itemRewardValue(reward: ItemReward, pool: readonly number[], classes: readonly UnitClass[], limit: number, out: number[] | undefined): number | null {
  const n = pool.length;
  if (n === 0 || n > limit) return null;
  if (reward.type === 'percent') {
    const p = p100(reward.percent);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const c = classes[pool[i]];
      const v = Math.min(c.price * p, c.room * 10000);
      if (v <= 0) return null;
      sum += v;
    }
    // roundedSum: half up, once for the whole pool.
    const total = Math.floor((sum + 5000) / 10000);
    if (total <= 0) return null;
    if (out) {
      const numers = pool.map((c) => percentNumer(classes[c].price, classes[c].room, reward.percent));
      out.splice(0, out.length, ...splitExact(total, numers, 10000));
    }
    return total;
  }
  let total = 0;
  for (let i = 0; i < n; i++) {
    const c = classes[pool[i]];
    const v = reward.type === 'amount' ? Math.min(reward.cents, c.room) : priceDiscount(c.price, c.room, reward.cents);
    if (v <= 0) return null;
    total += v;
  }
  if (out) out.splice(0, out.length, ...pool.map((c) => (reward.type === 'amount' ? Math.min(reward.cents, classes[c].room) : priceDiscount(classes[c].price, classes[c].room, reward.cents))));
  return total;
}

/** An upper bound on what one unit of a class can add to a candidate's value in a role (the exact search's bound). */
function optimistic(cand: Cand, role: number, c: UnitClass): number {
  const d = cand.deal;
  switch (d.kind) {
    case 'set_discount':
      return unitReward(d.reward, c);
    case 'threshold':
      return d.reward.target === 'set' ? unitReward(d.reward.reward, c) : 0;
    case 'mix_match':
      // A group saves min(Σ price − group price, Σ room): at most Σ (price − group price / N), so
      // each unit's price − price / N bounds it. Capping a unit at its room too is no bound: a unit
      // with a high cost floor next to one without can save more together than the capped shares.
      return Math.max(0, c.price - d.priceCents / d.qty);
    case 'bundle': {
      // A bundle saves min(Σ price − bundle price, Σ room) per application of N = Σ part qty units:
      // at most Σ (price − bundle price / N), as for mix and match.
      let n = 0;
      for (const item of d.items) n += item.qty;
      return Math.max(0, c.price - d.priceCents / n);
    }
    case 'buy_get':
      return role === 0 ? 0 : unitReward(d.get.reward, c);
  }
}

function unitReward(r: ItemReward, c: UnitClass): number {
  return r.type === 'percent' ? percentNumer(c.price, c.room, r.percent) / 10000 : r.type === 'amount' ? Math.min(r.cents, c.room) : priceDiscount(c.price, c.room, r.cents);
}

/* ------------------------------------------------------------------ search */

interface Solution {
  value: number;
  /** counts[slot][class] */
  counts: number[][];
}

/** A candidate's pools from the slot counts: `roleSlots[r]` is the slot of role r. */
function poolsOf(counts: number[][], roleSlots: readonly number[]): number[][] {
  return roleSlots.map((si) => {
    const row = counts[si];
    const pool: number[] = [];
    for (let c = 0; c < row.length; c++) for (let k = row[c]; k > 0; k--) pool.push(c);
    return pool;
  });
}

/**
 * One candidate applied greedily to what is still available (README "Search": the heuristic):
 * takes units out of `avail` and returns its pools (class indices, highest price first).
 * `used` is a scratch array of zeros (one per class), left as zeros; `into`, when given, is
 * emptied and filled instead of new pools (the heuristic's scratch).
 */
/** greedyPools's scratch lists (it neither nests nor yields: the engine is synchronous). */
const SCRATCH_A: number[] = [];
const SCRATCH_B: number[] = [];

function greedyPools(cand: Cand, avail: number[], classes: readonly UnitClass[], used: number[], into?: number[][]): number[][] {
  const d = cand.deal;
  let pools: number[][];
  if (into) {
    pools = into;
    for (const p of pools) p.length = 0;
  } else {
    pools = [];
    for (let r = 0; r < cand.roleSets.length; r++) pools.push([]);
  }
  if (d.kind === 'set_discount' || d.kind === 'threshold') {
    const amount = d.kind === 'threshold' && d.reward.target === 'set' && d.reward.reward.type === 'amount' ? d.reward.reward.cents : INF;
    let n = 0;
    let rooms = 0;
    for (const c of cand.valueOrder) {
      while (avail[c] > 0 && n < cand.limit && rooms < amount) {
        avail[c] -= 1;
        pools[0].push(c);
        n += 1;
        rooms += classes[c].room;
      }
    }
  } else if (d.kind === 'mix_match') {
    const els = cand.elig[0];
    for (let k = 0; k < cand.limit; k++) {
      let got = 0;
      let sum = 0;
      let room = 0;
      for (let i = 0; i < els.length && got < d.qty; i++) {
        const c = els[i];
        const n = Math.min(avail[c], d.qty - got);
        used[c] = n;
        got += n;
        sum += n * classes[c].price;
        room += n * classes[c].room;
      }
      const ok = got === d.qty && Math.min(sum - d.priceCents, room) > 0;
      for (const c of els) {
        if (ok) for (let n = used[c]; n > 0; n--) pools[0].push(c);
        if (ok) avail[c] -= used[c];
        used[c] = 0;
      }
      if (!ok) break;
    }
  } else if (d.kind === 'bundle') {
    const picked = SCRATCH_A;
    const roles = SCRATCH_B;
    for (let k = 0; k < cand.limit; k++) {
      picked.length = 0;
      roles.length = 0;
      let ok = true;
      let sum = 0;
      let room = 0;
      for (let r = 0; r < d.items.length && ok; r++) {
        let need = d.items[r].qty;
        for (const c of cand.elig[r]) {
          while (need > 0 && avail[c] - used[c] > 0) {
            used[c] += 1;
            picked.push(c);
            roles.push(r);
            sum += classes[c].price;
            room += classes[c].room;
            need -= 1;
          }
          if (need === 0) break;
        }
        if (need > 0) ok = false;
      }
      ok &&= Math.min(sum - d.priceCents, room) > 0;
      for (let i = 0; i < picked.length; i++) {
        const c = picked[i];
        used[c] = 0;
        if (ok) {
          avail[c] -= 1;
          pools[roles[i]].push(c);
        }
      }
      if (!ok) break;
    }
  } else {
    // buy_get: buys are the highest-priced eligible items, rewards the highest-priced the rule allows.
    const buys = SCRATCH_A;
    const gets = SCRATCH_B;
    for (let k = 0; k < cand.limit; k++) {
      buys.length = 0;
      gets.length = 0;
      for (const c of cand.elig[0]) {
        while (buys.length < d.buy.qty && avail[c] - used[c] > 0) {
          used[c] += 1;
          buys.push(c);
        }
        if (buys.length === d.buy.qty) break;
      }
      if (buys.length === d.buy.qty) {
        const cap = d.rewardNoPricierThanBuy ? classes[buys[buys.length - 1]].price : INF;
        for (const c of cand.valueOrder) {
          if (classes[c].price > cap) continue;
          while (gets.length < d.get.qty && avail[c] - used[c] > 0) {
            used[c] += 1;
            gets.push(c);
          }
          if (gets.length === d.get.qty) break;
        }
      }
      const ok = buys.length === d.buy.qty && gets.length === d.get.qty;
      for (const c of buys) {
        used[c] = 0;
        if (ok) {
          avail[c] -= 1;
          pools[0].push(c);
        }
      }
      for (const c of gets) {
        used[c] = 0;
        if (ok) {
          avail[c] -= 1;
          pools[1].push(c);
        }
      }
      if (!ok) break;
    }
  }
  for (const pool of pools) if (pool.length > 1) sortClasses(pool, used);
  return pools;
}

/**
 * Sort a pool of class indices ascending in place, by counting (`tally`: zeros, one per class, left
 * as zeros): the same order as sort(ascending), without the copy and the calls a sort makes.
 */
function sortClasses(pool: number[], tally: number[]): void {
  let sorted = true;
  for (let i = 1; i < pool.length; i++) {
    if (pool[i - 1] > pool[i]) {
      sorted = false;
      break;
    }
  }
  if (sorted) return;
  let lo = INF;
  let hi = -1;
  for (const c of pool) {
    tally[c] += 1;
    if (c < lo) lo = c;
    if (c > hi) hi = c;
  }
  let j = 0;
  for (let c = lo; c <= hi; c++) {
    for (let n = tally[c]; n > 0; n--) pool[j++] = c;
    tally[c] = 0;
  }
}

/** Sort class indices by `value` (Float64Array by class), highest first, then by index: insertion sort, nothing allocated (a few dozen classes at most). */
function sortByValueDesc(order: number[], value: Float64Array): void {
  for (let i = 1; i < order.length; i++) {
    const x = order[i];
    const vx = value[x];
    let j = i - 1;
    while (j >= 0 && (value[order[j]] < vx || (value[order[j]] === vx && order[j] > x))) {
      order[j + 1] = order[j];
      j -= 1;
    }
    order[j + 1] = x;
  }
}


function isEmpty(pools: readonly (readonly number[])[]): boolean {
  for (const p of pools) if (p.length > 0) return false;
  return true;
}

/** Empty pools for each role of each candidate. */
function noPools(cands: readonly Cand[]): number[][][] {
  return cands.map((c) => c.roleSets.map(() => [] as number[]));
}

/**
 * The heuristic: candidates applied greedily one after another, in a few orders; the first order
 * with the best total wins. The orders: by stand-alone saving, its reverse, then (≤ 5 candidates)
 * every order, else each of the next three first. Only the value of each order is worked out as it
 * runs, and an order whose greedy steps so far plus a ceiling on what its remaining steps could
 * take from the units left cannot beat the best so far is dropped (with every order, a subtree of
 * orders sharing that start): it could only tie, and a tie keeps the earlier order. The winner is
 * run again for its pools. Same orders, same answer as trying every order to the end.
 */
function heuristic(cands: readonly Cand[], classes: readonly UnitClass[]): { value: number; pools: number[][][] } {
  const nC = cands.length;
  const nK = classes.length;
  const used = new Array<number>(nK).fill(0);
  const base = cands.map((_, i) => i).sort((a, b) => cands[b].standalone - cands[a].standalone || a - b);
  // ceiling[ci × nK + c]: the most one unit of class c can add to candidate ci, in any role.
  const ceiling = new Float64Array(nC * nK);
  for (let ci = 0; ci < nC; ci++) {
    const cand = cands[ci];
    for (let r = 0; r < cand.roleEligible.length; r++) {
      const el = cand.roleEligible[r];
      for (const c of cand.touches) if (el[c]) ceiling[ci * nK + c] = Math.max(ceiling[ci * nK + c], optimistic(cand, r, classes[c]));
    }
  }
  // Over the base order: suf[k × nK + c] the best ceiling of class c among base[k..], pre[k × nK + c]
  // among base[..k−1]; and their rounding slack (½ cent per percent deal).
  const suf = new Float64Array((nC + 1) * nK);
  const pre = new Float64Array((nC + 1) * nK);
  const sufSlack = new Float64Array(nC + 1);
  const preSlack = new Float64Array(nC + 1);
  for (let k = nC - 1; k >= 0; k--) {
    const ci = base[k];
    for (let c = 0; c < nK; c++) suf[k * nK + c] = Math.max(suf[(k + 1) * nK + c], ceiling[ci * nK + c]);
    sufSlack[k] = sufSlack[k + 1] + (cands[ci].percent ? 0.5 : 0);
  }
  for (let k = 1; k <= nC; k++) {
    const ci = base[k - 1];
    for (let c = 0; c < nK; c++) pre[k * nK + c] = Math.max(pre[(k - 1) * nK + c], ceiling[ci * nK + c]);
    preSlack[k] = preSlack[k - 1] + (cands[ci].percent ? 0.5 : 0);
  }
  const avail = new Array<number>(nK);
  const scratch = noPools(cands);
  /**
   * One greedy step on `avail`: its value. A candidate none of whose classes has lost a unit yet
   * takes what it takes alone (its stand-alone pools and value, worked out once).
   */
  const step = (ci: number): number => {
    const cand = cands[ci];
    let untouched = true;
    for (const c of cand.touches) {
      if (avail[c] !== classes[c].count) {
        untouched = false;
        break;
      }
    }
    if (untouched) {
      for (const pool of cand.alonePools) for (const c of pool) avail[c] -= 1;
      return cand.standalone;
    }
    const p = greedyPools(cand, avail, classes, used, scratch[ci]);
    return isEmpty(p) ? 0 : (valueOf(cand, p, classes) ?? 0);
  };
  /** What candidates with these per-class ceilings (row `at` of `table`) and slack can still add from the units left. */
  const restBound = (table: Float64Array, at: number, slack: number): number => {
    let total = slack;
    for (let c = 0; c < nK; c++) total += avail[c] * table[at * nK + c];
    return total;
  };
  let bestValue = 0;
  let bestOrder: number[] | null = null;

  // The base order's units left and value before each of its steps (baseAvail[k × nK + c], baseValue[k]).
  const baseAvail = new Int32Array((nC + 1) * nK);
  const baseValue = new Float64Array(nC + 1);
  for (let c = 0; c < nK; c++) avail[c] = classes[c].count;
  let value = 0;
  for (let k = 0; k < nC; k++) {
    for (let c = 0; c < nK; c++) baseAvail[k * nK + c] = avail[c];
    baseValue[k] = value;
    value += step(base[k]);
  }
  baseValue[nC] = value;
  if (value > 0) {
    bestValue = value;
    bestOrder = base;
  }

  /**
   * Run another order; the candidates left at step k are among base[k′..] (`fromBase`) or
   * base[..k′−1] (the reverse order), which bounds what they can add. With `joins` (≥ 0), the order
   * runs the same candidates as the base order from step `joins` on, after the same ones (in
   * another order) before it: from there, as soon as the units left are the base order's at that
   * step, the rest is the base order's rest, value included.
   */
  const runOrder = (order: readonly number[], bound: (k: number) => number, joins: number): void => {
    for (let c = 0; c < nK; c++) avail[c] = classes[c].count;
    let value = 0;
    for (let k = 0; k < nC; k++) {
      if (joins >= 0 && k >= joins) {
        let same = true;
        for (let c = 0; c < nK && same; c++) same = avail[c] === baseAvail[k * nK + c];
        if (same) {
          value += baseValue[nC] - baseValue[k];
          break;
        }
      }
      if (bestOrder && Math.floor(value + bound(k) + 1e-9) <= bestValue) return;
      value += step(order[k]);
    }
    if (value > bestValue) {
      bestValue = value;
      bestOrder = [...order];
    }
  };

  // The reverse order: at step k the candidates left are base[..nC−k−1].
  runOrder([...base].reverse(), (k) => restBound(pre, nC - k, preSlack[nC - k]), -1);
  if (nC <= 5) {
    // Every order, in the order `permutations` lists them, sharing the greedy steps of a common start.
    const order: number[] = [];
    const taken = new Array<boolean>(nC).fill(false);
    const row = new Float64Array(nK);
    const walk = (value: number): void => {
      if (order.length === nC) {
        if (value > bestValue) {
          bestValue = value;
          bestOrder = [...order];
        }
        return;
      }
      if (bestOrder) {
        row.fill(0);
        let slack = 0;
        for (let i = 0; i < nC; i++) {
          if (taken[i]) continue;
          const ci = base[i];
          for (let c = 0; c < nK; c++) row[c] = Math.max(row[c], ceiling[ci * nK + c]);
          if (cands[ci].percent) slack += 0.5;
        }
        if (Math.floor(value + restBound(row, 0, slack) + 1e-9) <= bestValue) return;
      }
      for (let i = 0; i < nC; i++) {
        if (taken[i]) continue;
        const ci = base[i];
        const p = greedyPools(cands[ci], avail, classes, used, scratch[ci]);
        const v = isEmpty(p) ? 0 : (valueOf(cands[ci], p, classes) ?? 0);
        taken[i] = true;
        order.push(ci);
        walk(value + v);
        order.pop();
        taken[i] = false;
        for (const pool of p) for (const c of pool) avail[c] += 1;
      }
    };
    for (let c = 0; c < nK; c++) avail[c] = classes[c].count;
    walk(0);
  } else {
    // base[i] first, then the base order without it: at step k the candidates left are among base[k−1..] (k ≤ i), base[k..] after.
    for (let i = 1; i <= HEURISTIC_FIRSTS && i < nC; i++) {
      runOrder([base[i], ...base.filter((_, k) => k !== i)], (k) => { const from = k === 0 ? 0 : k <= i ? k - 1 : k; return restBound(suf, from, sufSlack[from]); }, i + 1);
    }
  }

  if (!bestOrder) return { value: 0, pools: noPools(cands) };
  // The winner again, keeping its pools (a greedy pick the rules refuse is left out; its units stay used).
  for (let c = 0; c < nK; c++) avail[c] = classes[c].count;
  const pools: number[][][] = new Array(nC);
  for (const ci of bestOrder as number[]) {
    const p = greedyPools(cands[ci], avail, classes, used);
    const v = isEmpty(p) ? 0 : valueOf(cands[ci], p, classes);
    pools[ci] = v == null ? cands[ci].roleSets.map(() => []) : p;
  }
  return { value: bestValue, pools };
}

/** How many candidates besides the best each get a turn at going first in the heuristic. */
const HEURISTIC_FIRSTS = 3;

function searchComponent(cands: readonly Cand[], classes: readonly UnitClass[], exactLimit: number): { value: number; pools: number[][][]; exact: boolean } {
  const slots: Slot[] = [];
  cands.forEach((cand, ci) => cand.roleSets.forEach((_, r) => slots.push({ cand: ci, role: r })));
  const candSlots: number[][] = cands.map(() => []);
  slots.forEach((s, si) => (candSlots[s.cand][s.role] = si));
  const heur = heuristic(cands, classes);
  if (slots.length === 0) return { ...heur, exact: true };
  // Alone, an item discount or a threshold's item reward is best on its most valuable units, which
  // is what the greedy takes (README "Search"): nothing to search.
  if (cands.length === 1 && (cands[0].deal.kind === 'set_discount' || cands[0].deal.kind === 'threshold')) return { ...heur, exact: true };

  // Exact search when the space is small enough (README "Search"): every way to distribute each
  // class's units over the slots that accept it, pruned by an optimistic bound.
  // (Built class by class, and given up as soon as the space is too large.)
  const classSlots: number[][] = [];
  let space = 1;
  for (let c = 0; c < classes.length; c++) {
    const ss: number[] = [];
    for (let si = 0; si < slots.length; si++) if (cands[slots[si].cand].roleEligible[slots[si].role][c]) ss.push(si);
    classSlots.push(ss);
    space *= multisets(classes[c].count, ss.length);
    if (space > exactLimit) return { ...heur, exact: false };
  }
  let best: Solution = { value: heur.value, counts: [] };

  const opt = classes.map((cl, c) => classSlots[c].map((si) => optimistic(cands[slots[si].cand], slots[si].role, cl)));
  const maxOpt = opt.map((o) => Math.max(0, ...o));
  const suffix = new Array<number>(classes.length + 1).fill(0);
  for (let c = classes.length - 1; c >= 0; c--) suffix[c] = suffix[c + 1] + maxOpt[c] * classes[c].count;
  // A percent total is rounded once (at most half a cent up) and the bound uses exact shares.
  const slack = cands.reduce((n, c) => n + (c.percent ? 0.5 : 0), 0);
  const slotCap = slots.map((s) => {
    const cand = cands[s.cand];
    return cand.limit >= INF / 1000 ? INF : cand.limit * cand.roleSize[s.role];
  });
  const used = new Array<number>(slots.length).fill(0);
  const counts = slots.map(() => new Array<number>(classes.length).fill(0));
  const candPools = cands.map((c) => c.roleSets.map(() => [] as number[]));
  // optFrom[c][k]: the most one unit of class c can add in slots k, k+1, … (0: it stays out).
  const optFrom = opt.map((o) => {
    const out = new Array<number>(o.length + 1).fill(0);
    for (let k = o.length - 1; k >= 0; k--) out[k] = Math.max(out[k + 1], o[k]);
    return out;
  });
  const slotCand = Int32Array.from(slots, (sl) => sl.cand);
  // doneAt[c]: the candidates whose last eligible class is c − 1 (none: 0), settled before class c is spread.
  const doneAt: number[][] = Array.from({ length: classes.length + 1 }, () => []);
  cands.forEach((_, ci) => {
    let last = -1;
    for (const si of candSlots[ci]) for (let c = 0; c < classes.length; c++) if (cands[ci].roleEligible[slots[si].role][c] && c > last) last = c;
    doneAt[last + 1].push(ci);
  });
  const candSlack = Float64Array.from(cands, (c) => (c.percent ? 0.5 : 0));

  const dfs: Dfs = {
    classes,
    cands,
    candSlots,
    candPools,
    classSlots,
    opt,
    optFrom,
    suffix,
    slack,
    slotCap,
    used,
    counts,
    best,
    slotCand,
    candOpt: new Float64Array(cands.length),
    candSlack,
    candValid: new Uint8Array(cands.length),
    candValue: new Array<number | null>(cands.length).fill(null),
    doneAt,
  };
  visitClass(dfs, 0, slack);
  best = dfs.best;
  if (best.counts.length === 0) return { ...heur, exact: true };
  return { value: best.value, pools: candSlots.map((rs) => poolsOf(best.counts, rs)), exact: true };
}

/** State of the exact search (plain functions: no closure is created per node). */
interface Dfs {
  classes: readonly UnitClass[];
  cands: readonly Cand[];
  candSlots: number[][];
  /** Scratch pools per candidate and role, filled at each leaf. */
  candPools: number[][][];
  classSlots: number[][];
  opt: number[][];
  suffix: number[];
  slack: number;
  slotCap: number[];
  used: number[];
  counts: number[][];
  best: Solution;
  /** optFrom[c][k]: max(0, opt[c][k…]) — the bound of class c's units not yet placed at slot k. */
  optFrom: number[][];
  slotCand: Int32Array;
  /** Per candidate: the optimistic value of the units placed in its slots so far, and its rounding slack. */
  candOpt: Float64Array;
  candSlack: Float64Array;
  /** Per candidate: its value (valueOf) for its current counts, while candValid (no count of its slots changed since). */
  candValid: Uint8Array;
  candValue: (number | null)[];
  doneAt: number[][];
}

/** Float sums of the bound's shares: a bound this close to the next cent is taken as reaching it. */
const BOUND_EPS = 1e-6;

/** A candidate's value for its current counts (valueOf on its pools; 0 with empty pools), kept until a count of its slots changes. */
function candValueNow(s: Dfs, ci: number): number | null {
  if (s.candValid[ci]) return s.candValue[ci];
  const pools = s.candPools[ci];
  const roleSlots = s.candSlots[ci];
  let any = false;
  for (let r = 0; r < roleSlots.length; r++) {
    const row = s.counts[roleSlots[r]];
    const pool = pools[r];
    pool.length = 0;
    for (let c = 0; c < row.length; c++) for (let k = row[c]; k > 0; k--) pool.push(c);
    if (pool.length > 0) any = true;
  }
  const v = any ? valueOf(s.cands[ci], pools, s.classes) : 0;
  s.candValid[ci] = 1;
  s.candValue[ci] = v;
  return v;
}

/**
 * Before class c is spread, the candidates whose classes are all placed are settled: their value
 * is what every leaf below gives them, so one that is not a valid application (null) makes every
 * leaf below null (none can pass the best), and a valid one counts its value instead of its units'
 * optimistic shares and slack in the bound. `bound` is the bound so far: settled values, plus the
 * open candidates' placed shares and slack. Pruning only what cannot pass the best, the search
 * improves its best at the same leaves as the plain search, in the same order: the same answer.
 */
function visitClass(s: Dfs, c: number, bound: number): void {
  for (const ci of s.doneAt[c]) {
    const v = candValueNow(s, ci);
    if (v == null) return;
    bound += v - s.candOpt[ci] - s.candSlack[ci];
  }
  if (Math.floor(bound + s.suffix[c] + BOUND_EPS) <= s.best.value) return;
  if (c === s.classes.length) {
    // Every candidate is settled: the leaf's value is the sum of theirs.
    let v = 0;
    for (let ci = 0; ci < s.cands.length; ci++) v += s.candValue[ci]!;
    if (v > s.best.value) s.best = { value: v, counts: s.counts.map((row) => [...row]) };
    return;
  }
  spread(s, c, 0, s.classes[c].count, bound);
}

/** Every way to share class c's remaining `left` units among its slots k, k+1, … (the rest stay out). */
function spread(s: Dfs, c: number, k: number, left: number, partial: number): void {
  const ss = s.classSlots[c];
  if (k === ss.length) {
    visitClass(s, c + 1, partial);
    return;
  }
  // The same bound as visitClass's, with the class's units left at their best in slots k….
  if (k > 0 && Math.floor(partial + left * s.optFrom[c][k] + s.suffix[c + 1] + BOUND_EPS) <= s.best.value) return;
  const si = ss[k];
  const ci = s.slotCand[si];
  const o = s.opt[c][k];
  const row = s.counts[si];
  const most = Math.min(left, s.slotCap[si] - s.used[si]);
  for (let n = most; n >= 0; n--) {
    row[c] = n;
    s.candValid[ci] = 0;
    s.candOpt[ci] += n * o;
    s.used[si] += n;
    spread(s, c, k + 1, left - n, partial + n * o);
    s.used[si] -= n;
    s.candOpt[ci] -= n * o;
  }
  row[c] = 0;
  s.candValid[ci] = 0;
}

interface ItemSearch {
  value: number;
  /** Per candidate (same index as the input), its pools per role; empty pools: not applied. */
  pools: number[][][];
  exact: boolean;
}

/**
 * The item layer: candidates that can never compete for the same units (no class eligible for
 * both) are independent, so each connected group is searched on its own and the values add up.
 */
function searchItems(cands: readonly Cand[], classes: readonly UnitClass[], exactLimit: number): ItemSearch {
  const parent = cands.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const owner = new Array<number>(classes.length).fill(-1);
  for (let ci = 0; ci < cands.length; ci++) {
    for (const c of cands[ci].touches) {
      if (owner[c] < 0) owner[c] = ci;
      else parent[find(ci)] = find(owner[c]);
    }
  }
  const groups = new Map<number, number[]>();
  for (let ci = 0; ci < cands.length; ci++) {
    const root = find(ci);
    const g = groups.get(root);
    if (g) g.push(ci);
    else groups.set(root, [ci]);
  }
  const result: ItemSearch = { value: 0, pools: new Array(cands.length), exact: true };
  for (const members of groups.values()) {
    const sub = members.map((ci) => cands[ci]);
    const found = searchComponent(sub, classes, exactLimit);
    result.value += found.value;
    result.exact &&= found.exact;
    members.forEach((ci, k) => (result.pools[ci] = found.pools[k]));
  }
  return result;
}

function multisets(n: number, slots: number): number {
  // Ways to put n identical units into `slots` slots or leave them out: C(n + slots, slots).
  let r = 1;
  for (let i = 1; i <= slots; i++) r = (r * (n + i)) / i;
  return Math.round(r);
}

/* ------------------------------------------------------------------ order-level rewards */

/** Units as flat arrays: class index and unit index within the class, in class order. */
interface UnitList {
  c: Int32Array;
  j: Int32Array;
}

function unitList(classes: readonly UnitClass[]): UnitList {
  let n = 0;
  for (const cl of classes) n += cl.count;
  const c = new Int32Array(n);
  const j = new Int32Array(n);
  let u = 0;
  for (let ci = 0; ci < classes.length; ci++) {
    for (let k = 0; k < classes[ci].count; k++, u++) {
      c[u] = ci;
      j[u] = k;
    }
  }
  return { c, j };
}

/**
 * An order-level reward on the prices after item deals: each unit's weight (percent: its exact
 * numerator over 10000; amount: its room), the reward's total, and with `withParts` each unit's
 * share (flat, unit order). Only the winner of the order layer needs its shares.
 */
function orderValue(deal: ThresholdDeal, classes: readonly UnitClass[], units: UnitList, unitDiscounts: readonly number[][], withParts: boolean): { total: number; parts: number[] } {
  const n = units.c.length;
  if (deal.reward.target !== 'order') return { total: 0, parts: NO_UNITS };
  const r = deal.reward.reward;
  const weights = new Array<number>(n);
  let sum = 0;
  for (let u = 0; u < n; u++) {
    const cl = classes[units.c[u]];
    const after = cl.price - unitDiscounts[units.c[u]][units.j[u]];
    const room = Math.max(0, after - cl.floor);
    weights[u] = r.type === 'percent' ? percentNumer(after, room, r.percent) : room;
    sum += weights[u];
  }
  const total = r.type === 'percent' ? roundedSum(weights, 10000) : Math.min(r.cents, sum);
  if (total <= 0) return { total: 0, parts: NO_UNITS };
  if (!withParts) return { total, parts: NO_UNITS };
  return { total, parts: r.type === 'percent' ? splitExact(total, weights, 10000) : splitProportional(total, weights) };
}

/* ------------------------------------------------------------------ evaluate */

function byId(a: { id: string }, b: { id: string }) {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function isOrderLevel(deal: Deal): deal is ThresholdDeal {
  return deal.kind === 'threshold' && deal.reward.target === 'order';
}

function candidateFor(plan: DealPlan, cart: Cart): Cand {
  const classes = cart.classes;
  const deal = plan.deal;
  const nR = plan.roles.length;
  const roleEligible: Uint8Array[] = new Array(nR);
  const elig: number[][] = new Array(nR);
  for (let r = 0; r < nR; r++) {
    roleEligible[r] = rowOf(cart, plan.roles[r]);
    elig[r] = eligOf(cart, plan.roles[r]);
  }
  let touches: number[];
  if (nR === 1) touches = elig[0];
  else {
    touches = [];
    for (let c = 0; c < classes.length; c++) {
      for (let r = 0; r < nR; r++) {
        if (roleEligible[r][c]) {
          touches.push(c);
          break;
        }
      }
    }
  }
  return { deal, roleSets: plan.roleSets, roleSize: plan.roleSize, limit: plan.limit, roleEligible, exclusive: !deal.stacking.deals, elig, valueOrder: [], standalone: 0, alonePools: [], touches, percent: plan.percent };
}

/** A candidate that has enough items: its reward role's classes by value and what it saves alone (greedy). */
function valueCandidate(cand: Cand, cart: Cart): void {
  const classes = cart.classes;
  const elig = cand.elig;
  const rewardRole = cand.deal.kind === 'buy_get' ? 1 : 0;
  if (cand.roleSets.length > 0) {
    const order: number[] = [];
    const value = cart.scratchValues;
    for (const c of elig[rewardRole]) {
      const v = optimistic(cand, rewardRole, classes[c]);
      if (v > 0) {
        order.push(c);
        value[c] = v;
      }
    }
    if (order.length > 1) sortByValueDesc(order, value);
    cand.valueOrder = order;
    const pools = greedyPools(cand, cart.counts.slice(), classes, cart.scratchUsed);
    cand.standalone = isEmpty(pools) ? 0 : (valueOf(cand, pools, classes) ?? 0);
    cand.alonePools = pools;
  }
}

/** An upper bound on what a deal saves alone: every unit's best share of it (the exact search's bound). */
function aloneBound(deal: Deal, cands: readonly Cand[], classes: readonly UnitClass[]): number {
  if (deal.kind === 'threshold' && deal.reward.target === 'order') {
    const r = deal.reward.reward;
    let rooms = 0;
    let subtotal = 0;
    for (const c of classes) {
      rooms += c.room * c.count;
      subtotal += c.price * c.count;
    }
    if (r.type === 'amount') return Math.min(r.cents, rooms);
    return r.type === 'percent' ? Math.ceil((subtotal * r.percent) / 100) + 1 : rooms;
  }
  const cand = cands.find((c) => c.deal === deal)!;
  let bound = cand.percent ? 1 : 0;
  // A group (mix and match, bundle) never saves more than the room of the units it could use: Σ room
  // is a second bound, and the smaller of the two sums is one too (not a per-unit minimum; see optimistic).
  let rooms = 0;
  classes.forEach((cl, c) => {
    let best = 0;
    let eligible = false;
    cand.roleEligible.forEach((row, r) => {
      if (!row[c]) return;
      eligible = true;
      best = Math.max(best, optimistic(cand, r, cl));
    });
    bound += best * cl.count;
    if (eligible) rooms += cl.room * cl.count;
  });
  return deal.kind === 'bundle' || deal.kind === 'mix_match' ? Math.min(bound, rooms) : bound;
}

/** How many more items a group kind needs before it can apply once (or once more), from the cart's eligible units. */
function itemsShort(cand: Cand, plan: DealPlan, cart: Cart): number {
  const d = cand.deal;
  if (d.kind === 'mix_match') return Math.max(0, d.qty - unitsIn(cart, plan.roles[0]));
  if (d.kind === 'bundle') {
    let short = 0;
    for (let r = 0; r < d.items.length; r++) short += Math.max(0, d.items[r].qty - unitsIn(cart, plan.roles[r]));
    return short;
  }
  if (d.kind === 'buy_get') {
    let both = 0;
    const a = cand.roleEligible[0];
    const b = cand.roleEligible[1];
    for (let i = 0; i < cart.classes.length; i++) if (a[i] || b[i]) both += cart.classes[i].count;
    return Math.max(0, d.buy.qty - unitsIn(cart, plan.roles[0]), d.get.qty - unitsIn(cart, plan.roles[1]), d.buy.qty + d.get.qty - both);
  }
  return anyEligible(cart, plan) ? 0 : 1;
}

/** What one deal gave in a scenario: per touched unit (class, unit index) its share. */
interface DealParts {
  c: number[];
  j: number[];
  v: number[];
}

/**
 * The deals engine. `deals` is a plain list or a `prepareDeals` list; a plain list is prepared on
 * the first call and the preparation reused while the same array holds the same deals.
 */
export function evaluateDeals(
  lines: readonly DealCartLine[],
  deals: readonly Deal[] | PreparedDeals,
  ctx: DealContext,
  floor: DealFloor = {},
  options: EvaluateOptions = {},
): DealsResult {
  const exactLimit = options.exactLimit ?? DEFAULT_EXACT_LIMIT;
  const prepared = preparedFor(deals);
  const cart = buildCart(lines, floor, ctx, prepared);
  const classes = cart.classes;
  const sortedDeals = prepared.deals;
  const notApplied: DealNotApplied[] = [];
  const nudges: DealNudge[] = [];
  const itemCands: Cand[] = [];
  const orderDeals: ThresholdDeal[] = [];

  for (const plan of prepared.plans) {
    const deal = plan.deal;
    const reason = eligibilityReason(deal, ctx);
    if (reason) {
      notApplied.push({ dealId: deal.id, reason });
      continue;
    }
    if (deal.kind === 'threshold') {
      const progress = conditionProgress(deal.condition, plan.conditionSet, cart);
      if (!progress.met) {
        notApplied.push({ dealId: deal.id, reason: 'below_threshold', missing: progress.missing });
        if (nudgeWorthy(deal.condition, progress.missing)) nudges.push({ dealId: deal.id, missing: progress.missing });
        continue;
      }
      if (plan.orderLevel) {
        orderDeals.push(deal as ThresholdDeal);
        continue;
      }
    }
    // The index: a deal none of whose sets holds a line of the cart is settled without more work.
    if (!anyEligible(cart, plan)) {
      notApplied.push({ dealId: deal.id, reason: 'no_matching_items' });
      continue;
    }
    const cand = candidateFor(plan, cart);
    const short = itemsShort(cand, plan, cart);
    if (short > 0) {
      notApplied.push({ dealId: deal.id, reason: 'not_enough_items', missing: { items: short } });
      nudges.push({ dealId: deal.id, missing: { items: short } });
      continue;
    }
    valueCandidate(cand, cart);
    itemCands.push(cand);
  }

  // Scenarios (README "Stacking"): every deal that combines, together; each deal that does not, alone.
  interface Scenario {
    cands: Cand[];
    item: ItemSearch;
    order: ThresholdDeal | null;
    value: number;
    perDeal: Map<string, DealParts>;
  }
  let units: UnitList | null = null;
  const realise = (cands: Cand[], orderPool: ThresholdDeal[]): Scenario => {
    const item = searchItems(cands, classes, exactLimit);
    const perDeal = new Map<string, DealParts>();
    const next = new Array<number>(classes.length).fill(0);
    let unitDiscounts: number[][] | null = null;
    // Units of a class go to slots in slot order; each slot's units are the next ones of the class.
    cands.forEach((cand, ci) => {
      const pools = item.pools[ci];
      if (isEmpty(pools)) return;
      const out: number[][] = pools.map((p) => new Array<number>(p.length).fill(0));
      valueOf(cand, pools, classes, out);
      const parts: DealParts = { c: [], j: [], v: [] };
      unitDiscounts ??= classes.map((c) => new Array<number>(c.count).fill(0));
      pools.forEach((pool, r) =>
        pool.forEach((c, i) => {
          const j = next[c]++;
          parts.c.push(c);
          parts.j.push(j);
          parts.v.push(out[r][i]);
          unitDiscounts![c][j] += out[r][i];
        }),
      );
      perDeal.set(cand.deal.id, parts);
    });
    let order: ThresholdDeal | null = null;
    let orderTotal = 0;
    let orderParts: number[] = NO_UNITS;
    if (orderPool.length > 0) {
      units ??= unitList(classes);
      unitDiscounts ??= classes.map((c) => new Array<number>(c.count).fill(0));
      for (const od of orderPool) {
        const v = orderValue(od, classes, units, unitDiscounts, false);
        if (v.total > orderTotal) {
          order = od;
          orderTotal = v.total;
        }
      }
      if (order) orderParts = orderValue(order, classes, units, unitDiscounts, true).parts;
    }
    if (order && units) {
      const parts: DealParts = { c: [], j: [], v: [] };
      for (let u = 0; u < orderParts.length; u++) {
        if (orderParts[u] <= 0) continue;
        parts.c.push(units.c[u]);
        parts.j.push(units.j[u]);
        parts.v.push(orderParts[u]);
      }
      perDeal.set(order.id, parts);
    }
    return { cands, item, order, value: item.value + orderTotal, perDeal };
  };

  const stackItems = itemCands.filter((c) => !c.exclusive);
  const stackOrders = orderDeals.filter((d) => d.stacking.deals);
  let chosen = realise(stackItems, stackOrders);
  let exact = chosen.item.exact;
  const alone: Deal[] = [...itemCands.filter((c) => c.exclusive).map((c) => c.deal), ...orderDeals.filter((d) => !d.stacking.deals)].sort(byId);
  for (const deal of alone) {
    // A deal that cannot beat the answer so far even in the best case is not worth realising.
    if (aloneBound(deal, itemCands, classes) <= chosen.value) continue;
    const s = isOrderLevel(deal) ? realise([], [deal]) : realise(itemCands.filter((c) => c.deal === deal), []);
    exact &&= s.item.exact;
    if (s.value > chosen.value) chosen = s;
  }

  // Lines and applied deals.
  const sortedLines = [...lines].sort(byId);
  const lineResults = new Map<string, DealLineResult>();
  for (const line of sortedLines) {
    lineResults.set(line.id, { lineId: line.id, subtotalCents: line.unitPriceCents * line.qty, discountCents: 0, totalCents: line.unitPriceCents * line.qty, deals: [] });
  }
  const lineOfUnit = (c: number, j: number): string => {
    let k = j;
    for (const l of classes[c].lines) {
      if (k < l.qty) return l.id;
      k -= l.qty;
    }
    throw new Error('unit outside its class');
  };
  const applied: AppliedDeal[] = [];
  const appliedDeals: Deal[] = [];
  const appliedIds = new Set<string>();
  for (const deal of sortedDeals) {
    const pd = chosen.perDeal.get(deal.id);
    if (!pd) continue;
    const perLine = new Map<string, number>();
    let total = 0;
    for (let u = 0; u < pd.c.length; u++) {
      const id = lineOfUnit(pd.c[u], pd.j[u]);
      perLine.set(id, (perLine.get(id) ?? 0) + pd.v[u]);
      total += pd.v[u];
    }
    if (total <= 0) continue;
    appliedIds.add(deal.id);
    for (const [id, v] of perLine) {
      const lr = lineResults.get(id)!;
      lr.deals.push({ dealId: deal.id, discountCents: v });
      lr.discountCents += v;
      lr.totalCents -= v;
    }
    const cand = chosen.cands.find((c) => c.deal === deal);
    let applications = 1;
    if (cand) {
      const touched = pd.c.length;
      const size = cand.roleSize.reduce((s, x) => s + x, 0);
      applications = deal.kind === 'set_discount' || deal.kind === 'threshold' ? (deal.kind === 'threshold' ? 1 : touched) : touched / size;
    }
    applied.push({ dealId: deal.id, kind: deal.kind, discountCents: total, applications, lineIds: [...perLine.keys()].sort() });
    appliedDeals.push(deal);
    // Nudge to apply a group deal once more.
    if (cand && (deal.kind === 'mix_match' || deal.kind === 'buy_get') && applications < cand.limit) {
      const size = cand.roleSize.reduce((s, x) => s + x, 0);
      let eligibleUnits = 0;
      for (let i = 0; i < classes.length; i++) if (cand.roleEligible.some((r) => r[i])) eligibleUnits += classes[i].count;
      const left = eligibleUnits - applications * size;
      if (left > 0 && left < size) nudges.push({ dealId: deal.id, missing: { items: size - left, again: true } });
    }
  }
  const chosenExclusive = chosen.cands.length === 1 && chosen.cands[0].exclusive ? chosen.cands[0].deal : chosen.order && !chosen.order.stacking.deals ? chosen.order : null;
  // Each list is in deal id order already (deals are visited by id): merging them is the stable sort by id.
  const lostItems: DealNotApplied[] = [];
  for (const cand of itemCands) {
    if (appliedIds.has(cand.deal.id)) continue;
    const lostToExclusive = chosenExclusive != null || cand.exclusive;
    const reason = cand.standalone <= 0 ? 'no_saving' : lostToExclusive ? 'not_combinable' : 'better_deal_chosen';
    lostItems.push({ dealId: cand.deal.id, reason });
  }
  const lostOrders: DealNotApplied[] = [];
  for (const od of orderDeals) {
    if (appliedIds.has(od.id)) continue;
    const lostToExclusive = chosenExclusive != null || !od.stacking.deals;
    lostOrders.push({ dealId: od.id, reason: lostToExclusive && chosenExclusive !== od ? 'not_combinable' : 'better_deal_chosen' });
  }
  const allNotApplied = mergeById(mergeById(notApplied, lostItems), lostOrders);
  nudges.sort((a, b) => (a.dealId < b.dealId ? -1 : a.dealId > b.dealId ? 1 : 0));

  const lineList = [...lineResults.values()];
  let subtotal = 0;
  let discount = 0;
  for (const lr of lineList) {
    if (lr.deals.length > 1) lr.deals.sort((a, b) => (a.dealId < b.dealId ? -1 : 1));
    subtotal += lr.subtotalCents;
    discount += lr.discountCents;
  }
  return {
    subtotalCents: subtotal,
    discountCents: discount,
    totalCents: subtotal - discount,
    lines: lineList,
    applied,
    notApplied: allNotApplied,
    nudges,
    allowsCoupons: appliedDeals.every((d) => d.stacking.coupons),
    allowsPoints: appliedDeals.every((d) => d.stacking.points),
    exact,
  };
}

/** Two lists each in deal id order, as one: on equal ids the first list's entries come first (a stable sort). */
function mergeById<T extends { dealId: string }>(a: readonly T[], b: readonly T[]): T[] {
  if (b.length === 0) return a as T[];
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(b[j].dealId < a[i].dealId ? b[j++] : a[i++]);
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

/** A spend or count threshold is worth a nudge when the shopper is at least half way there. */
function nudgeWorthy(cond: ThresholdCondition, missing: DealMissing): boolean {
  if (cond.type === 'spend') return (missing.cents ?? 0) * 2 <= cond.cents;
  if (cond.type === 'items') return (missing.items ?? 0) * 2 <= cond.count;
  return (missing.amount ?? 0) * 2 <= cond.amount;
}

/* ------------------------------------------------------------------ the brute force (tests only) */

/**
 * The best discount by brute force, for the property test on tiny carts: every unit, one by one,
 * goes to no deal or to any role of any item-level deal that accepts it, and every such assignment
 * is valued; stackable deals together, each deal that does not stack alone. Item-level deals only
 * (order-level thresholds are left out): the value rules are the engine's, the search is not.
 */
export function bruteForceItemDiscount(lines: readonly DealCartLine[], deals: readonly Deal[], ctx: DealContext, floor: DealFloor = {}): number {
  const prepared = prepareDeals(deals);
  const cart = buildCart(lines, floor, ctx, prepared);
  const classes = cart.classes;
  const cands: Cand[] = [];
  for (const plan of prepared.plans) {
    const deal = plan.deal;
    if (plan.orderLevel || eligibilityReason(deal, ctx)) continue;
    if (deal.kind === 'threshold' && !conditionProgress(deal.condition, plan.conditionSet, cart).met) continue;
    const cand = candidateFor(plan, cart);
    valueCandidate(cand, cart);
    cands.push(cand);
  }
  const units: number[] = [];
  classes.forEach((c, ci) => {
    for (let k = 0; k < c.count; k++) units.push(ci);
  });
  const best = (group: Cand[]): number => {
    const slots: Slot[] = [];
    group.forEach((cand, ci) => cand.roleSets.forEach((_, r) => slots.push({ cand: ci, role: r })));
    let top = 0;
    const choice: number[] = new Array(units.length).fill(-1);
    const walk = (u: number): void => {
      if (u === units.length) {
        let total = 0;
        for (let ci = 0; ci < group.length; ci++) {
          const pools: number[][] = group[ci].roleSets.map(() => []);
          choice.forEach((si, k) => {
            if (si >= 0 && slots[si].cand === ci) pools[slots[si].role].push(units[k]);
          });
          if (pools.every((p) => p.length === 0)) continue;
          for (const p of pools) p.sort((a, b) => a - b);
          const v = valueOf(group[ci], pools, classes);
          if (v == null) return;
          total += v;
        }
        top = Math.max(top, total);
        return;
      }
      choice[u] = -1;
      walk(u + 1);
      slots.forEach((s, si) => {
        if (!group[s.cand].roleEligible[s.role][units[u]]) return;
        choice[u] = si;
        walk(u + 1);
      });
      choice[u] = -1;
    };
    walk(0);
    return top;
  };
  let answer = best(cands.filter((c) => !c.exclusive));
  for (const c of cands.filter((x) => x.exclusive)) answer = Math.max(answer, best([c]));
  return answer;
}
