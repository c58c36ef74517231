import type { LicenseType } from '../license.ts';
import { bucketScale, bucketScaledPerPackage, ceilDiv, productMeasures, type LimitProductFacts } from './amounts.ts';
import {
  MILLI,
  UNIT_SYMBOL,
  type Cap,
  type LimitBucket,
  type LimitModel,
  type LimitUnit,
  type LimitWindow,
  type Milli,
  type Residency,
} from './model.ts';
import { windowStart } from './window.ts';

export interface LimitCartLine {
  /** The cart line's id (the removal suggestion names it). */
  id: string;
  qty: number;
  facts: LimitProductFacts;
  /**
   * What the shopper sees on the line ("Blue Dream 28 g (1 oz)"): an over-limit message under a
   * store's own model then says which packages to take out, not a weight no package has (issue 26).
   */
  name?: string;
}

export interface LimitEarlierOrder {
  placedAt: Date | string;
  /** Cancelled orders count toward nothing. */
  cancelled: boolean;
  customerType: LicenseType;
  lines: ReadonlyArray<{ qty: number; facts: LimitProductFacts }>;
}

export interface LimitEvaluationInput {
  customerType: LicenseType;
  /** null when not asked (yet): the stricter of the two caps applies, see capFor. */
  residency: Residency | null;
  now: Date;
  /** The store's IANA time zone. */
  timezone: string;
  cartLines: readonly LimitCartLine[];
  /** The customer's orders (the server loads those since the earliest windowStart); ignored for guests. */
  earlierOrders?: readonly LimitEarlierOrder[];
  /** A guest can't be recognised across orders: every window is counted on this order alone. */
  guest?: boolean;
}

export interface LimitMeter {
  bucketId: string;
  label: string;
  unit: LimitUnit;
  window: LimitWindow;
  cap: Cap;
  /** Counted from earlier orders in the window (0 for transaction windows and guests). */
  used: Milli;
  inCart: Milli;
  /** cap − used − inCart, never below 0; null unless the cap is a number. */
  remaining: Milli | null;
  over: boolean;
  /** "12.5 g of 28.5 g per day", for the cart's meter. */
  text: string;
}

export interface LimitRemoval {
  lineId: string;
  /** Packages to take off this line. */
  qty: number;
}

export interface LimitViolation {
  bucketId: string;
  label: string;
  unit: LimitUnit;
  /** Thousandths of the unit over the cap (for not_sold: everything in the cart for this bucket). */
  excess: Milli;
  reason: 'over_cap' | 'not_sold';
  /** The fewest lines / packages to remove to bring this bucket back within its cap. */
  remove: LimitRemoval[];
  message: string;
}

export interface LimitEvaluation {
  ok: boolean;
  meters: LimitMeter[];
  violations: LimitViolation[];
  /** One removal per line that fixes every violation at once (the largest asked by any bucket). */
  remove: LimitRemoval[];
  /** The first violation's message, for the cart's single notice. */
  message: string | null;
  /** A guest with a window longer than the order: only this order was counted. */
  guestPerOrderOnly: boolean;
  guestNotice: string | null;
}

export const GUEST_LIMIT_NOTICE =
  'You are ordering as a guest, so the purchase limits are counted for this order only. The law’s daily limits still apply to everything you buy.';

/**
 * The cap a shopper is held to. With residency unknown, the stricter of the two (not_sold, then the
 * lower number, then no_cap): a store that needs residency asks before checkout, and until then the
 * cart never promises more than a non-resident may buy.
 */
export function capFor(bucket: LimitBucket, customerType: LicenseType, residency: Residency | null): Cap {
  const caps = bucket.caps[customerType];
  if (residency) return caps[residency];
  const rank = (c: Cap) => (c.kind === 'not_sold' ? -1 : c.kind === 'cap' ? c.max : Number.POSITIVE_INFINITY);
  return rank(caps.resident) <= rank(caps.non_resident) ? caps.resident : caps.non_resident;
}

/** `28.5 g`, `0.001 g`, `500 mg` */
export function formatLimitAmount(amount: Milli, unit: LimitUnit): string {
  return `${Number((amount / MILLI).toFixed(3))} ${UNIT_SYMBOL[unit]}`;
}

