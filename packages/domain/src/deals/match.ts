import type { Deal, DealContext, DealProductFacts, ProductSet } from './model.ts';

/** Product sets (model.ts productSetSchema) and the eligibility of a deal at a moment for a customer. */

type Criteria = Omit<ProductSet, 'exclude' | 'skus'>;

/** A product's facts prepared for matching many sets: its categories with every ancestor, lower-case words. */
export interface PreparedProduct {
  product: DealProductFacts;
  categories: Set<number>;
  strain: string | null;
  tags: Set<string>;
}

export function prepareProduct(product: DealProductFacts, parents?: DealContext['categoryParents']): PreparedProduct {
  const categories = new Set<number>();
  for (const leaf of product.categoryIds) {
    let c: number | null | undefined = leaf;
    for (let guard = 0; c != null && guard < 64 && !categories.has(c); guard++) {
      categories.add(c);
      c = parents?.[c];
    }
  }
  return { product, categories, strain: product.strainType?.toLowerCase() ?? null, tags: new Set(product.tags.map((t) => t.toLowerCase())) };
}

interface CompiledCriteria {
  categories?: readonly number[];
  brands?: Set<number>;
  kinds?: Set<string>;
  strainTypes?: Set<string>;
  sizes?: Set<number>;
  tags?: readonly string[];
  any: boolean;
}
interface CompiledSet {
  include: CompiledCriteria;
  skus: Set<string>;
  exclude: CompiledCriteria | null;
  excludeSkus: Set<string>;
}

const compiled = new WeakMap<ProductSet, CompiledSet>();

function compileCriteria(c: Criteria): CompiledCriteria {
  const nonEmpty = <T>(xs: readonly T[] | undefined) => (xs && xs.length ? xs : undefined);
  const out: CompiledCriteria = {
    categories: nonEmpty(c.categories),
    brands: nonEmpty(c.brands) && new Set(c.brands),
    kinds: nonEmpty(c.kinds) && new Set<string>(c.kinds),
    strainTypes: nonEmpty(c.strainTypes) && new Set(c.strainTypes!.map((x) => x.toLowerCase())),
    sizes: nonEmpty(c.sizes) && new Set(c.sizes),
    tags: nonEmpty(c.tags)?.map((x) => x.toLowerCase()),
    any: false,
  };
  out.any = Boolean(out.categories || out.brands || out.kinds || out.strainTypes || out.sizes || out.tags);
  return out;
}

function compile(set: ProductSet): CompiledSet {
  let c = compiled.get(set);
  if (!c) {
    c = { include: compileCriteria(set), skus: new Set(set.skus ?? []), exclude: set.exclude ? compileCriteria(set.exclude) : null, excludeSkus: new Set(set.exclude?.skus ?? []) };
    compiled.set(set, c);
  }
  return c;
}

/** Does the product meet every criterion given (`all`), or at least one (`any`, for exclusions)? */
function meets(p: PreparedProduct, c: CompiledCriteria, mode: 'all' | 'any'): boolean {
  // all: the first failing criterion decides (false); any: the first matching one (true).
  const all = mode === 'all';
  if (c.categories) {
    const ok = c.categories.some((id) => p.categories.has(id));
    if (all !== ok) return ok;
  }
  if (c.brands) {
    const ok = p.product.brandId != null && c.brands.has(p.product.brandId);
    if (all !== ok) return ok;
  }
  if (c.kinds) {
    const ok = p.product.kind != null && c.kinds.has(p.product.kind);
    if (all !== ok) return ok;
  }
  if (c.strainTypes) {
    const ok = p.strain != null && c.strainTypes.has(p.strain);
    if (all !== ok) return ok;
  }
  if (c.sizes) {
    const ok = p.product.size != null && c.sizes.has(p.product.size);
    if (all !== ok) return ok;
  }
  if (c.tags) {
    const ok = c.tags.some((t) => p.tags.has(t));
    if (all !== ok) return ok;
  }
  return all;
}

/** Is a (prepared) product in the set? See productSetSchema for the rule. */
export function preparedInSet(p: PreparedProduct, set: ProductSet | undefined): boolean {
  if (!set) return true;
  const c = compile(set);
  if (c.exclude && (c.excludeSkus.has(p.product.sku) || (c.exclude.any && meets(p, c.exclude, 'any')))) return false;
  if (c.skus.has(p.product.sku)) return true;
  if (c.skus.size > 0 && !c.include.any) return false;
  return meets(p, c.include, 'all');
}

