/**
 * What cancelling does to stock, per reason (issue 26: "Sold out" put the items back on the shelf
 * the store had just said were not there, and the dialog did not say so). One rule for the server
 * (orders/lifecycle/release.ts) and the console's cancel dialog:
 *  - "Sold out": the order's items are NOT put back (the store does not have them); the menu's
 *    counts stay as the order left them — staff correct them on the Menu page if some were there;
 *  - every other reason (and a no-show): the items go back to stock.
 * Reward points, the coupon's use and the time slot's place go back whatever the reason.
 */
import type { CancelReason } from './order-lifecycle.ts';

/** Whether cancelling for this reason puts the order's items back in stock. */
export function cancelRestocks(reason: CancelReason | string | null | undefined): boolean {
  return reason !== 'sold_out';
}

export const CANCEL_STOCK_TEXT = {
  restock: 'Its items go back to stock and can be sold again. Points and coupon use are given back.',
  soldOut:
    'Stock is not put back: the items stay off the shelf, as you say they are not there. Correct the counts on the Menu page if some are. Points and coupon use are given back.',
  choose: 'Choose a reason: “Sold out” keeps the items out of stock; every other reason puts them back.',
} as const;

/** The dialog's sentence for a reason (or for no reason chosen yet). */
export function cancelStockText(reason: CancelReason | '' | null | undefined): string {
  if (!reason) return CANCEL_STOCK_TEXT.choose;
  return cancelRestocks(reason) ? CANCEL_STOCK_TEXT.restock : CANCEL_STOCK_TEXT.soldOut;
}
