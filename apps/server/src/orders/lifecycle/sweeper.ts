/**
 * The lifecycle's clock work, run on every node (each move is the guarded update of
 * ./transitions.ts, so two nodes sweeping at once move an order once; the loser's 409 is ignored):
 *  - no-show: pickup orders still ready for pickup after their pickup window (ready-by + the
 *    store's `pickup_window_hours`) become no_show as the system, which puts their goods back;
 *  - auto-confirm: in stores with auto-confirm on, submitted orders whose hold was lifted after
 *    they were placed (documents verified later) are confirmed as the system.
 */
import { pickupWindowEnd } from '@verdant/domain';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/envelope.ts';
import { inWriteTransaction } from '../../db/group-commit.ts';
import { autoConfirmInTransaction } from './placed.ts';
import { holdOf, orderSettings, storeFacts, type Db } from './store-facts.ts';
import { applyTransition, SYSTEM_ACTOR } from './transitions.ts';
import { every } from '../../jobs/every.ts';

export interface SweepResult {
  noShow: number[];
  confirmed: number[];
  /** Products whose stock went back. */
  restocked: Map<number, number[]>;
}

/** One sweep at `now`; returns what moved. */
export async function sweepOrders(db: Db, now: Date): Promise<SweepResult> {
  const result: SweepResult = { noShow: [], confirmed: [], restocked: new Map() };
  const ready = await db
    .selectFrom('orders')
    .select(['id', 'store_id', 'ready_by'])
    .where('status', '=', 'ready_for_pickup')
    .where('order_type', '=', 'pickup')
    .execute();
  const windows = new Map<number, number>();
  for (const o of ready) {
    if (!windows.has(o.store_id)) windows.set(o.store_id, (await orderSettings(db, o.store_id)).pickup_window_hours);
    const end = pickupWindowEnd(o.ready_by, windows.get(o.store_id));
    if (!end || Date.parse(end) > now.getTime()) continue;
    try {
      const moved = await applyTransition(db, {
        storeId: o.store_id,
        orderId: o.id,
        action: 'mark_no_show',
        input: {},
        actor: SYSTEM_ACTOR,
        now,
      });
      result.noShow.push(o.id);
      if (moved.restocked.length) result.restocked.set(o.store_id, [...(result.restocked.get(o.store_id) ?? []), ...moved.restocked]);
    } catch (error) {
      // Staff (or another node) moved it first.
      if (!(error instanceof ApiError)) throw error;
    }
  }

  const autoStores = await db
    .selectFrom('store_order_settings')
    .select(['store_id', 'auto_confirm_minutes'])
    .where('auto_confirm', '=', 1)
    .execute();
  for (const s of autoStores) {
    const store = await storeFacts(db, s.store_id);
    if (!store) continue;
    const waiting = await db
      .selectFrom('orders')
      .leftJoin('customers', 'customers.id', 'orders.customer_id')
      .select([
        'orders.id',
        'orders.verification_needs',
        'orders.created_at',
        'customers.id_status',
        'customers.medcard_status',
        'customers.medcard_expiry',
        'orders.customer_id',
      ])
      .where('orders.store_id', '=', s.store_id)
      .where('orders.status', '=', 'submitted')
      .execute();
    for (const o of waiting) {
      const docs =
        o.customer_id != null && o.id_status && o.medcard_status
          ? { id_status: o.id_status, medcard_status: o.medcard_status, medcard_expiry: o.medcard_expiry }
          : null;
      if (holdOf(o, docs, store.timezone).length) continue;
      const status = await inWriteTransaction(db, (trx) => autoConfirmInTransaction(trx, o.id, store, s.auto_confirm_minutes, now));
      if (status === 'confirmed') result.confirmed.push(o.id);
    }
  }
  return result;
}

export interface SweeperOptions {
  intervalMs?: number;
  now?: () => Date;
}

export interface OrderSweeper {
  /** Stop the timer (tests that move orders by hand stop it, then sweep with sweepOrders). */
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The lifecycle's periodic sweep (no-show, auto-confirm); orders/lifecycle/sweeper.ts. */
    orderSweeper?: OrderSweeper;
  }
}

/** Sweep every `intervalMs` (default 30 s) until the app closes; the timer never keeps the process alive. */
export function startOrderSweeper(app: FastifyInstance, db: Db, options: SweeperOptions = {}): OrderSweeper {
  const intervalMs = options.intervalMs ?? 30_000;
  const now = options.now ?? (() => new Date());
  return every(
    app,
    intervalMs,
    'order sweep',
    () => sweepOrders(db, now()),
    (r) => {
      if (r.noShow.length || r.confirmed.length) app.outbox.kick();
      for (const [storeId, products] of r.restocked) {
        app.catalog
          .catalogChanged(storeId, products, { stockOnly: true })
          .catch((err) => app.log.warn({ err }, 'catalogue update after no-show failed'));
      }
    },
  );
}
