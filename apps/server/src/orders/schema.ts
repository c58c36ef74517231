/**
 * The order payload of `POST /api/order/save`. Prices, totals, names and anything else a client
 * may send along are dropped here: an order is priced by the server only.
 */
import { z } from 'zod';
import { LICENSE_TYPES } from '@verdant/domain';
import { CART_MESSAGES as M } from '../cart/messages.ts';
import { lineSchema, orderTypeSchema, pointsSchema } from '../cart/schemas.ts';

const text = (field: string, min: number, max: number) =>
  z.string({ error: `${field}: Field is required` }).trim().min(min, `${field}: Field is required`).max(max, `${field} is too long`);

export const personalDetailsSchema = z.object({
  firstName: text('firstName', 1, 100),
  lastName: text('lastName', 1, 100),
  emailAddress: z.string({ error: 'emailAddress: Field is required' }).trim().email('Please provide valid e-mail address.').max(254),
  phone: z
    .string({ error: 'phone: Field is required' })
    .trim()
    .regex(/^\+?[0-9 ().-]{7,24}$/, 'Please provide valid phone number')
    .refine((p) => { const digits = p.replace(/\D/g, '').length; return digits >= 7 && digits <= 15; }, 'Please provide valid phone number'),
});

export const shippingAddressSchema = z.object({
  lat: z.number({ error: 'shipping_address.lat is required' }).min(-90).max(90),
  lng: z.number({ error: 'shipping_address.lng is required' }).min(-180).max(180),
  city: text('city', 1, 100),
  zip: z.string({ error: 'zip: Field is required' }).trim().min(3, 'Zip-code must have at least 3 letters').max(20),
  address: text('address', 1, 200),
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
    shipping_address: shippingAddressSchema.nullable().optional(),
    payment_method: z.literal('cashondelivery', { error: 'payment_method must be cashondelivery' }).default('cashondelivery'),
    coupon: z.string().trim().max(64, M.incorrectCoupon).nullable().optional(),
    credits: pointsSchema.optional(),
    products: z.array(lineSchema).max(100, 'At most 100 products per order').optional(),
  })
  .refine((o) => o.order_type !== 'delivery' || o.shipping_address != null, { message: M.deliveryAddressRequired });

export type OrderInput = z.infer<typeof orderSaveSchema>;
