/**
 * The messages consumer's handler (outbox column `messages_at`): turns an order event into
 * `message_deliveries` rows, one per channel and recipient, which the sender (./sender.ts) sends.
 *  - `order.created` → the store's e-mail (store_order_settings.order_email, when set);
 *  - `order.status_changed` to confirmed / ready_for_pickup / out_for_delivery / cancelled → an SMS
 *    to the order's phone and an e-mail to its address (when it has one).
 * Each shopper template × channel can be switched off per store (`notifications[template].sms|email`,
 * absent = on). Rows are written behind the unique key (event_id, channel, recipient, template) with
 * ON CONFLICT DO NOTHING: the consumer delivers at least once, so a second run writes nothing.
 * A shopper whose consent ledger holds a withdrawal of transactional messages on a channel (an SMS
 * STOP; ./consent.ts) gets nothing on that channel. Texts are rendered now, from the event's own state (its ready-by time, its reason), so a message
 * says what happened at that step even when it is sent later.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { OutboxEvent } from '../outbox/consumer.ts';
import { toE164 } from '../users/phone.ts';
import { contactKey, mayMessage } from './consent.ts';
import { orderTaxLines } from '../tax/order-lines.ts';
import { formatAddress, mapLink, slotLabel } from '@verdant/domain';
import {
  shopperEmail,
  shopperSms,
  storeNewOrderEmail,
  STORE_NEW_ORDER,
  TEMPLATE_OF_STATUS,
  type OrderMessageContext,
  type ShopperTemplate,
} from './templates.ts';
import { queueMessages } from './queue.ts';

export interface StoreInfo {
  name: string;
  timezone: string;
}

export interface PlanDeps {
  db: Kysely<Database>;
  /** The store's name and time zone (from the stores file); undefined for an unknown store. */
  storeInfo: (storeId: number) => StoreInfo | undefined;
  now?: () => Date;
  /**
   * Issue 29: the signed "I'm here" link of a pickup order of a store offering curbside, for its
   * "ready for pickup" message (null: no curbside). Unset: no link (tests of other messages).
   */
  curbsideLink?: (storeId: number, orderId: number) => Promise<string | null>;
  /**
   * Whether the SMS gateway reports delivery (SMS_RECEIPTS). Without reports a text a carrier drops
   * is never known to be lost, so the e-mail cannot wait for it: both channels go, as before issue 30.
   * Unset: reports assumed (the one-channel rule with its fallback).
   */
  smsReceipts?: boolean;
}

export type NotificationSwitches = Partial<Record<string, { sms?: boolean; email?: boolean }>>;

interface PlannedMessage {
  channel: 'sms' | 'email';
  recipient: string;
  template: string;
  subject: string | null;
  body: string;
  customer_id?: number | null;
  /** The same message for the other channel, sent only when this one fails (./receipts.ts). */
  fallback_channel?: 'sms' | 'email' | null;
  fallback_recipient?: string | null;
  fallback_subject?: string | null;
  fallback_body?: string | null;
}

/** Whether a template goes out on a channel under a store's switches (absent = on). */
export function messageEnabled(switches: NotificationSwitches, template: string, channel: 'sms' | 'email'): boolean {
  return switches[template]?.[channel] !== false;
}

function parseSwitches(json: string | undefined): NotificationSwitches {
  if (!json) return {};
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' ? (value as NotificationSwitches) : {};
  } catch {
    return {};
  }
}

interface PersonalDetails {
  firstName?: string;
  lastName?: string;
  emailAddress?: string;
  phone?: string;
}