/** "Flower" → "flower" inside a sentence; "THC in edibles" stays. */
function inSentence(label: string): string {
  return /^[A-Z][A-Z]/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
}

function windowPhrase(w: LimitWindow): string {
  switch (w.type) {
    case 'transaction':
      return 'per order';
    case 'day':
      return 'per day';
    case 'month':
      return 'per month';
    case 'rolling_days':
      return w.days === 1 ? 'per day' : `per ${w.days} days`;
  }
}

function earlierPhrase(w: LimitWindow): string {
  switch (w.type) {
    case 'transaction':
      return '';
    case 'day':
      return 'your earlier orders today';
    case 'month':
      return 'your earlier orders this month';
    case 'rolling_days':
      return w.days === 1 ? 'your earlier orders today' : `your orders of the last ${w.days} days`;
  }
}

/**
 * The over-limit message. A per-order bucket keeps the spec's §8 sentence with the bucket named in
 * place of "cannabis" (a bucket labelled "Cannabis" gives the spec's text word for word); a longer
 * window says how much earlier orders already used.
 */
export function limitMessage(
  bucket: Pick<LimitBucket, 'label' | 'unit' | 'window'> & { id?: string },
  v: {
    reason: 'over_cap' | 'not_sold';
    excess: Milli;
    used: Milli;
    inCart: Milli;
    cap: Cap;
    earlierReachCap: boolean;
    /** Residency unknown and a resident could buy these: the message says residency would help. */
    residentMayBuy?: boolean;
    /** The removal suggestion with the lines' names and quantities, when every line has a name. */
    removal?: ReadonlyArray<{ name: string; qty: number; lineQty: number }>;
  },
  customerType: LicenseType,
  residency: Residency | null,
): string {
  const label = inSentence(bucket.label);
  if (v.reason === 'not_sold') {
    if (residency === null && v.residentMayBuy) {
      return `${bucket.label} products can’t be sold to non-resident ${customerType} customers. If you are a resident, say so at checkout; otherwise please remove them from your cart.`;
    }
    const who = `${residency === 'non_resident' ? 'non-resident ' : ''}${customerType} customers`;
    return `${bucket.label} products can’t be sold to ${who}. Please remove them from your cart.`;
  }
  const amount = formatLimitAmount(v.excess, bucket.unit);
  // Spec §8's sentence, word for word, for the spec's per-order "Cannabis" bucket; elsewhere, with
  // the lines' names, what to take out in packages the shopper can act on.
  const spec = bucket.window.type === 'transaction' && bucket.label === 'Cannabis' && (bucket.id ?? 'cannabis') === 'cannabis';
  const action = !spec && v.removal?.length ? `To stay within it, ${removalPhrase(v.removal)}.` : `Please remove ${amount} from your cart.`;
  if (bucket.window.type === 'transaction') {
    return `Your cart contains ${amount} more ${label} than can be in a single order. ${action}`;
  }
  const cap = v.cap.kind === 'cap' ? formatLimitAmount(v.cap.max, bucket.unit) : '';
  const limit = `the ${label} limit of ${cap} ${windowPhrase(bucket.window)}`;
  if (v.earlierReachCap) {
    return `${capitalise(earlierPhrase(bucket.window))} already reach ${limit}. Please remove the ${formatLimitAmount(v.inCart, bucket.unit)} of ${label} from your cart.`;
  }
  const counting = v.used > 0 ? `, counting ${formatLimitAmount(v.used, bucket.unit)} in ${earlierPhrase(bucket.window)}` : '';
  return `Your cart contains ${amount} more ${label} than ${limit} allows${counting}. ${action}`;
}

/**
 * "remove Blue Dream 28 g (1 oz)", "remove 2 of the 8 Do-Si-Dos Sugar Wax 1 g", "remove all 3
 * Jack Herer Live Rosin 1 g and 1 of the 2 Blue Dream 28 g (1 oz)".
 */
