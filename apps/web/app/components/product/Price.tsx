import { formatMoney, priceDisplay, type Cents, type DealDisplayRules } from '@verdant/domain';

interface PriceProps {
  price: Cents;
  finalPrice: Cents;
  /** Issue 28: the price after a per-item deal live now (the engine's answer for one unit). */
  dealPrice?: Cents | null;
  /** Issue 28: the store's display rules (no strike-through, no "sale" under Massachusetts adult use). */
  rules?: DealDisplayRules;
  from?: boolean;
  money?: { currencyCode: string; locale: string };
  className?: string;
}

const DEFAULT_RULES: DealDisplayRules = { noFreeWord: true, noSaleWord: false, noPercentOff: false, noStrikethrough: false };

/**
 * A product price: the lowest of the regular, special and deal price. Where it is below the regular
 * price, the regular one is struck through beside it (each named for screen readers: "Sale price" or
 * "Deal price", "Regular price") unless the store's rules allow the resulting price only.
 */
export function Price({ price, finalPrice, dealPrice = null, rules = DEFAULT_RULES, from = false, money, className }: PriceProps) {
  const prefix = from ? <span className="font-normal text-stone-600">from </span> : null;
  const view = priceDisplay(price, finalPrice, dealPrice, rules);
  if (view.label) {
    return (
      <p className={className}>
        <span className="sr-only">{view.label} </span>
        {prefix}
        <span className="font-bold text-red-700">{formatMoney(view.shown, money)}</span>
        {view.struck != null ? (
          <>
            {' '}
            <span className="sr-only">Regular price </span>
            <s className="text-sm text-stone-600">{formatMoney(view.struck, money)}</s>
          </>
        ) : null}
      </p>
    );
  }
  return (
    <p className={className}>
      {prefix}
      <span className="font-bold text-stone-900">{formatMoney(view.shown, money)}</span>
    </p>
  );
}
