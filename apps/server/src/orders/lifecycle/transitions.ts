/**
 * Moving an order along its lifecycle (@verdant/domain order-lifecycle). The check runs on the
 * order as read; the write is ONE transaction whose first statement is the guarded update
 *   UPDATE orders SET status = :to, version = version + 1, … WHERE id = :id AND status = :from
 * so of two staff pressing at once exactly one wins (PostgreSQL re-evaluates the condition on the
 * committed row; SQLite runs one writer at a time) and the other hears 409 with what the order's
 * new status allows. In the same transaction: the history row, the outbox event and, for cancel
 * and no-show, the release of the goods (./release.ts); for complete, the loyalty points earned. Nothing of a move is ever half written.
 */
import {
  CANCEL_REASON_MESSAGES,
  LIFECYCLE_MESSAGES,
  actionsFrom,
  checkMove,
  type MoveInput,
  type OrderAction,
  type OrderStatus,
  RELEASING_STATUSES,
  hoursStatus,
  openAt,
  READY_BY_MESSAGES,
  type HoursSettings,
} from '@verdant/domain';
import { inWriteTransaction } from '../../db/group-commit.ts';
import type { Row } from '../../db/schema.ts';
import { ApiError } from '../../http/envelope.ts';
import { appendOutboxEvent, type OrderEventPayload } from '../../outbox/append.ts';
import { releaseGoods } from './release.ts';
import { earnForOrder } from '../../loyalty/orders.ts';
import { holdOf, orderSettings, storeFacts, type Db, type StoreFacts } from './store-facts.ts';

export interface OrderActor {
  type: 'staff' | 'system' | 'customer' | 'api_key';
  id: number | null;
  name: string | null;
}

export const SYSTEM_ACTOR: OrderActor = { type: 'system', id: null, name: 'Verdant' };

export interface TransitionRequest {
  storeId: number;
  orderId: number;
  action: OrderAction;
  input: MoveInput;
  actor: OrderActor;
  now: Date;
  /**
   * The store's hours (issue 26): given, a confirm whose ready-by falls while the store is closed for
   * the order's type is refused (400 `store_closed`) unless `confirmClosed` says staff insist.
   */
  hours?: HoursSettings | null;
  confirmClosed?: boolean;
  /** The refusal's wording (default the console's, which names its checkbox). */
  closedMessage?: (label: string) => string;
  /** More for the history row's data (issue 29: the door's ID check, the trip). */
  eventData?: Record<string, unknown>;
}

export interface TransitionResult {
  order: Row<'orders'>;
  from: OrderStatus;
  to: OrderStatus;
  /** Products whose stock went back (tell the catalogue after the commit). */
  restocked: number[];
  eventId: string;
}

export const TRANSITION_MESSAGES = {
  orderNotFound: 'Order not found.',
} as const;

/** Test seam: runs inside the transaction right after the goods were released (prove atomicity). */
export interface TransitionHooks {
  afterRelease?: () => Promise<void> | void;
}

/** The order of a store, or 404. */
export async function orderOfStore(db: Db, storeId: number, orderId: number): Promise<Row<'orders'>> {
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).where('store_id', '=', storeId).executeTakeFirst();
  if (!order) throw new ApiError(404, TRANSITION_MESSAGES.orderNotFound, { errorCode: 'order_not_found' });
  return order;
}

async function docsOf(db: Db, customerId: number | null) {
  if (customerId == null) return null;
  return (
    (await db
      .selectFrom('customers')
      .select(['id_status', 'medcard_status', 'medcard_expiry'])
      .where('id', '=', customerId)
      .executeTakeFirst()) ?? null
  );
}

function notAllowed(order: Row<'orders'>, message: string): ApiError {
  return new ApiError(409, message, {
    errorCode: 'transition_not_allowed',
    meta: { status: order.status, allowed: actionsFrom(order), version: order.version },
  });
}

export function orderPayload(order: Row<'orders'>, store: StoreFacts, previous: OrderStatus | null): OrderEventPayload {
  return {
    order_id: order.id,
    increment_id: order.increment_id,
    store_code: store.code,
    status: order.status,
    previous_status: previous,
    order_type: order.order_type,
    version: order.version,
    ready_by: order.ready_by,
    cancel_reason: order.cancel_reason,
  };
}

/**
 * Check and apply one move. Throws ApiError: 404 (no such order in the store), 409
 * `transition_not_allowed` (the status does not allow it, also when another move won the race;
 * meta.status / meta.allowed are the order's state now), 400 `transition_invalid` (a guard: ready-by,
 * hold, reason, ID/card checks, pickup window). The caller kicks the outbox and tells the catalogue.
 */
