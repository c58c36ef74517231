/**
 * The deals engine as it was before the speed work of issue 28 (packages/domain/src/deals/engine.ts
 * at commit 6203b42), kept verbatim apart from this header, the imports, the name of the entry
 * point and one fix made in both (the mix-and-match bound in `optimistic`, which pruned the best
 * group when a unit's cost floor was above its share of the group price). It is the oracle of
 * engine.equivalence.property.test.ts: the indexed, prepared engine must give exactly the same
 * result (every cent, reason, nudge and line) on random carts and deal lists. Not used by the
 * product. When the engine's rules change on purpose, change them here too.
 */
import { roundedSum, splitExact, splitProportional } from '../../src/deals/allocate.ts';
import { eligibilityReason, preparedInSet, prepareProduct, type PreparedProduct } from '../../src/deals/match.ts';
import type { Deal, DealCartLine, DealContext, DealFloor, DealMeasure, ProductSet, ThresholdCondition, ThresholdDeal } from '../../src/deals/model.ts';
import type { DealLineResult, DealMissing, DealNotApplied, DealNudge, DealsResult, AppliedDeal, EvaluateOptions } from '../../src/deals/engine.ts';

const DEFAULT_EXACT_LIMIT = 20_000;

/* ------------------------------------------------------------------ internal model */

interface UnitClass {
  key: string;
  line0: DealCartLine;
  prepared: PreparedProduct;
  price: number;
  floor: number;
  room: number;
  count: number;
  /** Lines in id order with their quantities: unit j of the class belongs to the line covering j. */
  lines: { id: string; qty: number }[];
}

interface Cand {
  deal: Deal;
  /** Item-layer roles: the product set of each role (order-level thresholds have none). */
  roleSets: (ProductSet | undefined)[];
  /** Units of each role one application takes (set-discount/threshold: 1 and ∞ applications cap via limit). */
  roleSize: number[];
  /** Most applications (units for item discounts; groups otherwise). */
  limit: number;
  /** roleEligible[r][c]: class c may fill role r. */
  roleEligible: boolean[][];
  exclusive: boolean;
  /** Eligible classes per role, highest price first. */
  elig: number[][];
  /** Classes of the reward role by what one unit saves, most first (only those saving something). */
  valueOrder: number[];
  /** What the candidate saves alone on the whole cart, greedily (heuristic order; the trace's no_saving). */
  standalone: number;
}

interface Slot {
  cand: number;
  role: number;
}

const INF = Number.MAX_SAFE_INTEGER;

function unitFloor(line: DealCartLine, floor: DealFloor): number {
  const min = floor.minUnitCents ?? 1;
  const cost = floor.useCost && line.product.costCents != null ? line.product.costCents : 0;
  return Math.min(line.unitPriceCents, Math.max(min, cost));
}

