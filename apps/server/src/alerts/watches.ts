/**
 * Back-in-stock alerts (issue 30): "tell me when it's back" on a sold-out product or size.
 *
 *  - watch(): a logged-in customer (the account's phone for SMS, else its e-mail) or a guest giving
 *    a phone or an e-mail, always with the consent box ticked: the exact words shown go into the
 *    consent ledger (../notifications/consent.ts) as a marketing grant, in the watch's transaction.
 *    Only a sold-out target may be watched (409 `in_stock` otherwise). Watching again is idempotent;
 *    after a message it starts a new round.
 *  - markRestocked(): THE hook. Every stock change from any source (console quick edit and bulk
 *    actions, menu import, integration API) is written to the menu history in the change's
 *    transaction (menu-admin/audit.ts recordMenuChanges), which calls this: a variant whose stock
 *    went from 0 (or none) to more sets `restocked_at` on the watches of that size, of its product
 *    and of a simple product, by a guarded `UPDATE … WHERE restocked_at IS NULL`. So a restock that
 *    rolls back tells no one, and a burst of restocks marks each watch once. Stock a cancelled order
 *    or a failed delivery puts back (../orders/lifecycle/release.ts) calls it too, in the cancel's
 *    transaction.
 *  - The alert planner (./planner.ts) turns marked watches into messages after the commit.
 */
import type { Kysely, Transaction } from 'kysely';
import { stockAlertConsentWords, type MessageChannel } from '@verdant/domain';
import type { Database, Row } from '../db/schema.ts';
import { recordConsent } from '../notifications/consent.ts';

type Db = Kysely<Database> | Transaction<Database>;

export const STOCK_ALERT_FORM = 'stock_alert_form';

export const STOCK_ALERT_MESSAGES = {
  inStock: 'This item is in stock: you can order it now.',
  unknown: 'This product is not on the menu.',
  consent: 'Please tick the box to agree to the message.',
  contact: 'Please give a phone number or an e-mail address.',
  noContact: 'Your account has no phone or e-mail address to tell you on.',
  watching: 'We will tell you once when it is back.',
} as const;

export class WatchRefused extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: 'in_stock' | 'unknown_product' | 'consent_required' | 'contact_required',
    message: string,
  ) {
    super(message);
  }
}

export interface WatchInput {
  storeId: number;
  storeName: string;
  productId: number;
  variantId?: number | null;
  /** A logged-in customer; or a guest's contact below. */
  customerId?: number | null;
  guest?: { channel: MessageChannel; contact: string } | null;
  /** The consent box was ticked next to the words for the channel. */
  consent: boolean;
  at: Date;
}

export interface WatchResult {
  id: number;
  channel: MessageChannel;
  productId: number;
  variantId: number | null;
}

interface Target {
  productId: number;
  variantId: number | null;
  /** The store's product (the page's): a configurable parent or a simple product. */
  name: string;
}

/** The target, when it exists in the store and is sold out now (a product: every size). */
async function soldOutTarget(db: Db, storeId: number, productId: number, variantId: number | null): Promise<Target> {
  const product = await db
    .selectFrom('products')
    .select(['id', 'name', 'parent_id', 'store_id'])
    .where('id', '=', productId)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  if (!product || product.parent_id !== null) throw new WatchRefused(404, 'unknown_product', STOCK_ALERT_MESSAGES.unknown);
  let ids: number[];
  if (variantId !== null) {
    const v = await db.selectFrom('products').select('id').where('id', '=', variantId).where('parent_id', '=', productId).executeTakeFirst();
    if (!v) throw new WatchRefused(404, 'unknown_product', STOCK_ALERT_MESSAGES.unknown);
    ids = [variantId];
  } else {
    const children = await db.selectFrom('products').select('id').where('parent_id', '=', productId).execute();
    ids = children.length ? children.map((c) => c.id) : [productId];
  }
  const inStock = await db
    .selectFrom('stock')
    .select('product_id')
    .where('product_id', 'in', ids)
    .where('is_in_stock', '=', 1)
    .where((eb) => eb.or([eb('manage_stock', '=', 0), eb('qty', '>', 0)]))
    .executeTakeFirst();
  if (inStock) throw new WatchRefused(409, 'in_stock', STOCK_ALERT_MESSAGES.inStock);
  return { productId, variantId, name: product.name };
}

