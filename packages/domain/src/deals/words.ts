/**
 * Every word the deals show (headlines, nudges, reasons), in one place, and the display rules a store
 * follows (issue 28 "Display rules per store"). The engine's numbers never depend on these: the
 * server applies the same deals whatever the store may say about them.
 */
import { formatMoney } from '../money.ts';
import { formatClockShort } from '../store-hours.ts';
import type { DealMissing, DealReason } from './engine.ts';
import type { Deal, DealMeasure, ProductSet } from './model.ts';

export interface DealDisplayRules {
  /** Never the word "free" (California: no advertising of free goods; every store by default). */
  noFreeWord: boolean;
  /** No "sale" (Massachusetts adult-use online menus). */
  noSaleWord: boolean;
  /** No percent-off and no amount-off wording: the storefront shows the resulting price only. */
  noPercentOff: boolean;
  /** No struck-through earlier price beside the deal price. */
  noStrikethrough: boolean;
}

export interface DealDisplayPreset {
  id: 'default' | 'CA' | 'MA_ADULT_USE';
  label: string;
  rules: DealDisplayRules;
  /** Where each rule comes from (research/market-and-regulation.md §4, sources R-CA6, R-MA2). */
  sources: string[];
}

export const DEAL_DISPLAY_PRESETS: Readonly<Record<DealDisplayPreset['id'], DealDisplayPreset>> = {
  default: {
    id: 'default',
    label: 'Default (deals shown with their savings; never "free")',
    rules: { noFreeWord: true, noSaleWord: false, noPercentOff: false, noStrikethrough: false },
    sources: ['Verdant policy: a $0.01 item is never called free (several states forbid giving cannabis away).'],
  },
  CA: {
    id: 'CA',
    label: 'California',
    rules: { noFreeWord: true, noSaleWord: false, noPercentOff: false, noStrikethrough: false },
    sources: ['Cal. Bus. & Prof. Code §26152(f) and 4 CCR: no advertising or marketing of free cannabis goods, BOGO-free included (research R-CA6).'],
  },
  MA_ADULT_USE: {
    id: 'MA_ADULT_USE',
    label: 'Massachusetts, adult use',
    rules: { noFreeWord: true, noSaleWord: true, noPercentOff: true, noStrikethrough: true },
    sources: [
      'Cannabis Control Commission bulletin of 21 May 2024 on 935 CMR 500.105(4)(b)20: no "sale", no "xx% off" and no struck-through prices on adult-use online menus (research R-MA2). Status after 2024: check with counsel.',
    ],
  },
};

/** Which display rules a text breaks ("free", "sale", a percent or "off"). */
export function wordsViolations(text: string, rules: DealDisplayRules): (keyof DealDisplayRules)[] {
  const out: (keyof DealDisplayRules)[] = [];
  if (rules.noFreeWord && /\bfree\b/i.test(text)) out.push('noFreeWord');
  if (rules.noSaleWord && /\bsales?\b/i.test(text)) out.push('noSaleWord');
  if (rules.noPercentOff && (/%|\bpercent\b/i.test(text) || /\boff\b/i.test(text))) out.push('noPercentOff');
  return out;
}

const money = (cents: number) => formatMoney(cents);

function noun(deal: Deal, n: number): string {
  const w = deal.noun ?? { one: 'item', other: 'items' };
  return n === 1 ? w.one : w.other;
}

function percentText(p: number): string {
  return `${Number.isInteger(p) ? p : p.toFixed(2).replace(/0$/, '')}%`;
}

/** What the reward says, or null where the rules allow only the resulting price. */
function rewardText(r: { type: 'percent'; percent: number } | { type: 'amount'; cents: number } | { type: 'price'; cents: number }, rules: DealDisplayRules, each: string): string | null {
  if (r.type === 'price') return `${each} for ${money(r.cents)}`;
  if (rules.noPercentOff) return null;
  return r.type === 'percent' ? `${percentText(r.percent)} off` : `${money(r.cents)} off${each ? ` ${each}` : ''}`;
}

/**
 * The deal's words for a badge or the cart ("Any 3 eighths for $90.00", "Buy 2, get 1 for $0.01",
 * "20% off"); null where the store's rules allow only the resulting price (then show the price alone).
 */
export function dealHeadline(deal: Deal, rules: DealDisplayRules): string | null {
  switch (deal.kind) {
    case 'set_discount':
      return deal.reward.type === 'price' ? (rules.noPercentOff ? null : `Now ${money(deal.reward.cents)}`) : rewardText(deal.reward, rules, '');
    case 'mix_match':
      return `Any ${deal.qty} ${noun(deal, deal.qty)} for ${money(deal.priceCents)}`;
    case 'bundle':
      return `${deal.name}: ${deal.items.reduce((s, i) => s + i.qty, 0)} items for ${money(deal.priceCents)}`;
    case 'buy_get': {
      const r = deal.get.reward;
      if (r.type === 'price') return `Buy ${deal.buy.qty}, get ${deal.get.qty} for ${money(r.cents)}${deal.get.qty > 1 ? ' each' : ''}`;
      return rules.noPercentOff ? null : `Buy ${deal.buy.qty}, get ${deal.get.qty} ${percentText(r.percent)} off`;
    }
    case 'threshold': {
      const cond = conditionText(deal);
      const reward = thresholdRewardText(deal, rules);
      return reward ? `${cond}, get ${reward}` : null;
    }
  }
}

function measureText(amount: number, measure: DealMeasure): string {
  const n = Number.isInteger(amount) ? String(amount) : amount.toFixed(2).replace(/0+$/, '').replace(/\.$/, '');
  return measure === 'thc_mg' ? `${n} mg THC` : measure === 'concentrate_g' ? `${n} g of concentrate` : `${n} g`;
}