/** The rows an event asks for (nothing for events that send no message). */
export async function planMessages(deps: PlanDeps, event: OutboxEvent): Promise<PlannedMessage[]> {
  const template =
    event.type === 'order.created'
      ? STORE_NEW_ORDER
      : event.type === 'order.status_changed'
        ? TEMPLATE_OF_STATUS[event.payload.status]
        : undefined;
  if (!template || event.order_id === null) return [];
  const store = deps.storeInfo(event.store_id);
  if (!store) return [];
  const order = await deps.db
    .selectFrom('orders')
    .select([
      'id',
      'customer_id',
      'increment_id',
      'order_type',
      'personal_details',
      'cancel_message',
      'total_cents',
      'created_at',
      'slot_start',
      'slot_end',
      'subtotal_cents',
      'discount_cents',
      'excise_tax_cents',
      'sales_tax_cents',
      'shipping_cents',
      'shipping_address',
    ])
    .where('id', '=', event.order_id)
    .executeTakeFirst();
  if (!order) return [];
  const settings = await deps.db
    .selectFrom('store_order_settings')
    .select(['notifications', 'order_email'])
    .where('store_id', '=', event.store_id)
    .executeTakeFirst();
  const switches = parseSwitches(settings?.notifications);
  const details = JSON.parse(order.personal_details) as PersonalDetails;
  const ctx: OrderMessageContext = {
    storeName: store.name,
    timezone: store.timezone,
    incrementId: order.increment_id,
    orderType: order.order_type,
    customerName: [details.firstName, details.lastName].filter(Boolean).join(' '),
    readyBy: event.payload.ready_by ?? null,
    cancelReason: event.payload.cancel_reason ?? null,
    cancelMessage: order.cancel_message,
    // The booked time slot (issue 14), in the store's zone.
    slot: order.slot_start && order.slot_end ? slotLabel(order.slot_start, order.slot_end, store.timezone) : null,
  };
  // The confirmation e-mail carries the receipt: each named tax line as charged (issue 14).
  if (template === 'order_confirmed') {
    const lines = await orderTaxLines(deps.db, order.id);
    ctx.receipt = {
      subtotalCents: order.subtotal_cents,
      discountCents: order.discount_cents,
      exciseCents: order.excise_tax_cents,
      salesCents: order.sales_tax_cents,
      taxLines: lines.map((l) => ({ title: l.title, rate: l.rate, amountCents: l.amount_cents })),
      shippingCents: order.shipping_cents,
      totalCents: order.total_cents,
    };
  }

  if (template === 'order_ready_for_pickup' && order.order_type === 'pickup' && deps.curbsideLink)
    ctx.curbsideLink = await deps.curbsideLink(event.store_id, order.id);

  if (template === STORE_NEW_ORDER) {
    const to = settings?.order_email?.trim();
    if (!to || !messageEnabled(switches, STORE_NEW_ORDER, 'email')) return [];
    const items = await deps.db
      .selectFrom('order_items')
      .select(({ fn }) => fn.sum<number>('qty').as('n'))
      .where('order_id', '=', order.id)
      .executeTakeFirst();
    const mail = storeNewOrderEmail({
      ...ctx,
      phone: details.phone ?? '',
      email: details.emailAddress ?? null,
      totalCents: order.total_cents,
      itemCount: Number(items?.n ?? 0),
      createdAt: order.created_at,
      ...(order.order_type === 'delivery'
        ? { address: formatAddress(order.shipping_address), mapUrl: mapLink(order.shipping_address) }
        : {}),
    });
    return [{ channel: 'email', recipient: to, template, subject: mail.subject, body: mail.text }];
  }

  const planned: PlannedMessage[] = [];
  const shopper = template as ShopperTemplate;
  // Issue 30: a withdrawal on record (an SMS STOP, for both purposes) stops the order's own messages too.
  const allowed = async (channel: 'sms' | 'email', contact: string) =>
    (await mayMessage(deps.db, { storeId: event.store_id, contact, channel, purpose: 'transactional', now: new Date(), timeZone: store.timezone })).send;
  const phone = details.phone ? toE164(details.phone) : null;
  const customer_id = order.customer_id;
  const sms: PlannedMessage | null =
    phone && messageEnabled(switches, shopper, 'sms') && (await allowed('sms', phone))
      ? { channel: 'sms', recipient: phone, template, subject: null, body: shopperSms(shopper, ctx), customer_id }
      : null;
  const email = details.emailAddress?.trim();
  let mail: PlannedMessage | null = null;
  if (email && messageEnabled(switches, shopper, 'email') && (await allowed('email', contactKey('email', email)))) {
    const m = shopperEmail(shopper, ctx);
    mail = { channel: 'email', recipient: email, template, subject: m.subject, body: m.text, customer_id };
  }
  // Issue 30: one message on the preferred channel, the other only as its fallback. The order's
  // phone (every order has one) makes SMS the preferred channel: the updates are time-critical.
  // The confirmation is the exception: its e-mail is the receipt (issue 14), kept as a record, so
  // both go (and neither falls back: the other channel has it already).
  // Without SMS delivery reports the fallback could never fire, so both go then too.
  if (template === 'order_confirmed' || deps.smsReceipts === false) return [sms, mail].filter((m): m is PlannedMessage => m !== null);
  if (sms && mail)
    planned.push({ ...sms, fallback_channel: 'email', fallback_recipient: mail.recipient, fallback_subject: mail.subject, fallback_body: mail.body });
  else if (sms ?? mail) planned.push((sms ?? mail)!);
  return planned;
}

/** Write the event's rows (idempotent); returns how many were new. */
export async function recordMessages(deps: PlanDeps, event: OutboxEvent): Promise<number> {
  const planned = await planMessages(deps, event);
  if (!planned.length) return 0;
  const at = (deps.now ?? (() => new Date()))().toISOString();
  return queueMessages(
    deps.db,
    planned.map((m) => ({ event_id: event.event_id, store_id: event.store_id, order_id: event.order_id, ...m })),
    at,
  );
}
