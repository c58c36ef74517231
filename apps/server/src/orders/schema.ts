/**
 * The order payload of `POST /api/order/save`. Prices, totals, names and anything else a client
 * may send along are dropped here: an order is priced by the server only.
 */
import { z } from 'zod';
import { FORM_MESSAGES, LICENSE_TYPES, MESSAGES, cityRule, emailRule, firstNameRule, lastNameRule, phoneRule, requiredRule, zipRule, type FieldRule } from '@verdant/domain';
import { CART_MESSAGES as M } from '../cart/messages.ts';
import { lineSchema, orderTypeSchema, pointsSchema } from '../cart/schemas.ts';

/** A field checked by the shared form rule of @verdant/domain (the checkout form uses the same). */
const field = (name: string, rule: FieldRule, max: number) =>
  z
    .string({ error: `${name}: ${MESSAGES.fieldRequired}` })
    .trim()
    .max(max, `${name} is too long`)
    .superRefine((value, ctx) => {
      const message = rule(value);
      if (message) ctx.addIssue({ code: 'custom', message: `${name}: ${message}` });
    });

export const personalDetailsSchema = z.object({
  firstName: field('firstName', firstNameRule, 100),
  lastName: field('lastName', lastNameRule, 100),
  emailAddress: field('emailAddress', emailRule, 254),
  phone: field('phone', phoneRule, 24),
});

export const shippingAddressSchema = z.object({
  // Accepted for older clients, never used: the server places a delivery address by its ZIP code.
  lat: z.number().min(-90).max(90).optional(),
  lng: z.number().min(-180).max(180).optional(),
  city: field('city', cityRule, 100),
  zip: field('zip', zipRule, 20),
  address: field('address', requiredRule, 200),
  apt_ste: z.string().trim().max(100).nullable().optional(),
  region: z.string().trim().max(100).nullable().optional(),
  country_id: z.string().trim().length(2).nullable().optional(),
});

export const orderSaveSchema = z
  .object({
    idempotency_key: z.string().uuid(M.idempotencyKeyRequired).optional(),
    cart_id: z.string().max(128).nullable().optional(),
    order_type: orderTypeSchema,
    license_type: z.enum(LICENSE_TYPES, { error: 'license_type must be recreational or medical' }).optional(),
    personal_details: personalDetailsSchema,
    // Age on every order (issue 14): the guest's date of birth, YYYY-MM-DD. Judged in prepare.ts
    // (it needs the store's clock and zone: ../age/order-age.ts); a customer's comes from the account.
    birthday: z.string({ error: FORM_MESSAGES.birthday }).trim().max(32, FORM_MESSAGES.date).nullable().optional(),
    // Purchase-limit buckets (issue 14): the shopper's residency where the store's model needs it.
    residency: z.enum(['resident', 'non_resident'], { error: 'residency must be resident or non_resident' }).nullable().optional(),
    // Time slot (issue 14): the start (ISO instant) of a slot offered by GET /api/order/slots; absent or null: ASAP.
    slot: z.iso.datetime({ offset: true, error: 'slot must be the start time of a slot (ISO 8601)' }).nullable().optional(),
    shipping_address: shippingAddressSchema.nullable().optional(),
    payment_method: z.literal('cashondelivery', { error: 'payment_method must be cashondelivery' }).default('cashondelivery'),
    coupon: z.string().trim().max(64, M.incorrectCoupon).nullable().optional(),
    credits: pointsSchema.optional(),
    products: z.array(lineSchema).max(100, 'At most 100 products per order').optional(),
  })
  .refine((o) => o.order_type !== 'delivery' || o.shipping_address != null, { message: M.deliveryAddressRequired });

export type OrderInput = z.infer<typeof orderSaveSchema>;
