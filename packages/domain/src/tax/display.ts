import type { Cents } from '../money.ts';
import { computeTaxLines, RECREATIONAL_CUSTOMER, type TaxCustomer, type TaxItem, type TaxLine, type TaxLineAmount } from './lines.ts';

/**
 * The taxes of a displayed price (issue 14): what a cart holding just this product at quantity 1
 * pays under the store's tax lines, so a price "incl. tax" and the cart line agree to the cent. A
 * product is taxed per component (a kit's members each by their own tax class, kind and THC), all
 * in one computation, so the components that share lines are rounded once together exactly as
 * the cart's computeTotals rounds them.
 */
export interface DisplayedTax {
  excise: Cents;
  sales: Cents;
  /** Each line that applies, in the store's order, summed over the components. */
  lines: TaxLineAmount[];
  /** The price plus every line. */
  inclTax: Cents;
}

export type DisplayedComponent = Omit<TaxItem, 'id'>;

export function displayedTax(
  components: readonly DisplayedComponent[],
  lines: readonly TaxLine[],
  customer: TaxCustomer = RECREATIONAL_CUSTOMER,
): DisplayedTax {
  const b = computeTaxLines(
    components.map((c, i) => ({ ...c, id: `${i}` })),
    lines,
    customer,
  );
  const stated = b.lines
    .filter((l) => b.items.some((it) => it.lines.some((x) => x.code === l.code)))
    .map((l) => ({ code: l.code, amount: l.amount }));
  const net = components.reduce((a, c) => a + c.net, 0);
  return { excise: b.excise, sales: b.sales, lines: stated, inclTax: net + b.excise + b.sales };
}
