/**
 * Staff's review of a customer's ID or medical card. One transaction: the customer's document
 * status (+ reason, reviewer, time; a medical card's expiry may be corrected from the card), and for
 * every open order of that customer in the store a 'verification' history row, a version bump and
 * one `order.updated` outbox event (console push only; webhooks do not carry it). A verified
 * document lifts the hold of orders that waited for it: each open order's checks are re-run on the
 * documents as they now are, a lifted hold is recorded (`released`) in the history row, and an
 * auto-confirm store confirms the released order in the same transaction. Verifying a medical card
 * needs its number and expiry (stored, or read from the card by staff): without them no hold could
 * ever lift (issue 26).
 */
import { FINAL_STATUSES, type DocumentStatus } from '@verdant/domain';
import type { VerificationResult } from '@verdant/domain/console-api';
import { inWriteTransaction } from '../../db/group-commit.ts';
import { ApiError } from '../../http/envelope.ts';
import { appendOutboxEvent } from '../../outbox/append.ts';
import { orderPayload, type OrderActor } from './transitions.ts';
import { holdOf, orderSettings, storeFacts, type Db } from './store-facts.ts';
import { autoConfirmInTransaction } from './placed.ts';
import { locksRows } from '../../cart/repository.ts';

export interface VerificationRequest {
  storeId: number;
  customerId: number;
  document: 'id' | 'medcard';
  decision: 'verified' | 'rejected';
  reason?: string | null;
  /** YYYY-MM-DD, medical card only. */
  medcardExpiry?: string | null;
  /** Medical card only: the number read from the card, when the account has none (or it is wrong). */
  medcardNumber?: string | null;
  actor: OrderActor;
  now: Date;
}

export const VERIFICATION_MESSAGES = {
  customerNotFound: 'Customer not found.',
  reasonRequired: 'Say why the document is rejected: the customer is told.',
  expiryOnlyForMedcard: 'Only a medical card has an expiry date to correct.',
  medcardDetailsRequired: 'Enter the card number and expiry date printed on the medical card to verify it.',
} as const;

export type { VerificationResult } from '@verdant/domain/console-api';

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
  if ((req.medcardExpiry || req.medcardNumber) && req.document !== 'medcard')
    throw new ApiError(400, VERIFICATION_MESSAGES.expiryOnlyForMedcard, { errorCode: 'invalid_request' });
  const medcardNumber = req.medcardNumber?.trim() || null;
  // A verified card without its number or expiry lifts nothing (holdOf, medicalCardProblem need
  // both): refuse it rather than record a verification that leaves the patient held (issue 26).
  if (req.document === 'medcard' && req.decision === 'verified') {
    const card = await db.selectFrom('customers').select(['medcard_number', 'medcard_expiry']).where('id', '=', req.customerId).executeTakeFirstOrThrow();
    const number = medcardNumber ?? card.medcard_number;
    if (!number || number.trim().length < 2 || !(req.medcardExpiry || card.medcard_expiry))
      throw new ApiError(400, VERIFICATION_MESSAGES.medcardDetailsRequired, { errorCode: 'invalid_request' });
  }
  const iso = req.now.toISOString();
  const doc = req.document;

  const result = await inWriteTransaction(db, async (trx) => {
    const docsNow = () =>
      trx.selectFrom('customers').select(['id_status', 'medcard_status', 'medcard_expiry']).where('id', '=', req.customerId).executeTakeFirstOrThrow();
    // One review of a customer at a time (PostgreSQL row lock; SQLite writes are serialised): two
    // decisions at once (ID and card) each see the other's, so the one that lifts the hold knows it.
    if (locksRows(trx)) await trx.selectFrom('customers').select('id').where('id', '=', req.customerId).forUpdate().execute();
    const before = await docsNow();
    await trx
      .updateTable('customers')
      .set({
        ...(doc === 'id'
          ? { id_status: req.decision, id_review_reason: reason, id_reviewed_by: req.actor.id, id_reviewed_at: iso }
          : { medcard_status: req.decision, medcard_review_reason: reason, medcard_reviewed_by: req.actor.id, medcard_reviewed_at: iso }),
        ...(req.medcardExpiry ? { medcard_expiry: req.medcardExpiry } : {}),
        ...(medcardNumber ? { medcard_number: medcardNumber } : {}),
        ...(doc === 'id' ? { id_verified: req.decision === 'verified' ? 1 : 0 } : {}),
        updated_at: iso,
      })
      .where('id', '=', req.customerId)
      .execute();
    // Issue 31: the retention period of the document's image runs from the decision on it.
    await trx
      .updateTable('uploads')
      .set({ reviewed_at: iso })
      .where('customer_id', '=', req.customerId)
      .where('store_id', '=', req.storeId)
      .where('kind', '=', doc)
      .where('purged_at', 'is', null)
      .execute();
    const after = await docsNow();
    const settings = await orderSettings(trx, req.storeId);
    const released: number[] = [];
    const open = await trx
      .selectFrom('orders')
      .select(['id', 'verification_needs', 'created_at', 'customer_id'])
      .where('customer_id', '=', req.customerId)
      .where('store_id', '=', req.storeId)
      .where('status', 'not in', [...FINAL_STATUSES])
      .orderBy('id')
      .execute();
    for (const o of open) {
      const id = o.id;
      // Re-run the order's checks on the documents as they are now: a hold this decision lifted
      // is recorded as released (and an auto-confirm store confirms it in this same transaction).
      const wasHeld = holdOf(o, before, store.timezone).length > 0;
      const stillHeld = holdOf(o, after, store.timezone);
      const release = wasHeld && stillHeld.length === 0;
      if (release) released.push(id);
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
            ...(medcardNumber ? { medcardNumber } : {}),
            hold: stillHeld,
            ...(release ? { released: true } : {}),
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
      if (release && settings.auto_confirm && order.status === 'submitted')
        await autoConfirmInTransaction(trx, id, store, settings.auto_confirm_minutes, req.now);
    }
    const customer = await trx
      .selectFrom('customers')
      .select(['id', 'id_status', 'medcard_status', 'medcard_number', 'medcard_expiry', 'id_review_reason', 'medcard_review_reason'])
      .where('id', '=', req.customerId)
      .executeTakeFirstOrThrow();
    return { customer, orderIds: open.map((o) => o.id), releasedOrderIds: released };
  });
  return result;
}
