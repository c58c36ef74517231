/**
 * "Someone opened the order" (issue 26, migration 0026): the console says so when its order page
 * opens. The first opening is recorded once (`opened_at IS NULL` guarded update: of 40 members
 * opening at once one writes) with an `order.updated` push, so every console drops the order's "New"
 * flag and stops reminding of it; later openings change nothing.
 */
import type { OpenedResult } from '@verdant/domain/console-api';
import { inWriteTransaction } from '../../db/group-commit.ts';
import { appendOutboxEvent } from '../../outbox/append.ts';
import type { Db, StoreFacts } from '../lifecycle/store-facts.ts';
import { orderOfStore, orderPayload } from '../lifecycle/transitions.ts';

export type { OpenedResult } from '@verdant/domain/console-api';

export async function markOpened(db: Db, store: StoreFacts, orderId: number, staffId: number, now: Date): Promise<OpenedResult> {
  const order = await orderOfStore(db, store.id, orderId);
  if (order.opened_at) return { opened_at: order.opened_at, first: false };
  const iso = now.toISOString();
  const first = await inWriteTransaction(db, async (trx) => {
    const moved = await trx
      .updateTable('orders')
      .set({ opened_at: iso, opened_by: staffId })
      .where('id', '=', order.id)
      .where('store_id', '=', store.id)
      .where('opened_at', 'is', null)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    await appendOutboxEvent(trx, {
      storeId: store.id,
      type: 'order.updated',
      orderId: order.id,
      payload: { ...orderPayload(order, store, order.status), opened_at: iso },
      at: iso,
    });
    return true;
  });
  if (first) return { opened_at: iso, first };
  const after = await orderOfStore(db, store.id, orderId);
  return { opened_at: after.opened_at ?? iso, first: false };
}
