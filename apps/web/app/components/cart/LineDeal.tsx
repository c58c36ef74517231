import { formatMoney } from '@verdant/domain';
import { useDealDisplay } from '../../lib/deal-view.ts';
import { useRootData } from '../../lib/root-data.ts';
import type { DealDisplayRules } from '@verdant/domain';

/**
 * The line total a line shows: before the deal (the deal's amount off is stated under it), or —
 * where the rules allow the resulting price only (Massachusetts adult use) — after it.
 */
export function shownLineTotal(rowTotal: number, deal: { discount: number } | null | undefined, rules: DealDisplayRules): number {
  return deal && rules.noPercentOff ? rowTotal - deal.discount : rowTotal;
}

/**
 * The deal that touched a line (issue 28; spec cart item discount_reason), in the cart and at
 * checkout: the deal's words and what it takes off the line, or — where the store's rules forbid
 * amounts off (Massachusetts adult use) — the line's resulting price alone. `rowTotal` is the line
 * before the deal, `deal.discount` the server's (or, offline, the estimate's) discount of the line.
 */
export function LineDeal({ deal, rowTotal, className }: { deal: { reason: string | null; discount: number }; rowTotal: number; className?: string }) {
  const { store } = useRootData();
  const { rules } = useDealDisplay();
  return (
    <p className={className ?? 'mt-1 text-sm font-medium break-words text-emerald-900'} data-testid="line-deal">
      {deal.reason ? `${deal.reason}: ` : 'Deal price: '}
      {rules.noPercentOff ? `${formatMoney(rowTotal - deal.discount, store.money)} for this line` : `−${formatMoney(deal.discount, store.money)}`}
    </p>
  );
}