/** Ask to be told (see the header). Runs in one transaction: the consent row and the watch together. */
export async function watch(db: Kysely<Database>, input: WatchInput): Promise<WatchResult> {
  if (!input.consent) throw new WatchRefused(400, 'consent_required', STOCK_ALERT_MESSAGES.consent);
  return db.transaction().execute(async (trx) => {
    const variantId = input.variantId ?? null;
    await soldOutTarget(trx, input.storeId, input.productId, variantId);
    let channel: MessageChannel;
    let contact: string;
    let subscriberKey: string;
    const customerId = input.customerId ?? null;
    if (customerId !== null) {
      const c = await trx.selectFrom('customers').select(['phone', 'email']).where('id', '=', customerId).where('store_id', '=', input.storeId).executeTakeFirst();
      if (!c || (!c.phone && !c.email)) throw new WatchRefused(400, 'contact_required', STOCK_ALERT_MESSAGES.noContact);
      channel = c.phone ? 'sms' : 'email';
      contact = (c.phone || c.email)!;
      subscriberKey = `c${customerId}`;
    } else {
      if (!input.guest) throw new WatchRefused(400, 'contact_required', STOCK_ALERT_MESSAGES.contact);
      channel = input.guest.channel;
      contact = input.guest.contact;
      subscriberKey = `${channel}:${contact}`;
    }
    const at = input.at.toISOString();
    await recordConsent(trx, {
      storeId: input.storeId,
      customerId,
      contact,
      channel,
      purposes: ['marketing'],
      action: 'granted',
      source: customerId !== null ? `${STOCK_ALERT_FORM}:account` : STOCK_ALERT_FORM,
      words: stockAlertConsentWords(input.storeName),
      at: input.at,
    });
    const targetKey = variantId !== null ? `v${variantId}` : `p${input.productId}`;
    const row = await trx
      .insertInto('stock_watches')
      .values({
        store_id: input.storeId,
        product_id: input.productId,
        variant_id: variantId,
        target_key: targetKey,
        customer_id: customerId,
        contact: customerId !== null ? null : contact,
        channel,
        subscriber_key: subscriberKey,
        created_at: at,
      })
      .onConflict((oc) =>
        oc.columns(['store_id', 'target_key', 'subscriber_key']).doUpdateSet({
          channel,
          contact: customerId !== null ? null : contact,
          created_at: at,
          removed_at: null,
          restocked_at: null,
          notified_at: null,
          outcome: null,
        }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, channel, productId: input.productId, variantId };
  });
}

/** A shopper's watches still waiting (the account's list). */
export async function customerWatches(db: Db, storeId: number, customerId: number) {
  return db
    .selectFrom('stock_watches as w')
    .innerJoin('products as p', 'p.id', 'w.product_id')
    .leftJoin('products as v', 'v.id', 'w.variant_id')
    .select(['w.id', 'w.product_id', 'w.variant_id', 'w.channel', 'w.created_at', 'p.name', 'p.sku', 'p.slug', 'v.name as variant_name', 'v.sku as variant_sku'])
    .where('w.store_id', '=', storeId)
    .where('w.customer_id', '=', customerId)
    .where('w.removed_at', 'is', null)
    .where('w.notified_at', 'is', null)
    .orderBy('w.id', 'desc')
    .execute();
}

/** Stop one watch (the account's remove button, the unsubscribe link); true when it was waiting. */
export async function removeWatch(db: Db, storeId: number, watchId: number, at: Date, customerId?: number): Promise<boolean> {
  let q = db.updateTable('stock_watches').set({ removed_at: at.toISOString() }).where('id', '=', watchId).where('store_id', '=', storeId).where('removed_at', 'is', null);
  if (customerId !== undefined) q = q.where('customer_id', '=', customerId);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function watchById(db: Db, storeId: number, watchId: number): Promise<Row<'stock_watches'> | undefined> {
  return db.selectFrom('stock_watches').selectAll().where('id', '=', watchId).where('store_id', '=', storeId).executeTakeFirst();
}

/** A menu change as the history records it (field `stock`: packages before and after). */
export interface StockChange {
  productId: number | null;
  field: string;
  before: string | null;
  after: string | null;
}

const CHUNK = 400;

/**
 * Mark the watches of what came back in stock (called in the change's transaction); returns how
 * many watches were marked now.
 */
export async function markRestocked(trx: Db, storeId: number, changes: readonly StockChange[], at: Date): Promise<number> {
  const back = [
    ...new Set(
      changes
        .filter((c) => c.field === 'stock' && c.productId !== null && !(Number(c.before) > 0) && Number(c.after) > 0)
        .map((c) => c.productId!),
    ),
  ];
  if (!back.length) return 0;
  const keys = new Set<string>();
  for (let i = 0; i < back.length; i += CHUNK) {
    const rows = await trx.selectFrom('products').select(['id', 'parent_id']).where('id', 'in', back.slice(i, i + CHUNK)).execute();
    for (const r of rows) {
      keys.add(`v${r.id}`);
      keys.add(`p${r.parent_id ?? r.id}`);
    }
  }
  // Any watches at all in this store? (the common case: none; one indexed look-up).
  const any = await trx.selectFrom('stock_watches').select('id').where('store_id', '=', storeId).where('restocked_at', 'is', null).limit(1).executeTakeFirst();
  if (!any) return 0;
  const list = [...keys].sort();
  let marked = 0;
  for (let i = 0; i < list.length; i += CHUNK) {
    const r = await trx
      .updateTable('stock_watches')
      .set({ restocked_at: at.toISOString() })
      .where('store_id', '=', storeId)
      .where('target_key', 'in', list.slice(i, i + CHUNK))
      .where('restocked_at', 'is', null)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    marked += Number(r.numUpdatedRows);
  }
  return marked;
}
