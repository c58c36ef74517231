/**
 * Staff's review of a customer's ID or medical card. One transaction: the customer's document
 * status (+ reason, reviewer, time; a medical card's expiry may be corrected from the card), and for
 * every open order of that customer in the store a 'verification' history row, a version bump and
 * one `order.updated` outbox event (console push only; webhooks do not carry it). A verified
 * document lifts the hold of orders that waited for it (auto-confirm stores: the sweeper confirms).
 */
import { FINAL_STATUSES, type DocumentStatus } from '@verdant/domain';
import { inWriteTransaction } from '../../db/group-commit.ts';
import { ApiError } from '../../http/envelope.ts';
import { appendOutboxEvent } from '../../outbox/append.ts';
import { orderPayload, type OrderActor } from './transitions.ts';
import { storeFacts, type Db } from './store-facts.ts';

export interface VerificationRequest {
  storeId: number;
  customerId: number;
  document: 'id' | 'medcard';
  decision: 'verified' | 'rejected';
  reason?: string | null;
  /** YYYY-MM-DD, medical card only. */
  medcardExpiry?: string | null;
  actor: OrderActor;
  now: Date;
}

export const VERIFICATION_MESSAGES = {
  customerNotFound: 'Customer not found.',
  reasonRequired: 'Say why the document is rejected: the customer is told.',
  expiryOnlyForMedcard: 'Only a medical card has an expiry date to correct.',
} as const;

export interface VerificationResult {
  customer: {
    id: number;
    id_status: DocumentStatus;
    medcard_status: DocumentStatus;
    medcard_expiry: string | null;
    id_review_reason: string | null;
    medcard_review_reason: string | null;
  };
  /** Ids of the open orders that were told. */
  orderIds: number[];
}

export async function reviewDocument(db: Db, req: VerificationRequest): Promise<VerificationResult> {
  const store = await storeFacts(db, req.storeId);
  const customer = await db
    .selectFrom('customers')
    .select(['id'])
    .where('id', '=', req.customerId)
    .where('store_id', '=', req.storeId)
    .executeTakeFirst();
  if (!store || !customer) throw new ApiError(404, VERIFICATION_MESSAGES.customerNotFound, { errorCode: 'customer_not_found' });
  const reason = req.reason?.trim() || null;
  if (req.decision === 'rejected' && !reason)
    throw new ApiError(400, VERIFICATION_MESSAGES.reasonRequired, { errorCode: 'invalid_request' });
  if (req.medcardExpiry && req.document !== 'medcard')
    throw new ApiError(400, VERIFICATION_MESSAGES.expiryOnlyForMedcard, { errorCode: 'invalid_request' });
  const iso = req.now.toISOString();
  const doc = req.document;

  const result = await inWriteTransaction(db, async (trx) => {
    await trx
      .updateTable('customers')
      .set({
        ...(doc === 'id'
          ? { id_status: req.decision, id_review_reason: reason, id_reviewed_by: req.actor.id, id_reviewed_at: iso }
          : { medcard_status: req.decision, medcard_review_reason: reason, medcard_reviewed_by: req.actor.id, medcard_reviewed_at: iso }),
        ...(req.medcardExpiry ? { medcard_expiry: req.medcardExpiry } : {}),
        ...(doc === 'id' ? { id_verified: req.decision === 'verified' ? 1 : 0 } : {}),
        updated_at: iso,
      })
      .where('id', '=', req.customerId)
      .execute();
    const open = await trx
      .selectFrom('orders')
      .select('id')
      .where('customer_id', '=', req.customerId)
      .where('store_id', '=', req.storeId)
      .where('status', 'not in', [...FINAL_STATUSES])
      .orderBy('id')
      .execute();
    for (const { id } of open) {
      await trx
        .updateTable('orders')
        .set((eb) => ({ version: eb('version', '+', 1), updated_at: iso }))
        .where('id', '=', id)
        .execute();
      const order = await trx.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      await trx
        .insertInto('order_events')
        .values({
          order_id: id,
          store_id: req.storeId,
          at: iso,
          actor_type: req.actor.type,
          actor_id: req.actor.id,
          actor_name: req.actor.name,
          kind: 'verification',
          from_status: null,
          to_status: null,
          data: JSON.stringify({
            document: doc,
            decision: req.decision,
            reason,
            ...(req.medcardExpiry ? { medcardExpiry: req.medcardExpiry } : {}),
          }),
        })
        .execute();
      await appendOutboxEvent(trx, {
        storeId: req.storeId,
        type: 'order.updated',
        orderId: id,
        payload: orderPayload(order, store, order.status),
        at: iso,
      });
    }
    const after = await trx
      .selectFrom('customers')
      .select(['id', 'id_status', 'medcard_status', 'medcard_expiry', 'id_review_reason', 'medcard_review_reason'])
      .where('id', '=', req.customerId)
      .executeTakeFirstOrThrow();
    return { customer: after, orderIds: open.map((o) => o.id) };
  });
  return result;
}