export async function applyTransition(db: Db, req: TransitionRequest, hooks: TransitionHooks = {}): Promise<TransitionResult> {
  const store = await storeFacts(db, req.storeId);
  if (!store) throw new ApiError(404, TRANSITION_MESSAGES.orderNotFound, { errorCode: 'order_not_found' });
  const order = await orderOfStore(db, req.storeId, req.orderId);
  const settings = await orderSettings(db, req.storeId);
  const hold = holdOf(order, await docsOf(db, order.customer_id), store.timezone);
  const iso = req.now.toISOString();
  const check = checkMove({ ...order, hold }, req.action, req.input, { now: iso, pickupWindowHours: settings.pickup_window_hours });
  if (!check.ok) {
    if (check.code === 'not_allowed') throw notAllowed(order, check.message);
    throw new ApiError(400, check.message, { errorCode: 'transition_invalid', meta: { action: req.action } });
  }
  const closedAnyway = req.action === 'confirm' && !!req.hours && !openAt(req.hours, order.order_type, store.timezone, new Date(req.input.readyBy!));
  if (closedAnyway && req.confirmClosed !== true) {
    const status = hoursStatus(req.hours!, order.order_type, store.timezone, new Date(req.input.readyBy!));
    throw new ApiError(400, (req.closedMessage ?? READY_BY_MESSAGES.storeClosed)(status.label), {
      errorCode: 'store_closed',
      meta: { action: req.action, opensAt: status.opensAt },
    });
  }
  const to = check.to;
  const from = order.status;
  const input = req.input;
  const cancelling = req.action === 'cancel';
  const message = cancelling ? input.message?.trim() || CANCEL_REASON_MESSAGES[input.reason!] : null;

  let restocked: number[] = [];
  const outcome = await inWriteTransaction(db, async (trx) => {
    const moved = await trx
      .updateTable('orders')
      .set((eb) => ({
        status: to,
        version: eb('version', '+', 1),
        status_changed_at: iso,
        updated_at: iso,
        ...(req.action === 'confirm' ? { ready_by: new Date(input.readyBy!).toISOString() } : {}),
        ...(cancelling ? { cancel_reason: input.reason!, cancel_message: message } : {}),
        ...(req.action === 'mark_no_show' ? { cancel_reason: 'no_show' } : {}),
      }))
      .where('id', '=', order.id)
      .where('status', '=', from)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return null;
    const after = await trx.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
    if (RELEASING_STATUSES.includes(to)) {
      restocked = await releaseGoods(trx, after, iso);
      await hooks.afterRelease?.();
    }
    // Loyalty points are earned when the order is completed (issue 30, ../../loyalty/orders.ts).
    if (to === 'completed') await earnForOrder(trx, after, req.now);
    const data = Object.fromEntries(
      Object.entries({
        readyBy: req.action === 'confirm' ? after.ready_by : undefined,
        // Staff confirmed a ready-by while the store is closed, knowingly (issue 26).
        storeClosed: closedAnyway ? true : undefined,
        reason: cancelling ? input.reason : req.action === 'mark_no_show' ? 'no_show' : undefined,
        message: cancelling ? message : undefined,
        idChecked: req.action === 'complete' ? input.idChecked === true : undefined,
        medcardChecked: req.action === 'complete' && after.license_type === 'medical' ? input.medcardChecked === true : undefined,
      }).filter(([, v]) => v !== undefined),
    );
    await trx
      .insertInto('order_events')
      .values({
        order_id: order.id,
        store_id: order.store_id,
        at: iso,
        actor_type: req.actor.type,
        actor_id: req.actor.id,
        actor_name: req.actor.name,
        kind: 'status',
        from_status: from,
        to_status: to,
        data: JSON.stringify({ action: req.action, ...data, ...req.eventData }),
      })
      .execute();
    const eventId = await appendOutboxEvent(trx, {
      storeId: order.store_id,
      type: 'order.status_changed',
      orderId: order.id,
      payload: orderPayload(after, store, from),
      at: iso,
    });
    return { order: after, eventId };
  });
  if (!outcome) {
    // Another move won: answer with the order as it is now.
    const now = await orderOfStore(db, req.storeId, req.orderId);
    throw notAllowed(now, LIFECYCLE_MESSAGES.notAllowed(now.status));
  }
  return { order: outcome.order, from, to, restocked, eventId: outcome.eventId };
}
