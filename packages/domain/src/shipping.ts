/**
 * The shipping methods' prices and what the shopper is told about paying (spec §3, §9), in one
 * place: the server's totals and orders charge these figures (apps/server/src/shipping/methods.ts),
 * the checkout estimates with them and the store's delivery page quotes them. Cents.
 */
import { formatMoney, type MoneyLocale } from './money.ts';

/** Spec §9: delivery costs 4 before tax, 5 including it; pickup is free. */
export const DELIVERY_FEE = { beforeTax: 400, inclTax: 500 } as const;

export type FulfilmentType = 'pickup' | 'delivery';

/** What the shopper pays for a method, tax included (the totals' shipping segment). */
export function shippingFeeInclTax(orderType: FulfilmentType): number {
  return orderType === 'delivery' ? DELIVERY_FEE.inclTax : 0;
}

/** The one sentence every page that quotes the delivery fee uses: the figure the checkout charges. */
export function deliveryFeeText(money?: MoneyLocale): string {
  return `${formatMoney(DELIVERY_FEE.inclTax, money)} including tax`;
}

/** How an order is paid, by order type (cash on delivery is the one method; at pickup it is paid at the counter). */
export const PAYMENT_COPY: Readonly<Record<FulfilmentType, { title: string; text: string }>> = {
  delivery: { title: 'Payment Information', text: 'You are going to pay for this order upon delivery.' },
  pickup: { title: 'Payment Information', text: 'You are going to pay for this order at pickup, at the store’s counter.' },
};
