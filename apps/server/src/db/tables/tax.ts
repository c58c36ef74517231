/**
 * Row types of the tax lines stated on orders (migration 0018, issue 14 "Tax rules per store").
 * Conventions are in ../schema.ts.
 */
import type { Generated } from 'kysely';
// The line's own fields (code, title, kind, rate — percent, 8.75 = 8.75 % — taxable_cents,
// amount_cents) are the console contract's: the row is what the console shows, plus its keys.
import type { OrderTaxLine } from '@verdant/domain/console-api';

/**
 * One named tax line of an order as it was charged: the store's line (code, title, kind, rate) at
 * the moment of the order, the amount it was charged on and the amount, in cents. The receipt,
 * the console and the tax report read these, so a later change of the store's lines never changes
 * a placed order. The order's excise_tax_cents / sales_tax_cents are the sums per kind.
 */
export interface OrderTaxLinesTable extends OrderTaxLine {
  id: Generated<number>;
  order_id: number;
  /** The line's place in the store's list (receipt order). */
  position: number;
}
