/**
 * zod schemas of the cart and order payloads (spec §3 cart item, product_option; §7 calls). The
 * server trusts none of it: prices, names and types in a payload are dropped here, and every
 * sku, quantity and option is checked against the database afterwards.
 */
import { z } from 'zod';
import { CART_MESSAGES, MAX_LINE_QTY } from './messages.ts';

const numeric = (v: unknown) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v);

/** A positive whole quantity; numeric strings are accepted (some clients send "2"). */
export const qtySchema = z.preprocess(
  numeric,
  z
    .number({ error: CART_MESSAGES.qtyPositiveInteger })
    .int(CART_MESSAGES.qtyPositiveInteger)
    .positive(CART_MESSAGES.qtyPositiveInteger)
    .max(MAX_LINE_QTY - 1, CART_MESSAGES.qtyTooLarge(MAX_LINE_QTY)),
);

/** An id that may arrive as a number or a digit string (option ids, selection ids, item ids). */
export const idSchema = z.preprocess(numeric, z.number().int().nonnegative());

export const productOptionSchema = z
  .object({
    extension_attributes: z
      .object({
        custom_options: z
          .array(
            z.object({
              option_id: idSchema,
              option_value: z.union([z.string().max(255), z.number()]).transform(String),
            }),
          )
          .max(50),
        configurable_item_options: z.array(z.object({ option_id: idSchema, option_value: idSchema })).max(10),
        bundle_options: z
          .array(
            z.object({
              option_id: idSchema,
              option_qty: qtySchema.optional(),
              option_selections: z.array(idSchema).max(20).optional(),
            }),
          )
          .max(20),
      })
      .partial()
      .optional(),
  })
  .nullable()
  .optional();

export type ProductOptionInput = z.infer<typeof productOptionSchema>;

const skuSchema = z.string().trim().min(1, 'sku must not be empty').max(128, 'sku is too long');

/** A cart or order line as a client names it: sku (a child, or a parent with a size), qty, options. */
export const lineSchema = z.object({
  sku: skuSchema,
  qty: qtySchema,
  size: z.preprocess(numeric, z.number().int().positive()).nullable().optional(),
  product_option: productOptionSchema,
});

export type LineInput = z.infer<typeof lineSchema>;

export const cartItemSchema = z
  .object({
    sku: skuSchema.optional(),
    qty: qtySchema,
    quoteId: z.union([z.string().max(200), z.number()]).optional(),
    item_id: idSchema.optional(),
    size: z.preprocess(numeric, z.number().int().positive()).nullable().optional(),
    product_option: productOptionSchema,
  })
  .refine((i) => i.sku != null || i.item_id != null, { message: CART_MESSAGES.itemIdentifierRequired });

export type CartItemInput = z.infer<typeof cartItemSchema>;

export const orderTypeSchema = z.enum(['pickup', 'delivery'], { error: 'order_type must be pickup or delivery' });

/** Reward points to burn: whole points only (spec §5). */
export const pointsSchema = z.preprocess(
  numeric,
  z
    .number({ error: CART_MESSAGES.pointsDecimals })
    .int(CART_MESSAGES.pointsDecimals)
    .nonnegative(CART_MESSAGES.pointsNegative)
    .max(10_000_000, CART_MESSAGES.pointsDecimals),
);

/** Purchase-limit buckets (issue 14): the shopper's residency statement, where the store's model needs it. */
const residencySchema = z.enum(['resident', 'non_resident'], { error: 'residency must be resident or non_resident' }).nullable();

const oneItemUpdateSchema = z.object({
  cartItem: cartItemSchema,
  order_type: orderTypeSchema.optional(),
  burnCredits: pointsSchema.optional(),
  residency: residencySchema.optional(),
});
const allItemsUpdateSchema = z.object({
  cartItems: z.array(cartItemSchema).max(100, 'At most 100 cart items per update'),
  order_type: orderTypeSchema.optional(),
  burnCredits: pointsSchema.optional(),
  residency: residencySchema.optional(),
});

/** Spec §7: `{cartItem, order_type}` (one line) or `{cartItems, order_type, burnCredits}` (all lines). */
export const cartUpdateSchema = z.union([oneItemUpdateSchema, allItemsUpdateSchema]);
export type CartUpdateInput = z.infer<typeof cartUpdateSchema>;

/**
 * The form a payload is written in, picked by its key before parsing: a union would report the
 * other form's missing key ("cartItem: …") for a `{cartItems, burnCredits: "2.5"}` payload instead
 * of what is wrong with it (spec §5 "Points to redeem cannot contain decimals").
 */
export function cartUpdateSchemaOf(body: unknown): z.ZodType<CartUpdateInput> {
  const form = body != null && typeof body === 'object' && 'cartItems' in body && !('cartItem' in body);
  return form ? allItemsUpdateSchema : oneItemUpdateSchema;
}

export const cartDeleteSchema = z.object({
  cartItem: z
    .object({
      sku: skuSchema.optional(),
      item_id: idSchema.optional(),
      quoteId: z.union([z.string().max(200), z.number()]).optional(),
    })
    .refine((i) => i.sku != null || i.item_id != null, { message: CART_MESSAGES.itemIdentifierRequired }),
});