export function inProductSet(product: DealProductFacts, set: ProductSet | undefined, parents?: DealContext['categoryParents']): boolean {
  return preparedInSet(prepareProduct(product, parents), set);
}

/* ------------------------------------------------------------------ time in the store's zone */

const clockFormatters = new Map<string, Intl.DateTimeFormat>();
/** Read, never shown: the weekday names en-US gives formatToParts. */
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Local weekday (0 = Sunday), minutes after midnight and month (1–12) of an instant in a zone. */
export function localClock(at: Date, timeZone: string): { weekday: number; minutes: number; month: number; date: string } {
  let f = clockFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clockFormatters.set(timeZone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(at)) p[part.type] = part.value;
  const weekday = WEEKDAYS.indexOf(p.weekday);
  return { weekday, minutes: Number(p.hour) * 60 + Number(p.minute), month: Number(p.month), date: `${p.year}-${p.month}-${p.day}` };
}

let lastClock: { at: number; tz: string; clock: ReturnType<typeof localClock> } | null = null;
/** localClock of the context, computed once for the many deals one evaluation checks. */
function contextClock(ctx: DealContext) {
  const at = ctx.now.getTime();
  if (!lastClock || lastClock.at !== at || lastClock.tz !== ctx.timeZone) lastClock = { at, tz: ctx.timeZone, clock: localClock(ctx.now, ctx.timeZone) };
  return lastClock.clock;
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Why a deal cannot apply to this customer now, before looking at the cart (null: it can). */
export type EligibilityReason =
  | 'paused'
  | 'ended'
  | 'not_started'
  | 'not_today'
  | 'outside_hours'
  | 'medical_only'
  | 'recreational_only'
  | 'customer_group'
  | 'first_order_only'
  | 'new_customers_only'
  | 'birthday_month_only'
  | 'limit_reached'
  | 'budget_exhausted'
  | 'not_combinable_with_coupon'
  | 'not_combinable_with_points';

export function eligibilityReason(deal: Deal, ctx: DealContext): EligibilityReason | null {
  if (deal.status === 'paused') return 'paused';
  if (deal.status === 'ended') return 'ended';
  const now = ctx.now.getTime();
  const s = deal.schedule;
  if (s.startsAt && now < Date.parse(s.startsAt)) return 'not_started';
  if (s.endsAt && now >= Date.parse(s.endsAt)) return 'ended';
  if (s.days || s.hours) {
    const clock = contextClock(ctx);
    if (s.hours) {
      const from = toMinutes(s.hours.from);
      const to = toMinutes(s.hours.to);
      // A window past midnight (22:00–02:00) belongs to the day it starts on.
      const overnight = to <= from;
      const inLate = clock.minutes >= from && (overnight || clock.minutes < to);
      const inEarly = overnight && clock.minutes < to;
      const day = inEarly ? (clock.weekday + 6) % 7 : clock.weekday;
      if (s.days && !s.days.includes(day)) return 'not_today';
      if (!inLate && !inEarly) return 'outside_hours';
    } else if (s.days && !s.days.includes(clock.weekday)) return 'not_today';
  }
  const e = deal.eligibility;
  const c = ctx.customer;
  if (e.licence && c.licence !== e.licence) return e.licence === 'medical' ? 'medical_only' : 'recreational_only';
  if (e.customerGroups && (c.groupId == null || !e.customerGroups.includes(c.groupId))) return 'customer_group';
  if (e.firstOrder && c.previousOrders !== 0) return 'first_order_only';
  if (e.newCustomer) {
    const days = e.newCustomerDays ?? 30;
    const created = c.createdAt ? Date.parse(c.createdAt) : NaN;
    if (!Number.isFinite(created) || now - created > days * 86_400_000) return 'new_customers_only';
  }
  if (e.birthdayMonth) {
    const m = c.birthday ? /^(?:\d{4}-)?(\d{2})-\d{2}$/.exec(c.birthday) : null;
    if (!m || Number(m[1]) !== contextClock(ctx).month) return 'birthday_month_only';
  }
  const usage = ctx.usage?.[deal.id];
  if (deal.limits.perCustomer && (usage?.customerRedemptions ?? 0) >= deal.limits.perCustomer.max) return 'limit_reached';
  if (deal.limits.budget != null && (usage?.totalRedemptions ?? 0) >= deal.limits.budget) return 'budget_exhausted';
  if (ctx.couponApplied && !deal.stacking.coupons) return 'not_combinable_with_coupon';
  if (ctx.pointsRedeemed && !deal.stacking.points) return 'not_combinable_with_points';
  return null;
}
