/**
 * Order numbers a shopper can read out at the counter: the store's two-letter prefix and a
 * six-digit number, `DO-100042`. The number is 100000 + the order's row id, so it is unique
 * across stores without a counter of its own (a counter row per store would be one more hot row
 * every order has to lock). Numbers per store are therefore increasing but not consecutive.
 */
import type { Store } from '@verdant/domain';

export const ORDER_NUMBER_OFFSET = 100_000;

export function orderPrefix(storeCode: string): string {
  const letters = storeCode.replace(/[^a-z]/gi, '').toUpperCase();
  return letters.slice(0, 2).padEnd(2, 'X');
}

export function orderNumber(store: Pick<Store, 'storeCode'>, orderId: number): string {
  return `${orderPrefix(store.storeCode)}-${ORDER_NUMBER_OFFSET + orderId}`;
}