function buildClasses(lines: readonly DealCartLine[], floor: DealFloor, ctx: DealContext): UnitClass[] {
  const byKey = new Map<string, UnitClass>();
  for (const line of lines) {
    if (!Number.isInteger(line.qty) || line.qty < 0) throw new RangeError(`line ${line.id}: qty must be a whole number ≥ 0`);
    if (!Number.isInteger(line.unitPriceCents) || line.unitPriceCents < 0) throw new RangeError(`line ${line.id}: price must be whole cents ≥ 0`);
    if (line.qty === 0) continue;
    const f = unitFloor(line, floor);
    const key = `${line.product.sku}\u0000${line.unitPriceCents}\u0000${f}`;
    let c = byKey.get(key);
    if (!c) {
      c = { key, line0: line, prepared: undefined as unknown as PreparedProduct, price: line.unitPriceCents, floor: f, room: line.unitPriceCents - f, count: 0, lines: [] };
      byKey.set(key, c);
    }
    c.count += line.qty;
    c.lines.push({ id: line.id, qty: line.qty });
  }
  const classes = [...byKey.values()];
  for (const c of classes) {
    c.lines.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    // The facts of the class are those of its first line in id order (same sku: same product).
    c.line0 = lines.find((l) => l.id === c.lines[0].id)!;
    c.prepared = prepareProduct(c.line0.product, ctx.categoryParents);
  }
  classes.sort((a, b) => b.price - a.price || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return classes;
}

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

function conditionProgress(cond: ThresholdCondition, classes: readonly UnitClass[], ctx: DealContext): { met: boolean; missing: DealMissing } {
  let have = 0;
  for (const c of classes) {
    if (!preparedInSet(c.prepared, cond.set)) continue;
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
 */
function valueOf(cand: Cand, pools: number[][], classes: readonly UnitClass[], out?: number[][]): number | null {
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
        const rooms = pool.map((c) => classes[c].room);
        const sum = rooms.reduce((s, r) => s + r, 0);
        if (rooms.some((r) => r === 0) || sum - Math.min(...rooms) >= d.reward.reward.cents) return null;
        const total = Math.min(d.reward.reward.cents, sum);
        if (out) out[0] = splitProportional(total, rooms);
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
      const parts: number[] = [];
      for (let g = 0; g < k; g++) {
        const group = pool.slice(g * d.qty, (g + 1) * d.qty);
        const v = groupValue(group, d.priceCents, classes);
        if (v <= 0) return null;
        total += v;
        if (out) parts.push(...splitProportional(v, group.map((c) => classes[c].room)));
      }
      if (out) out[0] = parts;
      return total;
    }
    case 'bundle': {
      const k = pools[0].length / d.items[0].qty;
      if (k < 1 || !Number.isInteger(k) || k > cand.limit) return null;
      for (let r = 0; r < d.items.length; r++) if (pools[r].length !== k * d.items[r].qty) return null;
      let total = 0;
      if (out) for (let r = 0; r < d.items.length; r++) out[r] = new Array(pools[r].length).fill(0);
      for (let g = 0; g < k; g++) {
        const group: number[] = [];
        const where: [number, number][] = [];
        for (let r = 0; r < d.items.length; r++) {
          const q = d.items[r].qty;
          for (let i = g * q; i < (g + 1) * q; i++) {
            group.push(pools[r][i]);
            where.push([r, i]);
          }
        }
        const v = groupValue(group, d.priceCents, classes);
        if (v <= 0) return null;
        total += v;
        if (out) {
          const parts = splitProportional(v, group.map((c) => classes[c].room));
          where.forEach(([r, i], j) => (out[r][i] = parts[j]));
        }
      }
      return total;
    }
    case 'buy_get': {
      const [buy, get] = pools;
      const X = d.buy.qty;
      const Y = d.get.qty;
      if (get.length === 0 || get.length % Y !== 0) return null;
      const k = get.length / Y;
      if (buy.length !== k * X || k > cand.limit) return null;
      if (d.rewardNoPricierThanBuy) {
        for (let g = 0; g < k; g++) if (classes[get[g * Y]].price > classes[buy[g * X + X - 1]].price) return null;
      }
      if (out) out[0] = new Array(buy.length).fill(0);
      return itemRewardValue(d.get.reward, get, classes, INF, out?.[1]);
    }
  }
}

function groupValue(group: readonly number[], price: number, classes: readonly UnitClass[]): number {
  let sum = 0;
  let room = 0;
  for (const c of group) {
    sum += classes[c].price;
    room += classes[c].room;
  }
  return Math.min(sum - price, room);
}

function itemRewardValue(
  reward: { type: 'percent'; percent: number } | { type: 'amount'; cents: number } | { type: 'price'; cents: number },
  pool: readonly number[],
  classes: readonly UnitClass[],
  limit: number,
  out: number[] | undefined,
): number | null {
  if (pool.length === 0 || pool.length > limit) return null;
  if (reward.type === 'percent') {
    const numers = pool.map((c) => percentNumer(classes[c].price, classes[c].room, reward.percent));
    if (numers.some((n) => n <= 0)) return null;
    const total = roundedSum(numers, 10000);
    if (total <= 0) return null;
    if (out) out.splice(0, out.length, ...splitExact(total, numers, 10000));
    return total;
  }
  const each = pool.map((c) => (reward.type === 'amount' ? Math.min(reward.cents, classes[c].room) : priceDiscount(classes[c].price, classes[c].room, reward.cents)));
  if (each.some((v) => v <= 0)) return null;
  if (out) out.splice(0, out.length, ...each);
  return each.reduce((s, v) => s + v, 0);
}

/** An upper bound on what one unit of a class can add to a candidate's value in a role. */
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
    case 'bundle':
      return c.room;
    case 'buy_get':
      return role === 0 ? 0 : unitReward(d.get.reward, c);
  }
}

