/**
 * The words of every message the store sends about an order (issue 12 "The shopper is told"):
 * a short SMS (store name and order number first, so a phone's preview says whose it is) and an
 * e-mail per shopper template, and the store's own e-mail for each new order. Times are the
 * store's local time as every shopper date is shown (spec §1, M/D/YYYY HH:mm: "6/15/2026 15:30").
 * SMS text keeps to plain characters (GSM-7): narrow and no-break spaces become spaces.
 */
import { CANCEL_REASON_LABELS, CANCEL_REASON_MESSAGES, formatDateTime, type CancelReason } from '@verdant/domain';

/** The shopper messages a store can switch off one by one (store_order_settings.notifications). */
export const SHOPPER_TEMPLATES = ['order_confirmed', 'order_ready_for_pickup', 'order_out_for_delivery', 'order_cancelled'] as const;
export type ShopperTemplate = (typeof SHOPPER_TEMPLATES)[number];
/** The store's own e-mail for a new order (sent when the store set an order e-mail). */
export const STORE_NEW_ORDER = 'store_new_order';
export type MessageTemplate = ShopperTemplate | typeof STORE_NEW_ORDER;

/** The order status whose arrival sends each shopper template. */
export const TEMPLATE_OF_STATUS: Readonly<Partial<Record<string, ShopperTemplate>>> = {
  confirmed: 'order_confirmed',
  ready_for_pickup: 'order_ready_for_pickup',
  out_for_delivery: 'order_out_for_delivery',
  cancelled: 'order_cancelled',
};

export interface OrderMessageContext {
  storeName: string;
  /** The store's IANA time zone. */
  timezone: string;
  incrementId: string;
  orderType: 'pickup' | 'delivery';
  customerName: string;
  /** ISO */
  readyBy?: string | null;
  cancelReason?: string | null;
  /** What staff wrote to the shopper when cancelling (may be empty). */
  cancelMessage?: string | null;
  /** The booked time slot's text (issue 14: `6/15/2026 13:00 – 13:30`); null: as soon as possible. */
  slot?: string | null;
  /** The order's totals for the confirmation e-mail's receipt (issue 14: each named tax line stated). */
  receipt?: OrderReceipt | null;
  /** Issue 29: the curbside "I'm here" link of a ready pickup order at a store offering curbside. */
  curbsideLink?: string | null;
}

/** What the shopper pays, as charged: each of the store's named tax lines (none for orders from before they were kept: the two sums). */
export interface OrderReceipt {
  subtotalCents: number;
  discountCents: number;
  exciseCents: number;
  salesCents: number;
  taxLines: { title: string; rate: number; amountCents: number }[];
  shippingCents: number;
  totalCents: number;
}

/** The receipt block of the confirmation e-mail, one line per amount, the same words as the thank-you page. */
export function receiptText(r: OrderReceipt, orderType: 'pickup' | 'delivery'): string {
  const taxes = r.taxLines.length
    ? r.taxLines.map((l) => `${l.title} (${l.rate}%): ${dollars(l.amountCents)}`)
    : [`Cannabis excise tax: ${dollars(r.exciseCents)}`, `Sales tax: ${dollars(r.salesCents)}`];
  return [
    `Subtotal: ${dollars(r.subtotalCents)}`,
    ...(r.discountCents > 0 ? [`Discount: -${dollars(r.discountCents)}`] : []),
    ...taxes,
    `${orderType === 'delivery' ? 'Delivery' : 'Pickup'}: ${r.shippingCents > 0 ? dollars(r.shippingCents) : 'Free'}`,
    `Total to pay: ${dollars(r.totalCents)}`,
  ].join('\n');
}

export interface NewOrderContext extends OrderMessageContext {
  /** A delivery order's whole address and a map search for it (issue 26, @verdant/domain address.ts). */
  address?: string | null;
  mapUrl?: string | null;
  phone: string;
  email: string | null;
  totalCents: number;
  itemCount: number;
  createdAt: string;
}

