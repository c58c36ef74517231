/**
 * Money is kept as integer cents everywhere (database, API, cart math) so that sums are exact.
 * Conversion from a decimal amount happens in exactly one place: `toCents`, which rounds half
 * away from zero to the cent (the usual receipt rule). Display goes through `formatMoney`.
 */
export type Cents = number;

export interface MoneyLocale {
  currencyCode: string;
  locale: string;
}

export const DEFAULT_MONEY_LOCALE: MoneyLocale = { currencyCode: 'USD', locale: 'en-US' };

/** Round a decimal currency amount (e.g. 12.345) to integer cents, half away from zero. */
export function toCents(amount: number): Cents {
  if (!Number.isFinite(amount)) throw new RangeError(`Not a finite amount: ${amount}`);
  // Scale with a small epsilon so binary artefacts such as 1.005 * 100 = 100.49999… round as written.
  const scaled = Math.abs(amount) * 100;
  const rounded = Math.round(scaled + Number.EPSILON * Math.max(1, scaled) * 8);
  return amount < 0 ? -rounded : rounded;
}

/** Integer cents to a decimal amount (for JSON fields that the spec keeps as decimals). */
export function fromCents(cents: Cents): number {
  return Math.round(cents) / 100;
}

/** Apply a rate (percent, e.g. 15 for 15%) to an amount in cents, rounded to the cent. */
export function percentOf(cents: Cents, ratePercent: number): Cents {
  return toCents((cents * ratePercent) / 10000);
}

const formatters = new Map<string, Intl.NumberFormat>();

/** `$12.50`: currency sign, grouping, two fraction digits, per the store's i18n settings. */
export function formatMoney(cents: Cents, money: MoneyLocale = DEFAULT_MONEY_LOCALE): string {
  const key = `${money.locale}|${money.currencyCode}`;
  let fmt = formatters.get(key);
  if (!fmt) {
    fmt = new Intl.NumberFormat(money.locale, {
      style: 'currency',
      currency: money.currencyCode,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(key, fmt);
  }
  return fmt.format(fromCents(cents));
}
