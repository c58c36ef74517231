/**
 * How the storefront draws deals and prices under a store's display rules (issue 28), apart from the
 * engine and the setting's schema so the browser's bundle takes only this: the preset a page follows
 * and how a price is shown. The rules and their sources: words.ts; docs/operators/deals.md.
 */
import type { Cents } from '../money.ts';
import { DEAL_DISPLAY_PRESETS, type DealDisplayPreset, type DealDisplayRules } from './words.ts';

/** The store setting `deal-display`: `auto` follows the store's state (its address) and the page's licence. */
export const DEAL_DISPLAY_CHOICES = ['auto', 'default', 'CA', 'MA_ADULT_USE'] as const;
export type DealDisplayChoice = (typeof DEAL_DISPLAY_CHOICES)[number];
export interface DealDisplaySettings {
  preset: DealDisplayChoice;
}

/**
 * The preset a page or a cart of `licence` follows. Massachusetts' rule is for adult-use menus: a
 * store on MA_ADULT_USE (chosen, or `auto` with an MA address) shows medical shoppers the default
 * words. `auto`: MA → MA_ADULT_USE, CA → CA, anywhere else the default (which never says "free" either).
 */
export function dealDisplayPresetFor(setting: DealDisplaySettings | null | undefined, regionCode: string | null | undefined, licence: 'medical' | 'recreational'): DealDisplayPreset {
  const choice = setting?.preset ?? 'auto';
  const region = (regionCode ?? '').toUpperCase();
  const id = choice === 'auto' ? (region === 'MA' ? 'MA_ADULT_USE' : region === 'CA' ? 'CA' : 'default') : choice;
  if (id === 'MA_ADULT_USE' && licence !== 'recreational') return DEAL_DISPLAY_PRESETS.default;
  return DEAL_DISPLAY_PRESETS[id];
}


export interface PriceDisplay {
  /** The price the shopper pays, shown large. */
  shown: Cents;
  /** The earlier price shown struck through beside it; null where the rules forbid it or nothing is lower. */
  struck: Cents | null;
  /** Words for the badge and the screen-reader name of the shown price ("Sale price", "Deal price"; never "sale" where forbidden). */
  label: string | null;
}

/**
 * How a price is drawn (cards, product page): the lowest of the regular price, the special price and
 * the price after a per-item deal; the regular price struck through beside it unless the rules say no
 * strike-through (Massachusetts adult use), where the resulting price stands alone.
 */
export function priceDisplay(price: Cents, finalPrice: Cents, dealPrice: Cents | null, rules: DealDisplayRules): PriceDisplay {
  const shown = dealPrice != null && dealPrice < finalPrice ? dealPrice : finalPrice;
  if (shown >= price) return { shown, struck: null, label: null };
  const label = dealPrice != null && dealPrice < finalPrice ? 'Deal price' : rules.noSaleWord ? 'Special price' : 'Sale price';
  return { shown, struck: rules.noStrikethrough ? null : price, label };
}

/** The card badge of a special price: "Sale", or "Special" where the word "sale" is not allowed. */
export function saleBadgeWord(rules: DealDisplayRules): string {
  return rules.noSaleWord ? 'Special' : 'Sale';
}