export interface EmailText {
  subject: string;
  text: string;
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function reasonLabel(reason: string | null | undefined): string | null {
  return reason && reason in CANCEL_REASON_LABELS ? CANCEL_REASON_LABELS[reason as CancelReason] : null;
}

/** What the shopper reads about a cancellation: the staff's words, else the reason's default. */
export function cancelText(ctx: OrderMessageContext): string {
  const message = ctx.cancelMessage?.trim();
  if (message) return message;
  return ctx.cancelReason && ctx.cancelReason in CANCEL_REASON_MESSAGES
    ? CANCEL_REASON_MESSAGES[ctx.cancelReason as CancelReason]
    : 'The store cancelled the order.';
}

const SMS_MESSAGE_MAX = 160;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The booked slot as the thank-you and tracking pages head it (issue 14): `Pickup time: 6/15/2026
 * 13:00 – 13:30` (e-mail), `Pickup 6/15/2026 13:00 - 13:30` (SMS: a hyphen, since the en dash is
 * not GSM-7 and would make the whole SMS UCS-2, 70 characters a part).
 */
function slotLine(ctx: OrderMessageContext, sms: boolean): string {
  const type = ctx.orderType === 'delivery' ? 'Delivery' : 'Pickup';
  return sms ? `${type} ${(ctx.slot ?? '').replace(/\u2013/g, '-')}` : `${type} time: ${ctx.slot}`;
}

export function shopperSms(template: ShopperTemplate, ctx: OrderMessageContext): string {
  const head = `${ctx.storeName}: order #${ctx.incrementId}`;
  switch (template) {
    case 'order_confirmed': {
      const when = ctx.readyBy ? formatDateTime(ctx.readyBy, ctx.timezone) : null;
      const slot = ctx.slot ? ` ${slotLine(ctx, true)}.` : '';
      if (ctx.orderType === 'delivery') return `${head} is confirmed.${when ? ` We expect to deliver by ${when}.` : ''}${slot}`;
      return `${head} is confirmed.${when ? ` Ready for pickup by ${when}.` : ''}${slot} Bring a valid photo ID.`;
    }
    case 'order_ready_for_pickup':
      return ctx.curbsideLink
        ? `${head} is ready for pickup. Bring a valid photo ID. Curbside: tap when you are here ${ctx.curbsideLink}`
        : `${head} is ready for pickup. Bring a valid photo ID.`;
    case 'order_out_for_delivery':
      return `${head} is out for delivery. Have your ID ready.`;
    case 'order_cancelled':
      return `${head} was cancelled. ${clip(cancelText(ctx), SMS_MESSAGE_MAX)}`.replace(/[\u202f\u00a0]/g, ' ');
  }
}

export function shopperEmail(template: ShopperTemplate, ctx: OrderMessageContext): EmailText {
  const hello = `Hello ${ctx.customerName || 'there'},`;
  const sign = `\n\n${ctx.storeName}`;
  const when = ctx.readyBy ? formatDateTime(ctx.readyBy, ctx.timezone) : null;
  switch (template) {
    case 'order_confirmed':
      return {
        subject: `Order #${ctx.incrementId} is confirmed`,
        text:
          `${hello}\n\nWe confirmed your order #${ctx.incrementId}.` +
          (when
            ? ctx.orderType === 'delivery'
              ? ` We expect to deliver it by ${when}.`
              : ` It will be ready for pickup by ${when}.`
            : '') +
          (ctx.slot ? `\n\n${slotLine(ctx, false)}` : '') +
          (ctx.receipt ? `\n\n${receiptText(ctx.receipt, ctx.orderType)}` : '') +
          `\n\nPlease bring a valid photo ID${ctx.orderType === 'delivery' ? ' to the door' : ''}.${sign}`,
      };
    case 'order_ready_for_pickup':
      return {
        subject: `Order #${ctx.incrementId} is ready for pickup`,
        text:
          `${hello}\n\nYour order #${ctx.incrementId} is ready for pickup. Please bring a valid photo ID.` +
          (ctx.curbsideLink ? `\n\nCurbside pickup: when you are parked outside, open this link and tell us your car or bay, and we bring the order out:\n${ctx.curbsideLink}` : '') +
          sign,
      };
    case 'order_out_for_delivery':
      return {
        subject: `Order #${ctx.incrementId} is out for delivery`,
        text: `${hello}\n\nYour order #${ctx.incrementId} is on its way. Please have a valid photo ID ready at the door.${sign}`,
      };
    case 'order_cancelled': {
      const label = reasonLabel(ctx.cancelReason);
      return {
        subject: `Order #${ctx.incrementId} was cancelled`,
        text: `${hello}\n\nYour order #${ctx.incrementId} was cancelled${label ? ` (${label})` : ''}.\n\n${cancelText(ctx)}${sign}`,
      };
    }
  }
}

export function storeNewOrderEmail(ctx: NewOrderContext): EmailText {
  return {
    subject: `New ${ctx.orderType} order #${ctx.incrementId}`,
    text:
      `New ${ctx.orderType} order #${ctx.incrementId} at ${ctx.storeName}, placed ${formatDateTime(ctx.createdAt, ctx.timezone)}.\n\n` +
      `Customer: ${ctx.customerName}\nPhone: ${ctx.phone}\n${ctx.email ? `E-mail: ${ctx.email}\n` : ''}` +
      (ctx.slot ? `${slotLine(ctx, false)}\n` : '') +
      (ctx.address ? `Deliver to: ${ctx.address}\n${ctx.mapUrl ? `Map: ${ctx.mapUrl}\n` : ''}` : '') +
      `Items: ${ctx.itemCount}\nTotal: ${dollars(ctx.totalCents)}\n\nOpen the store console to confirm it.`,
  };
}
