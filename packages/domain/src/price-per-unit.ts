/**
 * Issue 30: prices a shopper can compare across a menu — the weight a price is for ("from $16.00
 * / 1 g") and the price per gram (flower, concentrates: anything sold by a size of spec §9) or per
 * 10 mg THC (infused products that state their THC per package). Always of the price actually
 * charged (after a special or a deal), rounded to the cent by `toCents`.
 */
import type { InfusedPotency, ProductCard } from './catalog.ts';
import { formatMoney, toCents, type Cents, type MoneyLocale } from './money.ts';
import { isSizeId, sizeGramsLabel, sizeWeightGrams } from './sizes.ts';

/** What a price is for: a size id (a weight), or an infused product's THC per package. */
export interface PriceMeasure {
  size: number | null;
  thcMg: number | null;
}

export type PerUnitKind = 'g' | '10mg_thc';

export interface PricePerUnit {
  cents: Cents;
  per: PerUnitKind;
}

/** THC mg a "per 10 mg" price is counted in. */
const THC_STEP_MG = 10;

/** A card's measure: its price's size, else its THC per package. */
export function cardPriceMeasure(card: Pick<ProductCard, 'price_size' | 'potency'>): PriceMeasure {
  return { size: card.price_size, thcMg: card.potency?.thcMg ?? null };
}

/** A chosen unit's measure (a configurable's size, or a simple product's own size and potency). */
export function unitPriceMeasure(size: number | null | undefined, potency: InfusedPotency | null | undefined): PriceMeasure {
  return { size: isSizeId(size) ? size : null, thcMg: potency?.thcMg ?? null };
}

/** One gram's price of `cents` paid for `grams` (to the cent); null for no weight. */
export function pricePerGram(cents: Cents, grams: number): Cents | null {
  if (!(grams > 0) || !Number.isInteger(cents) || cents < 0) return null;
  return toCents(cents / 100 / grams);
}

/**
 * The price per gram of a weighed unit, else per 10 mg THC of an infused one; null when it says
 * nothing the price does not: no measure, a 1 g unit (its price is the gram's) or a 10 mg package.
 */
export function pricePerUnit(cents: Cents, measure: PriceMeasure): PricePerUnit | null {
  if (!Number.isInteger(cents) || cents < 0) return null;
  if (measure.size != null && isSizeId(measure.size)) {
    const grams = sizeWeightGrams(measure.size);
    if (grams === 1) return null;
    const per = pricePerGram(cents, grams);
    return per == null ? null : { cents: per, per: 'g' };
  }
  const mg = measure.thcMg;
  if (mg != null && Number.isFinite(mg) && mg > 0 && mg !== THC_STEP_MG) {
    return { cents: toCents(((cents / 100) * THC_STEP_MG) / mg), per: '10mg_thc' };
  }
  return null;
}

export interface PriceUnitWords {
  /** `1 g`, `3.5 g`: the weight the price is for (written after it: "from $16.00 / 1 g"); null: none. */
  weight: string | null;
  /** `$10.00/g`, `$2.50/10 mg THC`: as shown. */
  perShown: string | null;
  /** `$10.00 per gram`, `$2.50 per 10 mg THC`: as read aloud. */
  perSpoken: string | null;
}

/** The words beside a price of `cents` (the one charged) for its measure. */
export function priceUnitWords(cents: Cents, measure: PriceMeasure | null | undefined, money?: MoneyLocale): PriceUnitWords {
  if (!measure) return { weight: null, perShown: null, perSpoken: null };
  const weight = measure.size != null && isSizeId(measure.size) ? sizeGramsLabel(measure.size) : null;
  const per = pricePerUnit(cents, measure);
  if (!per) return { weight, perShown: null, perSpoken: null };
  const amount = formatMoney(per.cents, money);
  return per.per === 'g'
    ? { weight, perShown: `${amount}/g`, perSpoken: `${amount} per gram` }
    : { weight, perShown: `${amount}/10 mg THC`, perSpoken: `${amount} per 10 mg THC` };
}