function conditionText(deal: Extract<Deal, { kind: 'threshold' }>): string {
  const c = deal.condition;
  if (c.type === 'spend') return `Spend ${money(c.cents)}`;
  if (c.type === 'items') return `Buy ${c.count} ${noun(deal, c.count)}`;
  return `Buy ${measureText(c.amount, c.measure)}`;
}

function thresholdRewardText(deal: Extract<Deal, { kind: 'threshold' }>, rules: DealDisplayRules): string | null {
  const r = deal.reward;
  if (r.target === 'order') return rules.noPercentOff ? null : r.reward.type === 'percent' ? `${percentText(r.reward.percent)} off your order` : `${money(r.reward.cents)} off your order`;
  const what = r.maxItems === 1 ? `1 ${setNoun(r.set, deal)}` : setNoun(r.set, deal, true);
  if (r.reward.type === 'price') return `${what} for ${money(r.reward.cents)}${r.maxItems === 1 ? '' : ' each'}`;
  if (rules.noPercentOff) return null;
  return r.reward.type === 'percent' ? `${percentText(r.reward.percent)} off ${what}` : `${money(r.reward.cents)} off ${what}`;
}

function setNoun(set: ProductSet, deal: Deal, plural = false): string {
  if (deal.noun) return plural ? deal.noun.other : deal.noun.one;
  const kind = set.kinds?.length === 1 ? set.kinds[0] : null;
  const names: Record<string, [string, string]> = {
    flower: ['flower item', 'flower'],
    preroll: ['pre-roll', 'pre-rolls'],
    vape: ['vape', 'vapes'],
    concentrate: ['concentrate', 'concentrates'],
    edible: ['edible', 'edibles'],
    tincture: ['tincture', 'tinctures'],
    topical: ['topical', 'topicals'],
    accessory: ['accessory', 'accessories'],
  };
  const pair = kind ? names[kind] : ['item', 'items'];
  return plural ? pair[1] : pair[0];
}

/** The manager's title when its words pass the rules, else the generated headline (or null: price only). */
export function dealDisplayTitle(deal: Deal, rules: DealDisplayRules): string | null {
  return wordsViolations(deal.title, rules).length === 0 ? deal.title : dealHeadline(deal, rules);
}

/** "Add 1 more eighth to get 3 for $90.00" (null when there is nothing worth saying under the rules). */
export function nudgeText(deal: Deal, missing: DealMissing, rules: DealDisplayRules): string | null {
  const items = missing.items ?? 0;
  const again = missing.again ? 'another ' : '';
  switch (deal.kind) {
    case 'mix_match':
      return `Add ${items} more ${noun(deal, items)} to get ${again}${deal.qty} for ${money(deal.priceCents)}`;
    case 'bundle':
      return `Add ${items} more ${noun(deal, items)} to complete the ${deal.name} bundle for ${money(deal.priceCents)}`;
    case 'buy_get': {
      const h = dealHeadline(deal, rules);
      return `Add ${items} more ${noun(deal, items)} for ${again ? 'this deal again' : 'this deal'}${h ? `: ${h}` : ''}`;
    }
    case 'threshold': {
      const reward = thresholdRewardText(deal, rules) ?? 'this deal';
      if (missing.cents != null) return `Spend ${money(missing.cents)} more to get ${reward}`;
      if (missing.amount != null && missing.measure) return `Add ${measureText(missing.amount, missing.measure)} more to get ${reward}`;
      return `Add ${items} more ${noun(deal, items)} to get ${reward}`;
    }
    case 'set_discount':
      return null;
  }
}

const DAY_NAMES = ['Sundays', 'Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays'];

function listWords(xs: string[]): string {
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}

/** Why a deal did not apply, in the shopper's words (the console shows the same with the reason code). */
export function reasonText(deal: Deal, reason: DealReason, missing: DealMissing | undefined, rules: DealDisplayRules): string {
  switch (reason) {
    case 'paused':
      return 'This deal is paused.';
    case 'ended':
      return 'This deal has ended.';
    case 'not_started':
      return 'This deal has not started yet.';
    case 'not_today':
      return `Not today: this deal runs on ${listWords((deal.schedule.days ?? []).map((d) => DAY_NAMES[d]))}.`;
    case 'outside_hours':
      return deal.schedule.hours ? `Not now: this deal runs from ${formatClockShort(deal.schedule.hours.from)} to ${formatClockShort(deal.schedule.hours.to)}.` : 'Not now.';
    case 'medical_only':
      return 'For medical patients only.';
    case 'recreational_only':
      return 'For adult-use (recreational) orders only.';
    case 'customer_group':
      return 'For members of a particular customer group only.';
    case 'first_order_only':
      return 'For a first order only.';
    case 'new_customers_only':
      return 'For new customers only.';
    case 'birthday_month_only':
      return 'For your birthday month only.';
    case 'limit_reached':
      return 'Limit reached: you have used this deal as often as it allows.';
    case 'budget_exhausted':
      return 'This deal has run out.';
    case 'not_combinable_with_coupon':
      return 'Does not combine with a coupon.';
    case 'not_combinable_with_points':
      return 'Does not combine with paying in points.';
    case 'no_matching_items':
      return 'Nothing in your cart is part of this deal.';
    case 'not_enough_items':
    case 'below_threshold':
      return missing ? (nudgeText(deal, missing, rules) ?? 'Not enough in your cart yet.') + '.' : 'Not enough in your cart yet.';
    case 'not_combinable':
      return 'Does not combine with another deal in your cart that saves you more.';
    case 'better_deal_chosen':
      return 'These items got a better deal.';
    case 'no_saving':
      return 'Your price is already lower.';
  }
}