export function removalPhrase(items: ReadonlyArray<{ name: string; qty: number; lineQty: number }>): string {
  const parts = items.map((i) =>
    i.qty >= i.lineQty ? (i.lineQty === 1 ? i.name : `all ${i.lineQty} ${i.name}`) : `${i.qty} of the ${i.lineQty} ${i.name}`,
  );
  const list = parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `remove ${list} from your cart`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * What to remove to bring one bucket down by at least `excess`. The rule, in order:
 * 1. as few lines as possible: the largest lines (by what they count here) are taken off whole
 *    until the rest of the excess fits in one line;
 * 2. that last line loses as few packages as possible, and among the lines that could cover it the
 *    one whose packages overshoot the excess least (the smallest amount removed); ties go to the
 *    line added last, which is usually the one the shopper just added.
 * Only lines that count toward the bucket are ever suggested.
 */
export function suggestRemoval(
  lines: ReadonlyArray<{ id: string; qty: number; per: bigint; index: number }>,
  excess: bigint,
): LimitRemoval[] {
  const total = (l: { qty: number; per: bigint }) => l.per * BigInt(l.qty);
  const counting = lines.filter((l) => l.per > 0n && l.qty > 0);
  const byTotal = [...counting].sort((a, b) => {
    const d = total(b) - total(a);
    return d > 0n ? 1 : d < 0n ? -1 : b.index - a.index;
  });
  const out: LimitRemoval[] = [];
  let left = excess;
  const remaining = new Set(byTotal);
  while (left > 0n && remaining.size > 0) {
    const covering = [...remaining].filter((l) => total(l) >= left);
    if (covering.length > 0) {
      let best: { line: (typeof counting)[number]; qty: bigint; removed: bigint } | null = null;
      for (const line of covering) {
        const qty = ceilDiv(left, line.per);
        const removed = qty * line.per;
        if (
          !best ||
          removed < best.removed ||
          (removed === best.removed && (qty < best.qty || (qty === best.qty && line.index > best.line.index)))
        ) {
          best = { line, qty, removed };
        }
      }
      out.push({ lineId: best!.line.id, qty: Number(best!.qty) });
      left -= best!.removed;
      break;
    }
    const largest = byTotal.find((l) => remaining.has(l))!;
    remaining.delete(largest);
    out.push({ lineId: largest.id, qty: largest.qty });
    left -= total(largest);
  }
  return out;
}

/** Quantities reach here validated (the cart's own rules); anything else is a programming error, not a 0. */
function wholeQty(qty: number): number {
  if (!Number.isSafeInteger(qty) || qty < 0) throw new RangeError(`A quantity must be a whole number of 0 or more, got ${qty}`);
  return qty;
}

/** Evaluates a cart against a store's limit model. Pure: the same in the browser and on the server. */
export function evaluateLimits(model: LimitModel, input: LimitEvaluationInput): LimitEvaluation {
  const guest = input.guest === true;
  const lines = input.cartLines.map((l, index) => ({
    id: l.id,
    qty: wholeQty(l.qty),
    index,
    name: l.name,
    measures: productMeasures(l.facts),
  }));
  const byId = new Map(lines.map((l) => [l.id, l]));
  const named = (remove: readonly LimitRemoval[]) => {
    const out = remove.map((r) => {
      const line = byId.get(r.lineId);
      return line?.name ? { name: line.name, qty: r.qty, lineQty: line.qty } : null;
    });
    return out.length > 0 && out.every((x) => x != null) ? (out as { name: string; qty: number; lineQty: number }[]) : undefined;
  };
  const earlier = guest
    ? []
    : (input.earlierOrders ?? [])
        .filter((o) => !o.cancelled)
        .map((o) => ({
          at: new Date(o.placedAt).getTime(),
          customerType: o.customerType,
          lines: o.lines.map((l) => ({ qty: wholeQty(l.qty), measures: productMeasures(l.facts) })),
        }));

  const meters: LimitMeter[] = [];
  const violations: LimitViolation[] = [];
  let guestPerOrderOnly = false;

  for (const bucket of model.buckets) {
    const cap = capFor(bucket, input.customerType, input.residency);
    // Exact: sums in 1/scale thousandths (amounts.ts bucketScale), compared with the cap before any
    // rounding; only the figures shown are rounded (used and in-cart up, remaining down).
    const scale = bucketScale(bucket);
    const perLine = lines.map((l) => ({ id: l.id, qty: l.qty, index: l.index, per: bucketScaledPerPackage(bucket, l.measures, scale) }));
    const inCartScaled = perLine.reduce((s, l) => s + l.per * BigInt(l.qty), 0n);
    let usedScaled = 0n;
    const start = windowStart(bucket.window, input.now, input.timezone);
    if (start && cap.kind === 'cap') {
      if (guest) guestPerOrderOnly = true;
      for (const o of earlier) {
        if (!(o.at >= start.getTime())) continue;
        if (bucket.countOrders === 'same_customer_type' && o.customerType !== input.customerType) continue;
        for (const l of o.lines) usedScaled += bucketScaledPerPackage(bucket, l.measures, scale) * BigInt(l.qty);
      }
    }
    // Over only when this cart adds to the bucket: a cart with nothing in it is never refused for
    // what earlier orders did (the store may have changed its caps since).
    let over = false;
    let excessScaled = 0n;
    let reason: LimitViolation['reason'] = 'over_cap';
    if (cap.kind === 'not_sold') {
      over = inCartScaled > 0n;
      excessScaled = inCartScaled;
      reason = 'not_sold';
    } else if (cap.kind === 'cap') {
      const e = usedScaled + inCartScaled - BigInt(cap.max) * scale;
      excessScaled = e > 0n ? e : 0n;
      over = inCartScaled > 0n && excessScaled > 0n;
    }
    const used = Number(ceilDiv(usedScaled, scale));
    const inCart = Number(ceilDiv(inCartScaled, scale));
    const excess = Number(ceilDiv(excessScaled, scale));
    const leftScaled = cap.kind === 'cap' ? BigInt(cap.max) * scale - usedScaled - inCartScaled : 0n;
    const remaining = cap.kind === 'cap' ? (leftScaled > 0n ? Number(leftScaled / scale) : 0) : null;
    const total = formatLimitAmount(Number(ceilDiv(usedScaled + inCartScaled, scale)), bucket.unit);
    meters.push({
      bucketId: bucket.id,
      label: bucket.label,
      unit: bucket.unit,
      window: bucket.window,
      cap,
      used,
      inCart,
      remaining,
      over,
      text:
        cap.kind === 'cap'
          ? `${total} of ${formatLimitAmount(cap.max, bucket.unit)} ${windowPhrase(bucket.window)}`
          : cap.kind === 'no_cap'
            ? `${total}, no limit`
            : 'not sold to you',
    });
    if (over) {
      const remove =
        reason === 'not_sold'
          ? perLine.filter((l) => l.per > 0n && l.qty > 0).map((l) => ({ lineId: l.id, qty: l.qty }))
          : suggestRemoval(perLine, excessScaled < inCartScaled ? excessScaled : inCartScaled);
      violations.push({
        bucketId: bucket.id,
        label: bucket.label,
        unit: bucket.unit,
        excess,
        reason,
        remove,
        message: limitMessage(
          bucket,
          {
            reason,
            excess,
            used,
            inCart,
            cap,
            earlierReachCap: usedScaled > 0n && excessScaled >= inCartScaled,
            residentMayBuy: bucket.caps[input.customerType].resident.kind !== 'not_sold',
            removal: named(remove),
          },
          input.customerType,
          input.residency,
        ),
      });
    }
  }

  const merged = new Map<string, number>();
  for (const v of violations) for (const r of v.remove) merged.set(r.lineId, Math.max(merged.get(r.lineId) ?? 0, r.qty));
  const remove = lines.filter((l) => merged.has(l.id)).map((l) => ({ lineId: l.id, qty: merged.get(l.id)! }));

  return {
    ok: violations.length === 0,
    meters,
    violations,
    remove,
    message: violations[0]?.message ?? null,
    guestPerOrderOnly,
    guestNotice: guestPerOrderOnly ? GUEST_LIMIT_NOTICE : null,
  };
}

/** The cart after a removal suggestion (lines at 0 dropped): what the cart would send next. */
export function applyRemoval<L extends { id: string; qty: number }>(lines: readonly L[], remove: readonly LimitRemoval[]): L[] {
  const by = new Map(remove.map((r) => [r.lineId, r.qty]));
  return lines.map((l) => ({ ...l, qty: l.qty - (by.get(l.id) ?? 0) })).filter((l) => l.qty > 0);
}
