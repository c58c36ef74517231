/**
 * Test support (not a test file): move an order's status the way the lifecycle code does — the
 * order row and its `order.status_changed` outbox event in ONE transaction — without going through
 * the console routes, so the outbox consumers can be tested on their own.
 */
import type { Kysely } from 'kysely';
import type { OrderStatus } from '@verdant/domain';
import type { Database } from '../../src/db/schema.ts';
import { appendOutboxEvent } from '../../src/outbox/append.ts';

export interface TestMove {
  orderId: number;
  to: OrderStatus;
  readyBy?: string | null;
  cancelReason?: string | null;
  cancelMessage?: string | null;
  at?: Date;
}

/** Returns the event id. */
export async function moveOrderForTest(db: Kysely<Database>, move: TestMove): Promise<string> {
  const iso = (move.at ?? new Date()).toISOString();
  return db.transaction().execute(async (trx) => {
    const order = await trx
      .selectFrom('orders as o')
      .innerJoin('stores as s', 's.id', 'o.store_id')
      .select(['o.id', 'o.increment_id', 'o.store_id', 'o.status', 'o.order_type', 'o.version', 'o.ready_by', 's.code'])
      .where('o.id', '=', move.orderId)
      .executeTakeFirstOrThrow();
    const readyBy = move.readyBy === undefined ? order.ready_by : move.readyBy;
    await trx
      .updateTable('orders')
      .set({
        status: move.to,
        version: order.version + 1,
        ready_by: readyBy,
        cancel_reason: move.cancelReason ?? null,
        cancel_message: move.cancelMessage ?? null,
        status_changed_at: iso,
        updated_at: iso,
      })
      .where('id', '=', order.id)
      .execute();
    return appendOutboxEvent(trx, {
      storeId: order.store_id,
      type: 'order.status_changed',
      orderId: order.id,
      payload: {
        order_id: order.id,
        increment_id: order.increment_id,
        store_code: order.code,
        status: move.to,
        previous_status: order.status,
        order_type: order.order_type,
        version: order.version + 1,
        ready_by: readyBy,
        cancel_reason: move.cancelReason ?? null,
      },
      at: iso,
    });
  });
}
