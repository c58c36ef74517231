/**
 * Labels and lookup for the price filter buckets of spec §9 (PRICE_RANGES in filters.ts).
 *
 * The spec gives '< {currency}to' for both the first and the last bucket. The last bucket
 * (150+) has no upper bound, so '< $…' cannot describe it; we show '> $150' (its lower bound)
 * instead. Middle buckets read '$50 - 100': the sign once, whole currency units.
 */
import type { Cents } from './money.ts';
import { DEFAULT_MONEY_LOCALE, type MoneyLocale } from './money.ts';
import { PRICE_RANGES } from './filters.ts';

const formatters = new Map<string, Intl.NumberFormat>();

function whole(cents: Cents, money: MoneyLocale, withSign: boolean): string {
  const key = `${money.locale}|${money.currencyCode}|${withSign}`;
  let fmt = formatters.get(key);
  if (!fmt) {
    // Bucket bounds are whole units; showing '$50.00' would only add noise to a filter chip.
    fmt = new Intl.NumberFormat(
      money.locale,
      withSign
        ? { style: 'currency', currency: money.currencyCode, minimumFractionDigits: 0, maximumFractionDigits: 0 }
        : { maximumFractionDigits: 0 },
    );
    formatters.set(key, fmt);
  }
  return fmt.format(cents / 100);
}

/** '< $50', '$50 - 100', '$100 - 150', '> $150'. An unknown key is returned as is. */
export function priceRangeLabel(rangeKey: string, money: MoneyLocale = DEFAULT_MONEY_LOCALE): string {
  const index = PRICE_RANGES.findIndex((r) => r.key === rangeKey);
  if (index < 0) return rangeKey;
  const range = PRICE_RANGES[index];
  if (range.to == null) return `> ${whole(range.from, money, true)}`;
  if (index === 0) return `< ${whole(range.to, money, true)}`;
  return `${whole(range.from, money, true)} - ${whole(range.to, money, false)}`;
}

/** The bucket key a price falls in (`from` inclusive, `to` exclusive); null for a negative or non-finite price. */
export function priceRangeOf(cents: Cents): string | null {
  if (!Number.isFinite(cents) || cents < 0) return null;
  const range = PRICE_RANGES.find((r) => cents >= r.from && (r.to == null || cents < r.to));
  return range ? range.key : null;
}
