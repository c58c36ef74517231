import { displayedTax } from './display.ts';
import { RECREATIONAL_CUSTOMER, type TaxLine, type TaxProductKind } from './lines.ts';

/**
 * "Prices exclude about 25 % in taxes" (issue 30: shoppers used to other menus learn of the taxes
 * only in the cart). Worked out from the store's own tax lines, never a fixed figure:
 *  - what the note speaks of is cannabis goods: every cannabis product kind, taxed as a product of
 *    the tax classes the store's excise lines name (an excise line is a cannabis tax; a store whose
 *    excise lines name no class: lines without a class condition apply to everything);
 *  - potency bands count both ways (a typical 20 % THC flower and an unknown potency, which the
 *    lines count as the highest band), so a store with THC tiers (Illinois) gets a range;
 *  - a recreational shopper (medical exemptions vary by card and are the cart's to apply);
 *  - the share is of the price on a $100.00 item (compounding lines included), rounded to a whole
 *    percent: one figure when every case rounds alike, else the lowest and highest.
 * Null when no line applies to cannabis goods.
 */
export interface TaxShare {
  min: number;
  max: number;
}

const CANNABIS_KINDS: readonly TaxProductKind[] = ['flower', 'pre_roll', 'concentrate', 'vape', 'infused', 'topical'];
const POTENCIES = [20, null] as const;
const PRICE = 10_000;

export function cannabisTaxShare(lines: readonly TaxLine[]): TaxShare | null {
  const named = [...new Set(lines.filter((l) => l.kind === 'excise').flatMap((l) => l.applies_to.tax_class_ids ?? []))];
  const classes: (number | null)[] = named.length ? named : [null];
  let min = Infinity;
  let max = -Infinity;
  for (const taxClassId of classes) {
    for (const kind of CANNABIS_KINDS) {
      for (const thcPercent of POTENCIES) {
        const t = displayedTax([{ net: PRICE, taxClassId, kind, thcPercent }], lines, RECREATIONAL_CUSTOMER);
        const share = Math.round(((t.inclTax - PRICE) / PRICE) * 100);
        min = Math.min(min, share);
        max = Math.max(max, share);
      }
    }
  }
  return max > 0 ? { min, max } : null;
}

/** The note's words: "Prices exclude about 25 % in taxes" or "… about 16–31 % …"; they are added in the cart. */
export function taxShareNote(share: TaxShare): string {
  const figure = share.min === share.max ? `${share.max} %` : `${share.min}–${share.max} %`;
  return `Prices exclude about ${figure} in taxes, added in the cart.`;
}
