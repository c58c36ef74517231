/**
 * What the shopper's alert routes and pages do (issue 30), shared by the HTTP API (./routes.ts) and
 * the storefront's no-JavaScript forms (the SSR context, ../ssr/stock-alerts.ts):
 *  - ask(): validate a watch request (a guest's phone → E.164, e-mail → lower case) and watch;
 *  - unsubscribeView() / unsubscribe(): the signed link's page and its one button. Unsubscribing
 *    withdraws marketing on the watch's channel for its contact (ledger row, source
 *    `unsubscribe_link`, pending marketing messages held back) and stops the watch. Idempotent.
 */
import type { Kysely } from 'kysely';
import { formatDate, productPath, type MessageChannel, type Store, type StockAlertAnswer, type StockAlertRequest, type StockAlertUnsubscribeView, type StockWatchView } from '@verdant/domain';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { recordConsent } from '../notifications/consent.ts';
import { emailSchema } from '../users/customers.ts';
import { toE164 } from '../users/phone.ts';
import { readUnsubscribeToken } from './link.ts';
import { customerWatches, removeWatch, STOCK_ALERT_MESSAGES, watch, watchById, WatchRefused } from './watches.ts';

export const UNSUBSCRIBE_MESSAGES = {
  invalid: 'This unsubscribe link is not valid.',
  done: 'You are unsubscribed. You will get no more marketing messages from this store on this channel.',
} as const;

export interface AlertDeps {
  db: Kysely<Database>;
  secret: Uint8Array | string;
  now: () => Date;
  /**
   * Counts a guest's request against its client address (the accounts' rate limiter): false when over
   * GUEST_WATCHES_PER_IP_PER_HOUR. Unset: no limit (tests of the rules themselves).
   */
  limitGuest?: (ip: string) => Promise<boolean>;
}

/** A guest's watches per client address per hour: each may send one message to the contact typed. */
export const GUEST_WATCHES_PER_IP_PER_HOUR = 10;

export type AskAnswer = StockAlertAnswer;

function refusal(e: unknown): never {
  if (e instanceof WatchRefused) throw new ApiError(e.status, e.message, { errorCode: e.errorCode });
  throw e;
}

export async function ask(deps: AlertDeps, store: Store, customerId: number | null, input: StockAlertRequest, clientIp?: string): Promise<AskAnswer> {
  let guest: { channel: MessageChannel; contact: string } | null = null;
  if (customerId === null) {
    // Anyone may type anyone's number: a guest's watches are limited per address (like newsletter sign-ups).
    if (deps.limitGuest && clientIp !== undefined && !(await deps.limitGuest(clientIp)))
      throw new ApiError(429, 'Too many alert requests. Please try again later.', { errorCode: 'too_many', retryAfterSeconds: 3600 });
    const raw = input.contact?.trim() ?? '';
    const channel: MessageChannel = input.channel ?? (raw.includes('@') ? 'email' : 'sms');
    if (!raw) throw new ApiError(400, STOCK_ALERT_MESSAGES.contact, { errorCode: 'contact_required' });
    if (channel === 'sms') {
      const phone = toE164(raw);
      if (!phone) throw new ApiError(400, 'Please enter a valid US phone number.', { errorCode: 'contact_required' });
      guest = { channel, contact: phone };
    } else {
      const email = emailSchema.safeParse(raw);
      if (!email.success) throw new ApiError(400, 'Please enter a valid e-mail address.', { errorCode: 'contact_required' });
      guest = { channel, contact: email.data };
    }
  }
  const consent = input.consent === true || input.consent === 'on' || input.consent === 'true';
  const done = await watch(deps.db, {
    storeId: store.storeId,
    storeName: store.name,
    productId: input.productId,
    variantId: input.variantId ?? null,
    customerId,
    guest,
    consent,
    at: deps.now(),
  }).catch(refusal);
  return { watching: true, channel: done.channel, message: STOCK_ALERT_MESSAGES.watching };
}

export async function listWatches(deps: AlertDeps, store: Store, customerId: number): Promise<StockWatchView[]> {
  const rows = await customerWatches(deps.db, store.storeId, customerId);
  return rows.map((r) => ({
    id: r.id,
    productId: r.product_id,
    variantId: r.variant_id,
    name: r.variant_name ?? r.name,
    path: productPath({ sku: r.sku, slug: r.slug }, r.variant_sku),
    channel: r.channel,
    createdAt: r.created_at,
  }));
}

export async function stopWatch(deps: AlertDeps, store: Store, customerId: number, watchId: number): Promise<{ removed: boolean }> {
  return { removed: await removeWatch(deps.db, store.storeId, watchId, deps.now(), customerId) };
}

export type UnsubscribeView = StockAlertUnsubscribeView;

async function watchOfToken(deps: AlertDeps, store: Store, token: string) {
  const id = readUnsubscribeToken(deps.secret, store.storeId, token);
  const w = id === null ? undefined : await watchById(deps.db, store.storeId, id);
  if (!w) throw new ApiError(404, UNSUBSCRIBE_MESSAGES.invalid, { errorCode: 'invalid_link' });
  const product = await deps.db.selectFrom('products').select('name').where('id', '=', w.variant_id ?? w.product_id).executeTakeFirst();
  let contact = w.contact;
  if (w.customer_id !== null) {
    const c = await deps.db.selectFrom('customers').select(['phone', 'email']).where('id', '=', w.customer_id).executeTakeFirst();
    contact = (w.channel === 'sms' ? c?.phone : c?.email) ?? null;
  }
  return { w, product: product?.name ?? '', contact };
}

async function withdrawn(deps: AlertDeps, storeId: number, channel: MessageChannel, customerId: number | null, contact: string | null): Promise<boolean> {
  const row = await deps.db
    .selectFrom('consent_events')
    .select('action')
    .where('store_id', '=', storeId)
    .where('channel', '=', channel)
    .where('purpose', '=', 'marketing')
    .where((eb) => eb.or([...(customerId !== null ? [eb('customer_id', '=', customerId)] : []), eb('contact', '=', contact ?? '')]))
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.action === 'withdrawn';
}

export async function unsubscribeView(deps: AlertDeps, store: Store, token: string): Promise<UnsubscribeView> {
  const { w, product, contact } = await watchOfToken(deps, store, token);
  const tz = store.dispensarySettings.place_info.timezone;
  return {
    product,
    channel: w.channel,
    since: formatDate(w.created_at, tz),
    unsubscribed: await withdrawn(deps, store.storeId, w.channel, w.customer_id, contact),
  };
}

export async function unsubscribe(deps: AlertDeps, store: Store, token: string): Promise<UnsubscribeView> {
  const { w, product, contact } = await watchOfToken(deps, store, token);
  const at = deps.now();
  await deps.db.transaction().execute(async (trx) => {
    await recordConsent(trx, {
      storeId: store.storeId,
      customerId: w.customer_id,
      contact,
      channel: w.channel,
      purposes: ['marketing'],
      action: 'withdrawn',
      source: 'unsubscribe_link',
      words: UNSUBSCRIBE_MESSAGES.done,
      at,
    });
    await removeWatch(trx, store.storeId, w.id, at);
  });
  return { product, channel: w.channel, since: formatDate(w.created_at, store.dispensarySettings.place_info.timezone), unsubscribed: true };
}
