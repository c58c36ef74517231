import { formatMoney, type Cents } from '@verdant/domain';

interface PriceProps {
  price: Cents;
  finalPrice: Cents;
  from?: boolean;
  money?: { currencyCode: string; locale: string };
  className?: string;
}

/**
 * A product price. When the final price is below the regular price both show, the regular one
 * struck through, each named for screen readers ("Sale price", "Regular price").
 */
export function Price({ price, finalPrice, from = false, money, className }: PriceProps) {
  const prefix = from ? <span className="font-normal text-stone-600">from </span> : null;
  if (finalPrice < price) {
    return (
      <p className={className}>
        <span className="sr-only">Sale price </span>
        {prefix}
        <span className="font-bold text-red-700">{formatMoney(finalPrice, money)}</span>{' '}
        <span className="sr-only">Regular price </span>
        <s className="text-sm text-stone-600">{formatMoney(price, money)}</s>
      </p>
    );
  }
  return (
    <p className={className}>
      {prefix}
      <span className="font-bold text-stone-900">{formatMoney(finalPrice, money)}</span>
    </p>
  );
}
