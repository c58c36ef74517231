import { formatMoney, priceDisplay, priceUnitWords, type Cents, type DealDisplayRules, type PriceMeasure } from '@verdant/domain';

interface PriceProps {
  price: Cents;
  finalPrice: Cents;
  /** Issue 28: the price after a per-item deal live now (the engine's answer for one unit). */
  dealPrice?: Cents | null;
  /** Issue 28: the store's display rules (no strike-through, no "sale" under Massachusetts adult use). */
  rules?: DealDisplayRules;
  from?: boolean;
  /**
   * Issue 30: what the price is for (a size, or THC per package): the weight is written after the
   * price ("from $16.00 / 1 g") and the price per gram or per 10 mg THC of the price shown under it.
   */
  measure?: PriceMeasure | null;
  money?: { currencyCode: string; locale: string };
  className?: string;
}

const DEFAULT_RULES: DealDisplayRules = { noFreeWord: true, noSaleWord: false, noPercentOff: false, noStrikethrough: false };

/**
 * A product price: the lowest of the regular, special and deal price. Where it is below the regular
 * price, the regular one is struck through beside it (each named for screen readers: "Sale price" or
 * "Deal price", "Regular price") unless the store's rules allow the resulting price only. The unit
 * price is always of the price shown (the one charged).
 */
export function Price({ price, finalPrice, dealPrice = null, rules = DEFAULT_RULES, from = false, measure = null, money, className }: PriceProps) {
  const prefix = from ? <span className="font-normal text-stone-600">from </span> : null;
  const view = priceDisplay(price, finalPrice, dealPrice, rules);
  const words = priceUnitWords(view.shown, measure, money);
  const weight = words.weight ? (
    <span className="font-normal text-stone-600">
      <span aria-hidden="true"> / </span>
      <span className="sr-only"> for </span>
      {words.weight}
    </span>
  ) : null;
  const per = words.perShown ? (
    <span className="block text-xs font-normal text-stone-600" data-unit-price="">
      <span aria-hidden="true">{words.perShown}</span>
      <span className="sr-only">{words.perSpoken}</span>
    </span>
  ) : null;
  if (view.label) {
    return (
      <p className={className}>
        <span className="sr-only">{view.label} </span>
        {prefix}
        <span className="font-bold text-red-700">{formatMoney(view.shown, money)}</span>
        {weight}
        {view.struck != null ? (
          <>
            {' '}
            <span className="sr-only">Regular price </span>
            <s className="text-sm text-stone-600">{formatMoney(view.struck, money)}</s>
          </>
        ) : null}
        {per}
      </p>
    );
  }
  return (
    <p className={className}>
      {prefix}
      <span className="font-bold text-stone-900">{formatMoney(view.shown, money)}</span>
      {weight}
      {per}
    </p>
  );
}
