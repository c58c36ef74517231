/**
 * The alert planner (issue 30): turns watches marked `restocked_at` (./watches.ts markRestocked, in
 * the restock's transaction) into ONE `message_deliveries` row each, which the message sender
 * (../notifications/sender.ts) sends like any other message.
 *
 * Told once, on every node: each node runs this planner (polling each second, and at once when the
 * outbox is kicked). Two nodes may read the same watch; the row is written behind the messages'
 * unique key (event_id, channel, recipient, template) with event_id `stock_{watchId}_{restocked_at}`
 * and ON CONFLICT DO NOTHING, so a watch's round yields one row whoever writes it, and the guarded
 * `UPDATE … SET notified_at WHERE notified_at IS NULL` closes the round. A node dying between the
 * two leaves the watch open and the next pass writes nothing new (the row exists) and closes it.
 *
 * Consent and hours at planning time: only with a standing marketing grant on the watch's channel
 * (../notifications/consent.ts mayMessage; none → outcome `no_consent`, withdrawn → `withdrawn`, no
 * row); in quiet hours in the store's zone the row waits (`next_attempt_at` = the next 08:00). A
 * withdrawal after that holds the row back (consent.ts recordConsent). The text links the product
 * (the watched size) and carries the one-tap unsubscribe link (./link.ts).
 */
import type { Kysely } from 'kysely';
import { productPath, type Store } from '@verdant/domain';
import type { Database, Row, StockWatchOutcome } from '../db/schema.ts';
import { mayMessage } from '../notifications/consent.ts';
import type { OutboxSignal } from '../outbox/signal.ts';
import { pollLoop, type PollTurn } from '../jobs/poll-loop.ts';
import { storeSiteUrl } from '../users/password-reset.ts';
import { unsubscribeToken } from './link.ts';
import { queueMessages } from '../notifications/queue.ts';

export const BACK_IN_STOCK = 'back_in_stock';
const PARALLEL = 8;

export interface AlertPlannerOptions {
  db: Kysely<Database>;
  stores: readonly Store[];
  /** Signs the unsubscribe links (the accounts' secret). */
  secret: Uint8Array | string;
  signal?: Pick<OutboxSignal, 'onKick'>;
  now?: () => Date;
  pollMs?: number;
  batchSize?: number;
  /** New rows were written: wake the sender. */
  onQueued?: () => void;
  onError?: (err: unknown) => void;
}

export interface AlertPlanner {
  start(): void;
  /** Plan what is due now; resolves with how many watches this call closed. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

export interface BackInStockText {
  storeName: string;
  product: string;
  productUrl: string;
  unsubscribeUrl: string;
}

export function backInStockSms(t: BackInStockText): string {
  return `${t.storeName}: ${t.product} is back in stock. ${t.productUrl} You asked to be told once. Stop alerts: ${t.unsubscribeUrl} or reply STOP`;
}

export function backInStockEmail(t: BackInStockText): { subject: string; text: string } {
  return {
    subject: `${t.product} is back in stock at ${t.storeName}`,
    text: [
      `Good news: ${t.product} is back in stock at ${t.storeName}.`,
      '',
      `Order it here: ${t.productUrl}`,
      '',
      'You asked us to tell you once; this is the only message about it.',
      `Unsubscribe from ${t.storeName}'s marketing e-mails in one tap: ${t.unsubscribeUrl}`,
    ].join('\n'),
  };
}

export function createAlertPlanner(options: AlertPlannerOptions): AlertPlanner {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const pollMs = options.pollMs ?? 1000;
  const batchSize = options.batchSize ?? 200;
  const stores = new Map(options.stores.map((s) => [s.storeId, s]));

  async function close(w: Row<'stock_watches'>, outcome: StockWatchOutcome): Promise<boolean> {
    const r = await db
      .updateTable('stock_watches')
      .set({ notified_at: now().toISOString(), outcome })
      .where('id', '=', w.id)
      .where('notified_at', 'is', null)
      .where('restocked_at', '=', w.restocked_at!)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  type ProductRow = { name: string; sku: string; slug: string } | undefined;
  /** Products read once per pass (1,000 watchers of one product: one read). */
  let products = new Map<number, Promise<ProductRow>>();
  const productOf = (id: number): Promise<ProductRow> => {
    let p = products.get(id);
    if (!p) products.set(id, (p = db.selectFrom('products').select(['name', 'sku', 'slug']).where('id', '=', id).executeTakeFirst()));
    return p;
  };

  async function planOne(w: Row<'stock_watches'>): Promise<{ closed: boolean; queued: boolean }> {
    const store = stores.get(w.store_id);
    const product = await productOf(w.product_id);
    const variant = w.variant_id === null ? undefined : await productOf(w.variant_id);
    let recipient = w.contact;
    if (w.customer_id !== null) {
      const c = await db.selectFrom('customers').select(['phone', 'email']).where('id', '=', w.customer_id).executeTakeFirst();
      recipient = (w.channel === 'sms' ? c?.phone : c?.email) ?? null;
    }
    if (!store || !product || !recipient || (w.variant_id !== null && !variant)) return { closed: await close(w, 'gone'), queued: false };
    const t = now();
    const decision = await mayMessage(db, {
      storeId: w.store_id,
      customerId: w.customer_id,
      contact: recipient,
      channel: w.channel,
      purpose: 'marketing',
      now: t,
      timeZone: store.dispensarySettings.place_info.timezone,
    });
    if (!decision.send) return { closed: await close(w, decision.reason === 'withdrawn' ? 'withdrawn' : 'no_consent'), queued: false };
    const text: BackInStockText = {
      storeName: store.name,
      product: variant?.name ?? product.name,
      productUrl: storeSiteUrl(store, '', productPath(product, variant?.sku)),
      unsubscribeUrl: storeSiteUrl(store, '', `/unsubscribe/${unsubscribeToken(options.secret, w.store_id, w.id)}`),
    };
    const mail = w.channel === 'email' ? backInStockEmail(text) : null;
    const at = t.toISOString();
    const message = {
      event_id: `stock_${w.id}_${w.restocked_at}`,
      store_id: w.store_id,
      order_id: null,
      customer_id: w.customer_id,
      channel: w.channel,
      recipient,
      template: BACK_IN_STOCK,
      purpose: 'marketing' as const,
      subject: mail?.subject ?? null,
      body: mail?.text ?? backInStockSms(text),
      next_attempt_at: decision.at.toISOString(),
    };
    const queued = await queueMessages(db, [message], at);
    return { closed: await close(w, 'queued'), queued: queued > 0 };
  }

  async function pass(turn: PollTurn): Promise<number> {
    let count = 0;
    products = new Map();
    for (;;) {
      const rows = await db
        .selectFrom('stock_watches')
        .selectAll()
        .where('restocked_at', 'is not', null)
        .where('notified_at', 'is', null)
        .where('removed_at', 'is', null)
        .orderBy('id')
        .limit(batchSize)
        .execute();
      let queued = false;
      // A few watches at a time (each is a handful of small queries; 1,000 watchers of one product are common).
      for (let i = 0; i < rows.length; i += PARALLEL) {
        if (turn.stopped) return count;
        for (const r of await Promise.all(rows.slice(i, i + PARALLEL).map(planOne))) {
          if (r.closed) count++;
          queued ||= r.queued;
        }
      }
      if (queued) options.onQueued?.();
      if (!turn.more(rows.length >= batchSize)) return count;
    }
  }

  // Polls each pollMs and runs at once when the outbox is kicked (../jobs/poll-loop.ts).
  return pollLoop({ pass, pollMs, onError: options.onError, wakeOn: options.signal });
}