function unitReward(r: { type: 'percent'; percent: number } | { type: 'amount'; cents: number } | { type: 'price'; cents: number }, c: UnitClass): number {
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

function totalValue(counts: number[][], candSlots: readonly number[][], cands: readonly Cand[], classes: readonly UnitClass[]): number | null {
  let total = 0;
  for (let ci = 0; ci < cands.length; ci++) {
    const pools = poolsOf(counts, candSlots[ci]);
    if (pools.every((p) => p.length === 0)) continue;
    const v = valueOf(cands[ci], pools, classes);
    if (v == null) return null;
    total += v;
  }
  return total;
}

/**
 * One candidate applied greedily to what is still available (README "Search": the heuristic):
 * takes units out of `avail` and returns its pools (class indices, highest price first).
 * `used` is a scratch array of zeros (one per class), left as zeros.
 */
function greedyPools(cand: Cand, avail: number[], classes: readonly UnitClass[], used: number[]): number[][] {
  const d = cand.deal;
  const pools: number[][] = cand.roleSets.map(() => []);
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
    const picked: number[] = [];
    const roles: number[] = [];
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
    const buys: number[] = [];
    const gets: number[] = [];
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
  for (const pool of pools) pool.sort((a, b) => a - b);
  return pools;
}

/** The heuristic: candidates applied greedily one after another, in a few orders; the best total. */
function heuristic(cands: readonly Cand[], classes: readonly UnitClass[]): { value: number; pools: number[][][] } {
  const used = new Array<number>(classes.length).fill(0);
  const base = cands.map((_, i) => i).sort((a, b) => cands[b].standalone - cands[a].standalone || a - b);
  const orders: number[][] = [base, [...base].reverse()];
  if (cands.length <= 5) orders.push(...permutations(base));
  else for (const first of base.slice(1, HEURISTIC_FIRSTS + 1)) orders.push([first, ...base.filter((x) => x !== first)]);
  let best = { value: 0, pools: cands.map((c) => c.roleSets.map(() => [] as number[])) };
  for (const order of orders) {
    const avail = classes.map((c) => c.count);
    const pools: number[][][] = new Array(cands.length);
    let value = 0;
    for (const ci of order) {
      const p = greedyPools(cands[ci], avail, classes, used);
      const v = p.some((x) => x.length > 0) ? valueOf(cands[ci], p, classes) : 0;
      // A greedy pick the rules refuse is left out (its units stay used: the heuristic is a lower bound).
      pools[ci] = v == null ? cands[ci].roleSets.map(() => []) : p;
      value += v ?? 0;
    }
    if (value > best.value) best = { value, pools };
  }
  return best;
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
  let best: Solution = { value: heur.value, counts: [] };

  // Exact search when the space is small enough (README "Search"): every way to distribute each
  // class's units over the slots that accept it, pruned by an optimistic bound.
  const classSlots = classes.map((_, c) => slots.map((s, si) => si).filter((si) => cands[slots[si].cand].roleEligible[slots[si].role][c]));
  let space = 1;
  for (let c = 0; c < classes.length && space <= exactLimit; c++) space *= multisets(classes[c].count, classSlots[c].length);
  if (space > exactLimit) return { ...heur, exact: false };

  const opt = classes.map((cl, c) => classSlots[c].map((si) => optimistic(cands[slots[si].cand], slots[si].role, cl)));
  const maxOpt = opt.map((o) => Math.max(0, ...o));
  const suffix = new Array<number>(classes.length + 1).fill(0);
  for (let c = classes.length - 1; c >= 0; c--) suffix[c] = suffix[c + 1] + maxOpt[c] * classes[c].count;
  // A percent total is rounded once (at most half a cent up) and the bound uses exact shares.
  const slack = cands.reduce((n, c) => n + (usesPercent(c.deal) ? 0.5 : 0), 0);
  const slotCap = slots.map((s) => {
    const cand = cands[s.cand];
    return cand.limit >= INF / 1000 ? INF : cand.limit * cand.roleSize[s.role];
  });
  const used = new Array<number>(slots.length).fill(0);
  const counts = slots.map(() => new Array<number>(classes.length).fill(0));

  const dfs: Dfs = { classes, cands, candSlots, classSlots, opt, suffix, slack, slotCap, used, counts, best };
  visitClass(dfs, 0, 0);
  best = dfs.best;
  if (best.counts.length === 0) return { ...heur, exact: true };
  return { value: best.value, pools: candSlots.map((rs) => poolsOf(best.counts, rs)), exact: true };
}

/** State of the exact search (plain functions: no closure is created per node). */
interface Dfs {
  classes: readonly UnitClass[];
  cands: readonly Cand[];
  candSlots: number[][];
  classSlots: number[][];
  opt: number[][];
  suffix: number[];
  slack: number;
  slotCap: number[];
  used: number[];
  counts: number[][];
  best: Solution;
}

function visitClass(s: Dfs, c: number, partial: number): void {
  if (Math.floor(partial + s.suffix[c] + s.slack + 1e-9) <= s.best.value) return;
  if (c === s.classes.length) {
    const v = totalValue(s.counts, s.candSlots, s.cands, s.classes);
    if (v != null && v > s.best.value) s.best = { value: v, counts: s.counts.map((row) => [...row]) };
    return;
  }
  spread(s, c, 0, s.classes[c].count, partial);
}

/** Every way to share class c's remaining `left` units among its slots k, k+1, … (the rest stay out). */
function spread(s: Dfs, c: number, k: number, left: number, partial: number): void {
  const ss = s.classSlots[c];
  if (k === ss.length) {
    visitClass(s, c + 1, partial);
    return;
  }
  const si = ss[k];
  const most = Math.min(left, s.slotCap[si] - s.used[si]);
  for (let n = most; n >= 0; n--) {
    s.counts[si][c] = n;
    s.used[si] += n;
    spread(s, c, k + 1, left - n, partial + n * s.opt[c][k]);
    s.used[si] -= n;
  }
  s.counts[si][c] = 0;
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
  cands.forEach((cand, ci) => {
    for (let c = 0; c < classes.length; c++) {
      if (!cand.roleEligible.some((r) => r[c])) continue;
      if (owner[c] < 0) owner[c] = ci;
      else parent[find(ci)] = find(owner[c]);
    }
  });
  const groups = new Map<number, number[]>();
  cands.forEach((_, ci) => {
    const root = find(ci);
    const g = groups.get(root) ?? [];
    g.push(ci);
    groups.set(root, g);
  });
  const result: ItemSearch = { value: 0, pools: cands.map((c) => c.roleSets.map(() => [])), exact: true };
  for (const members of groups.values()) {
    const sub = members.map((ci) => cands[ci]);
    const found = searchComponent(sub, classes, exactLimit);
    result.value += found.value;
    result.exact &&= found.exact;
    members.forEach((ci, k) => (result.pools[ci] = found.pools[k]));
  }
  return result;
}

function usesPercent(d: Deal): boolean {
  if (d.kind === 'set_discount') return d.reward.type === 'percent';
  if (d.kind === 'buy_get') return d.get.reward.type === 'percent';
  if (d.kind === 'threshold') return d.reward.reward.type === 'percent';
  return false;
}

function multisets(n: number, slots: number): number {
  // Ways to put n identical units into `slots` slots or leave them out: C(n + slots, slots).
  let r = 1;
  for (let i = 1; i <= slots; i++) r = (r * (n + i)) / i;
  return Math.round(r);
}

function permutations(xs: readonly number[]): number[][] {
  if (xs.length <= 1) return [[...xs]];
  const out: number[][] = [];
  xs.forEach((x, i) => {
    for (const rest of permutations([...xs.slice(0, i), ...xs.slice(i + 1)])) out.push([x, ...rest]);
  });
  return out;
}

/* ------------------------------------------------------------------ order-level rewards */

function orderValue(deal: ThresholdDeal, classes: readonly UnitClass[], unitDiscounts: readonly number[][]): { total: number; parts: number[][] } {
  if (deal.reward.target !== 'order') return { total: 0, parts: [] };
  const r = deal.reward.reward;
  const units: { c: number; j: number; price: number; room: number }[] = [];
  classes.forEach((cl, c) => {
    for (let j = 0; j < cl.count; j++) {
      const after = cl.price - unitDiscounts[c][j];
      units.push({ c, j, price: after, room: Math.max(0, after - cl.floor) });
    }
  });
  let flat: number[];
  if (r.type === 'percent') {
    const numers = units.map((u) => percentNumer(u.price, u.room, r.percent));
    const total = roundedSum(numers, 10000);
    flat = total > 0 ? splitExact(total, numers, 10000) : units.map(() => 0);
  } else {
    const rooms = units.map((u) => u.room);
    const total = Math.min(r.cents, rooms.reduce((s, x) => s + x, 0));
    flat = total > 0 ? splitProportional(total, rooms) : units.map(() => 0);
  }
  const parts = classes.map((cl) => new Array<number>(cl.count).fill(0));
  units.forEach((u, i) => (parts[u.c][u.j] = flat[i]));
  return { total: flat.reduce((s, x) => s + x, 0), parts };
}

/* ------------------------------------------------------------------ evaluate */

function byId(a: { id: string }, b: { id: string }) {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function isOrderLevel(deal: Deal): deal is ThresholdDeal {
  return deal.kind === 'threshold' && deal.reward.target === 'order';
}

function candidateFor(deal: Deal, classes: readonly UnitClass[], ctx: DealContext): Cand {
  let roleSets: (ProductSet | undefined)[] = [];
  let roleSize: number[] = [];
  let limit = deal.limits.perOrder ?? INF;
  switch (deal.kind) {
    case 'set_discount':
      roleSets = [deal.set];
      roleSize = [1];
      break;
    case 'threshold':
      if (deal.reward.target === 'set') {
        roleSets = [deal.reward.set];
        roleSize = [1];
        limit = Math.min(limit, deal.reward.maxItems ?? INF);
      }
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
      break;
  }
  const roleEligible = roleSets.map((set) => classes.map((c) => preparedInSet(c.prepared, set)));
  const elig = roleEligible.map((row) => row.flatMap((ok, c) => (ok ? [c] : [])));
  const cand: Cand = { deal, roleSets, roleSize, limit, roleEligible, exclusive: !deal.stacking.deals, elig, valueOrder: [], standalone: 0 };
  const rewardRole = deal.kind === 'buy_get' ? 1 : 0;
  if (elig.length > 0) {
    cand.valueOrder = elig[rewardRole]
      .map((c) => ({ c, v: optimistic(cand, rewardRole, classes[c]) }))
      .filter((x) => x.v > 0)
      .sort((a, b) => b.v - a.v || a.c - b.c)
      .map((x) => x.c);
    const pools = greedyPools(cand, classes.map((c) => c.count), classes, new Array<number>(classes.length).fill(0));
    cand.standalone = pools.some((p) => p.length > 0) ? (valueOf(cand, pools, classes) ?? 0) : 0;
  }
  return cand;
}

/** An upper bound on what a deal saves alone: every unit's best share of it (the exact search's bound). */
function aloneBound(deal: Deal, cands: readonly Cand[], classes: readonly UnitClass[]): number {
  if (deal.kind === 'threshold' && deal.reward.target === 'order') {
    const r = deal.reward.reward;
    const rooms = classes.reduce((s, c) => s + c.room * c.count, 0);
    const subtotal = classes.reduce((s, c) => s + c.price * c.count, 0);
    if (r.type === 'amount') return Math.min(r.cents, rooms);
    return r.type === 'percent' ? Math.ceil((subtotal * r.percent) / 100) + 1 : rooms;
  }
  const cand = cands.find((c) => c.deal === deal)!;
  let bound = usesPercent(deal) ? 1 : 0;
  classes.forEach((cl, c) => {
    let best = 0;
    cand.roleEligible.forEach((row, r) => {
      if (row[c]) best = Math.max(best, optimistic(cand, r, cl));
    });
    bound += best * cl.count;
  });
  return bound;
}

/** What a candidate saves on the whole cart alone (its greedy application), for the trace. */
function standaloneValue(cand: Cand): number {
  return cand.standalone;
}

/** How many more items a group kind needs before it can apply once (or once more), from the cart's eligible units. */
function itemsShort(cand: Cand, classes: readonly UnitClass[]): number {
  const d = cand.deal;
  const avail = cand.roleEligible.map((row) => classes.reduce((s, c, i) => s + (row[i] ? c.count : 0), 0));
  if (d.kind === 'mix_match') return Math.max(0, d.qty - avail[0]);
  if (d.kind === 'bundle') return d.items.reduce((s, it, r) => s + Math.max(0, it.qty - avail[r]), 0);
  if (d.kind === 'buy_get') {
    const both = classes.reduce((s, c, i) => s + (cand.roleEligible[0][i] || cand.roleEligible[1][i] ? c.count : 0), 0);
    return Math.max(0, d.buy.qty - avail[0], d.get.qty - avail[1], d.buy.qty + d.get.qty - both);
  }
  return cand.roleEligible[0].some(Boolean) ? 0 : 1;
}

export function referenceEvaluateDeals(
  lines: readonly DealCartLine[],
  deals: readonly Deal[],
  ctx: DealContext,
  floor: DealFloor = {},
  options: EvaluateOptions = {},
): DealsResult {
  const exactLimit = options.exactLimit ?? DEFAULT_EXACT_LIMIT;
  const classes = buildClasses(lines, floor, ctx);
  const sortedDeals = [...deals].sort(byId);
  const notApplied: DealNotApplied[] = [];
  const nudges: DealNudge[] = [];
  const itemCands: Cand[] = [];
  const orderDeals: ThresholdDeal[] = [];

  for (const deal of sortedDeals) {
    const reason = eligibilityReason(deal, ctx);
    if (reason) {
      notApplied.push({ dealId: deal.id, reason });
      continue;
    }
    if (deal.kind === 'threshold') {
      const progress = conditionProgress(deal.condition, classes, ctx);
      if (!progress.met) {
        notApplied.push({ dealId: deal.id, reason: 'below_threshold', missing: progress.missing });
        if (nudgeWorthy(deal.condition, progress.missing)) nudges.push({ dealId: deal.id, missing: progress.missing });
        continue;
      }
      if (isOrderLevel(deal)) {
        orderDeals.push(deal);
        continue;
      }
    }
    const cand = candidateFor(deal, classes, ctx);
    if (!cand.roleEligible.some((r) => r.some(Boolean))) {
      notApplied.push({ dealId: deal.id, reason: 'no_matching_items' });
      continue;
    }
    const short = itemsShort(cand, classes);
    if (short > 0) {
      notApplied.push({ dealId: deal.id, reason: 'not_enough_items', missing: { items: short } });
      nudges.push({ dealId: deal.id, missing: { items: short } });
      continue;
    }
    itemCands.push(cand);
  }

  // Scenarios (README "Stacking"): every deal that combines, together; each deal that does not, alone.
  interface Scenario {
    cands: Cand[];
    item: ReturnType<typeof searchItems>;
    order: ThresholdDeal | null;
    value: number;
    unitDiscounts: number[][];
    perDeal: Map<string, { parts: number[][]; touched: boolean[][] }>;
  }
  const realise = (cands: Cand[], orderPool: ThresholdDeal[]): Scenario => {
    const item = searchItems(cands, classes, exactLimit);
    const unitDiscounts = classes.map((c) => new Array<number>(c.count).fill(0));
    const perDeal = new Map<string, { parts: number[][]; touched: boolean[][] }>();
    const next = classes.map(() => 0);
    // Units of a class go to slots in slot order; each slot's units are the next ones of the class.
    cands.forEach((cand, ci) => {
      const pools = item.pools[ci];
      if (pools.every((p) => p.length === 0)) return;
      const out: number[][] = pools.map((p) => new Array<number>(p.length).fill(0));
      valueOf(cand, pools, classes, out);
      const parts = classes.map((c) => new Array<number>(c.count).fill(0));
      const touched = classes.map((c) => new Array<boolean>(c.count).fill(false));
      pools.forEach((pool, r) =>
        pool.forEach((c, i) => {
          const j = next[c]++;
          parts[c][j] = out[r][i];
          touched[c][j] = true;
          unitDiscounts[c][j] += out[r][i];
        }),
      );
      perDeal.set(cand.deal.id, { parts, touched });
    });
    let order: ThresholdDeal | null = null;
    let orderTotal = 0;
    let orderParts: number[][] = [];
    for (const od of orderPool) {
      const v = orderValue(od, classes, unitDiscounts);
      if (v.total > orderTotal) {
        order = od;
        orderTotal = v.total;
        orderParts = v.parts;
      }
    }
    if (order) {
      orderParts.forEach((row, c) => row.forEach((v, j) => (unitDiscounts[c][j] += v)));
      perDeal.set(order.id, { parts: orderParts, touched: orderParts.map((row) => row.map((v) => v > 0)) });
    }
    return { cands, item, order, value: item.value + orderTotal, unitDiscounts, perDeal };
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
  const lineResults = new Map<string, DealLineResult>();
  for (const line of [...lines].sort(byId)) {
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
  const appliedIds = new Set<string>();
  for (const deal of sortedDeals) {
    const pd = chosen.perDeal.get(deal.id);
    if (!pd) continue;
    const perLine = new Map<string, number>();
    let total = 0;
    pd.parts.forEach((row, c) =>
      row.forEach((v, j) => {
        if (!pd.touched[c][j]) return;
        const id = lineOfUnit(c, j);
        perLine.set(id, (perLine.get(id) ?? 0) + v);
        total += v;
      }),
    );
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
      const units = pd.touched.flat().filter(Boolean).length;
      const size = cand.roleSize.reduce((s, x) => s + x, 0);
      applications = deal.kind === 'set_discount' || deal.kind === 'threshold' ? (deal.kind === 'threshold' ? 1 : units) : units / size;
    }
    applied.push({ dealId: deal.id, kind: deal.kind, discountCents: total, applications, lineIds: [...perLine.keys()].sort() });
    // Nudge to apply a group deal once more.
    if (cand && (deal.kind === 'mix_match' || deal.kind === 'buy_get') && applications < cand.limit) {
      const size = cand.roleSize.reduce((s, x) => s + x, 0);
      const eligibleUnits = classes.reduce((s, c, i) => s + (cand.roleEligible.some((r) => r[i]) ? c.count : 0), 0);
      const left = eligibleUnits - applications * size;
      if (left > 0 && left < size) nudges.push({ dealId: deal.id, missing: { items: size - left, again: true } });
    }
  }
  const chosenExclusive = chosen.cands.length === 1 && chosen.cands[0].exclusive ? chosen.cands[0].deal : chosen.order && !chosen.order.stacking.deals ? chosen.order : null;
  for (const cand of itemCands) {
    if (appliedIds.has(cand.deal.id)) continue;
    const lostToExclusive = chosenExclusive != null || cand.exclusive;
    const reason = standaloneValue(cand) <= 0 ? 'no_saving' : lostToExclusive ? 'not_combinable' : 'better_deal_chosen';
    notApplied.push({ dealId: cand.deal.id, reason });
  }
  for (const od of orderDeals) {
    if (appliedIds.has(od.id)) continue;
    const lostToExclusive = chosenExclusive != null || !od.stacking.deals;
    notApplied.push({ dealId: od.id, reason: lostToExclusive && chosenExclusive !== od ? 'not_combinable' : 'better_deal_chosen' });
  }
  notApplied.sort((a, b) => (a.dealId < b.dealId ? -1 : a.dealId > b.dealId ? 1 : 0));
  nudges.sort((a, b) => (a.dealId < b.dealId ? -1 : a.dealId > b.dealId ? 1 : 0));

  const lineList = [...lineResults.values()];
  for (const lr of lineList) lr.deals.sort((a, b) => (a.dealId < b.dealId ? -1 : 1));
  const subtotal = lineList.reduce((s, l) => s + l.subtotalCents, 0);
  const discount = lineList.reduce((s, l) => s + l.discountCents, 0);
  const appliedDeals = applied.map((a) => sortedDeals.find((d) => d.id === a.dealId)!);
  return {
    subtotalCents: subtotal,
    discountCents: discount,
    totalCents: subtotal - discount,
    lines: lineList,
    applied,
    notApplied,
    nudges,
    allowsCoupons: appliedDeals.every((d) => d.stacking.coupons),
    allowsPoints: appliedDeals.every((d) => d.stacking.points),
    exact,
  };
}

/** A spend or count threshold is worth a nudge when the shopper is at least half way there. */
function nudgeWorthy(cond: ThresholdCondition, missing: DealMissing): boolean {
  if (cond.type === 'spend') return (missing.cents ?? 0) * 2 <= cond.cents;
  if (cond.type === 'items') return (missing.items ?? 0) * 2 <= cond.count;
  return (missing.amount ?? 0) * 2 <= cond.amount;
}
