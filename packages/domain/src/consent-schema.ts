/**
 * The back-in-stock request's schema (issue 30), apart from ./consent.ts so that the shopper's pages,
 * which use the consent words, never load zod (console/bundles.test.ts).
 */
import { z } from 'zod';
import { MESSAGE_CHANNELS } from './consent.ts';

/**
 * `POST /api/stock-alerts` (issue 30): a logged-in customer sends the target and `consent`; a guest
 * also a channel and its contact (a US phone or an e-mail). Forms send `consent=on`.
 */
export const stockAlertRequestSchema = z.object({
  productId: z.coerce.number().int().positive().max(2_147_483_647),
  variantId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  channel: z.enum(MESSAGE_CHANNELS).optional(),
  contact: z.string().trim().max(254).optional(),
  consent: z.union([z.boolean(), z.literal('on'), z.literal('true')]).optional(),
});
export type StockAlertRequest = z.infer<typeof stockAlertRequestSchema>;
