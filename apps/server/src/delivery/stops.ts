/**
 * The driver's phone on the server (issue 29 "The driver's phone", "End of trip"): what happens at
 * the door (delivered with the ID check and the customer's signature, or failed with a reason), the
 * end of a trip (cash per order, failed stops' goods back in stock once), the phone's offline actions
 * answered once per action id, the trips a driver sees and what each phone still holds.
 * Contract: packages/domain/src/console-api/driver.ts; routes: ./driver-routes.ts.
 *
 * Once-only, under bursts, on both databases:
 *  - An action is applied in ONE transaction whose first statement inserts its driver_actions row
 *    (unique on (store_id, action_id)). Of two copies of one action arriving at once, the second's
 *    insert waits for the first's transaction (PostgreSQL) or runs after it (SQLite, one writer) and
 *    fails as a duplicate: its transaction rolls back and it answers the first one's answer, stored
 *    in that row, with `replayed: true`. A refusal (4xx) is stored too: a retry hears the same words.
 *  - Every stop write and the end first move the trip's `version` with an update guarded by
 *    `status = 'started'`: the trip's row is locked for the rest of the transaction, so a deliver and
 *    an end never interleave, and of many ends at once exactly one finds the trip started.
 *  - A failed stop's goods go back in stock through the order's cancel (../orders/lifecycle), only
 *    after the guarded `UPDATE trip_stops SET restocked_at … WHERE restocked_at IS NULL` claimed it
 *    (and the cancel's own `released_at` guard under it).
 */
import { createHash } from 'node:crypto';
import {
  AGE_THRESHOLD,
  ageOnDate,
  isCalendarDate,
  isSizeId,
  sizeLabel,
  todayInZone,
  type CancelReason,
  type Store,
} from '@verdant/domain';
import {
  DRIVER_MESSAGES,
  failNoteProblem,
  type DriverActionAnswer,
  type driverActionBody,
  type DriverDeviceView,
  type DriverStopView,
  type DriverTripView,
  type StopFailedReasonName,
  type TripEndOrder,
  type TripEndSummary,
  type TripView,
} from '@verdant/domain/console-api';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { AGE_SECTION } from '../age/section.ts';
import type { Database, Row } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { isUniqueViolation } from '../orders/idempotency.ts';
import { applyTransition, type OrderActor } from '../orders/lifecycle/transitions.ts';
import { readSection } from '../store-settings/read.ts';
import { afterStopRecorded } from './after-stop.ts';
import { deliveryOrderView, startTripIn, tripLimitsOf, tripRow, tripView, TRIP_MESSAGES } from './trips.ts';

type Db = Kysely<Database>;
type ParsedAction = z.output<typeof driverActionBody>;

export const STOP_MESSAGES = {
  notStarted: (ledger: string) => `Trip ${ledger} has not started: start it before recording stops.`,
  ended: (ledger: string) => `Trip ${ledger} has ended: its stops can no longer change.`,
  alreadyEnded: (ledger: string) => `Trip ${ledger} has already ended.`,
  recorded: (number: string, outcome: string) => `Order ${number} is already recorded as ${outcome} on this trip.`,
  stopsOpen: (ledger: string, open: string[]) => `Record every stop before ending trip ${ledger}. Still open: ${open.join(', ')}.`,
  cashMissing: (numbers: string[]) => `Enter the cash collected for each delivered order: missing for ${numbers.join(', ')}.`,
  cashNotDelivered: (id: number) => `Order ${id} is not a delivered stop of this trip: cash is entered only for delivered orders.`,
  cashTwice: 'Enter the cash of each order once.',
  actionReused: 'This action id was already used for a different action: the phone must make a new id for each action.',
} as const;

/** A failed stop's order is cancelled at the end of the trip with the lifecycle's reason nearest to it, and words for the shopper. */
export const FAILED_CANCEL: Readonly<Record<StopFailedReasonName, { reason: CancelReason; message: string }>> = {
  no_valid_id: { reason: 'no_id', message: 'We could not check a valid ID at your door, so the driver could not hand over your order.' },
  under_age: { reason: 'compliance', message: 'Your order could not be handed over: the ID check at the door did not allow it.' },
  not_home: { reason: 'no_show', message: 'We could not deliver your order: nobody was there to receive it.' },
  refused: { reason: 'customer_request', message: 'The order was refused at the door.' },
  other: { reason: 'other', message: 'We could not deliver your order.' },
};

const timeZoneOf = (store: Store) => store.dispensarySettings.place_info.timezone;

/** Move the trip's version, only while it is started (locks its row for the rest of the transaction). */
async function lockStarted(trx: Db, trip: Row<'trips'>, iso: string, ending = false): Promise<void> {
  const moved = await trx
    .updateTable('trips')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: iso }))
    .where('id', '=', trip.id)
    .where('status', '=', 'started')
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 1) return;
  const now = await trx.selectFrom('trips').select('status').where('id', '=', trip.id).executeTakeFirstOrThrow();
  if (now.status === 'planned') throw new ApiError(409, STOP_MESSAGES.notStarted(trip.ledger_number), { errorCode: 'trip_not_started' });
  throw new ApiError(409, ending ? STOP_MESSAGES.alreadyEnded(trip.ledger_number) : STOP_MESSAGES.ended(trip.ledger_number), { errorCode: 'trip_ended' });
}

async function openStop(trx: Db, trip: Row<'trips'>, orderId: number) {
  const stop = await trx
    .selectFrom('trip_stops')
    .innerJoin('orders', 'orders.id', 'trip_stops.order_id')
    .selectAll('orders')
    .select(['trip_stops.id as stop_id', 'trip_stops.outcome as outcome'])
    .where('trip_stops.trip_id', '=', trip.id)
    .where('trip_stops.order_id', '=', orderId)
    .executeTakeFirst();
  if (!stop) throw new ApiError(404, TRIP_MESSAGES.notOnTrip(orderId, trip.ledger_number), { errorCode: 'stop_not_found' });
  if (stop.outcome) throw new ApiError(409, STOP_MESSAGES.recorded(stop.increment_id, stop.outcome), { errorCode: 'stop_recorded', meta: { outcome: stop.outcome } });
  return stop;
}

/**
 * The day of the handover in the store's zone: when the driver did it by the phone's clock (an
 * action queued in a dead zone is sent later), unless that is in the future or more than two days
 * back (a phone's clock is not trusted further); else now.
 */
export function handoverDay(store: Store, now: Date, takenAt: string | undefined): string {
  const t = takenAt ? Date.parse(takenAt) : NaN;
  const at = Number.isFinite(t) && t <= now.getTime() && now.getTime() - t < 2 * 86_400_000 ? new Date(t) : now;
  return todayInZone(at, timeZoneOf(store));
}

type Deliver = Extract<ParsedAction, { kind: 'deliver' }>;
type Fail = Extract<ParsedAction, { kind: 'fail' }>;

async function deliverIn(trx: Db, store: Store, trip: Row<'trips'>, body: Deliver, actor: OrderActor, now: Date): Promise<void> {
  const iso = now.toISOString();
  await lockStarted(trx, trip, iso);
  const order = await openStop(trx, trip, body.order_id);
  const check = body.id_check;
  const day = handoverDay(store, now, body.taken_at);
  if (!isCalendarDate(check.birth_date) || check.birth_date >= day)
    throw new ApiError(400, DRIVER_MESSAGES.badBirthDate, { errorCode: 'id_check_invalid' });
  const age = ageOnDate(check.birth_date, day);
  const medical = order.license_type === 'medical';
  const minimum = medical ? (await readSection(trx, store, AGE_SECTION)).value.medicalMinimumAge : AGE_THRESHOLD;
  if (age < minimum)
    throw new ApiError(400, medical ? DRIVER_MESSAGES.underMedicalAge(age, minimum) : DRIVER_MESSAGES.underAge(age), {
      errorCode: 'under_age',
      meta: { age, minimumAge: minimum, day },
    });
  if (medical && check.medcard_checked !== true) throw new ApiError(400, DRIVER_MESSAGES.medcardRequired, { errorCode: 'medcard_not_checked' });
  const recorded = await trx
    .updateTable('trip_stops')
    .set({
      outcome: 'delivered',
      outcome_at: iso,
      outcome_by: actor.name,
      id_document: check.document,
      id_birth_date: check.birth_date,
      id_name_matches: 1,
      id_checked_at: iso,
      signature_png: body.signature_png,
    })
    .where('id', '=', order.stop_id)
    .where('outcome', 'is', null)
    .executeTakeFirst();
  if (Number(recorded.numUpdatedRows) !== 1) throw new ApiError(409, STOP_MESSAGES.recorded(order.increment_id, 'recorded'), { errorCode: 'stop_recorded' });
  // The order completes through the lifecycle (its guard, history row with the ID check, outbox event → the shopper's message).
  await applyTransition(trx, {
    storeId: store.storeId,
    orderId: order.id,
    action: 'complete',
    input: { idChecked: true, medcardChecked: medical ? true : undefined },
    actor,
    now,
    eventData: { idDocument: check.document, nameMatches: true, ageOnDay: age, tripId: trip.id, ledger: trip.ledger_number, signed: true },
  });
}

async function failIn(trx: Db, trip: Row<'trips'>, body: Fail, actor: OrderActor, now: Date): Promise<void> {
  const problem = failNoteProblem(body.reason, body.note);
  if (problem) throw new ApiError(400, problem, { errorCode: 'note_required' });
  const iso = now.toISOString();
  await lockStarted(trx, trip, iso);
  const stop = await openStop(trx, trip, body.order_id);
  // The order stays out for delivery and its goods on the trip; the end of the trip cancels it and restocks once.
  const recorded = await trx
    .updateTable('trip_stops')
    .set({ outcome: 'failed', outcome_at: iso, outcome_by: actor.name, failed_reason: body.reason, failed_note: body.note?.trim() || null })
    .where('id', '=', stop.stop_id)
    .where('outcome', 'is', null)
    .executeTakeFirst();
  if (Number(recorded.numUpdatedRows) !== 1) throw new ApiError(409, STOP_MESSAGES.recorded(stop.increment_id, 'recorded'), { errorCode: 'stop_recorded' });
}

export interface TripEndInput {
  cash: { order_id: number; cash_cents: number }[];
  note?: string;
}

export interface TripEndResult {
  summary: TripEndSummary;
  /** Products whose stock went back (tell the catalogue after the commit). */
  restocked: number[];
}

/**
 * End a started trip inside the caller's transaction: every stop recorded, cash for each delivered
 * order, the trip ended with the cash expected (delivered orders' totals: paid on delivery) and
 * collected, the stops no longer open, each failed stop's order cancelled and its goods back in stock once.
 */
export async function endTripIn(trx: Db, store: Store, trip: Row<'trips'>, input: TripEndInput, actor: OrderActor, now: Date): Promise<TripEndResult> {
  const iso = now.toISOString();
  await lockStarted(trx, trip, iso, true);
  const stops = await trx
    .selectFrom('trip_stops')
    .innerJoin('orders', 'orders.id', 'trip_stops.order_id')
    .select([
      'trip_stops.id as stop_id',
      'trip_stops.position',
      'trip_stops.outcome',
      'trip_stops.failed_reason',
      'orders.id as order_id',
      'orders.increment_id',
      'orders.total_cents',
      'orders.status',
    ])
    .where('trip_stops.trip_id', '=', trip.id)
    .orderBy('trip_stops.position')
    .execute();
  const open = stops.filter((s) => !s.outcome);
  if (open.length)
    throw new ApiError(400, STOP_MESSAGES.stopsOpen(trip.ledger_number, open.map((s) => `order ${s.increment_id} (stop ${s.position})`)), {
      errorCode: 'stops_open',
      meta: { orderIds: open.map((s) => s.order_id) },
    });
  const cash = new Map<number, number>();
  for (const c of input.cash) {
    if (cash.has(c.order_id)) throw new ApiError(400, STOP_MESSAGES.cashTwice, { errorCode: 'cash_twice' });
    if (!stops.some((s) => s.order_id === c.order_id && s.outcome === 'delivered'))
      throw new ApiError(400, STOP_MESSAGES.cashNotDelivered(c.order_id), { errorCode: 'cash_not_delivered' });
    cash.set(c.order_id, c.cash_cents);
  }
  const missing = stops.filter((s) => s.outcome === 'delivered' && !cash.has(s.order_id));
  if (missing.length)
    throw new ApiError(400, STOP_MESSAGES.cashMissing(missing.map((s) => s.increment_id)), { errorCode: 'cash_missing', meta: { orderIds: missing.map((s) => s.order_id) } });

  const orders: TripEndOrder[] = [];
  const restocked: number[] = [];
  for (const s of stops) {
    const delivered = s.outcome === 'delivered';
    const collected = delivered ? cash.get(s.order_id)! : 0;
    await trx
      .updateTable('trip_stops')
      .set({ open: null, cash_cents: delivered ? collected : null })
      .where('id', '=', s.stop_id)
      .execute();
    let back = false;
    if (!delivered && s.status === 'out_for_delivery') {
      const claimed = await trx.updateTable('trip_stops').set({ restocked_at: iso }).where('id', '=', s.stop_id).where('restocked_at', 'is', null).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 1) {
        const why = FAILED_CANCEL[(s.failed_reason ?? 'other') as StopFailedReasonName];
        const moved = await applyTransition(trx, {
          storeId: store.storeId,
          orderId: s.order_id,
          action: 'cancel',
          input: { reason: why.reason, message: why.message },
          actor,
          now,
          eventData: { failedReason: s.failed_reason, tripId: trip.id, ledger: trip.ledger_number },
        });
        restocked.push(...moved.restocked);
        back = true;
      }
    }
    const expected = delivered ? s.total_cents : 0;
    orders.push({ order_id: s.order_id, increment_id: s.increment_id, outcome: delivered ? 'delivered' : 'failed', expected_cents: expected, collected_cents: collected, difference_cents: collected - expected, restocked: back });
  }
  const expected = orders.reduce((n, o) => n + o.expected_cents, 0);
  const collected = orders.reduce((n, o) => n + o.collected_cents, 0);
  await trx
    .updateTable('trips')
    .set({
      status: 'ended',
      ended_at: iso,
      ended_by: actor.name,
      cash_expected_cents: expected,
      cash_collected_cents: collected,
      end_note: input.note?.trim() || null,
      updated_at: iso,
    })
    .where('id', '=', trip.id)
    .execute();
  return {
    summary: { cash_expected_cents: expected, cash_collected_cents: collected, difference_cents: collected - expected, orders, differences: orders.filter((o) => o.difference_cents !== 0) },
    restocked: [...new Set(restocked)].sort((a, b) => a - b),
  };
}

/** The console's end (managers): the same end, in its own transaction. */
export async function endTrip(db: Db, store: Store, tripId: number, input: TripEndInput, actor: OrderActor, now: Date): Promise<TripEndResult & { trip: TripView }> {
  const trip = await tripRow(db, store.storeId, tripId);
  const result = await db.transaction().execute((trx) => endTripIn(trx, store, trip, input, actor, now));
  return { ...result, trip: await tripView(db, store, await tripRow(db, store.storeId, tripId)) };
}

// --- The phone's actions, once per action id -----------------------------------------------------

/** What a stored answer holds: the first answer, success or refusal. */
type StoredAnswer = { ok: true; answer: DriverActionAnswer } | { ok: false; message: string; errorCode?: string; meta?: Record<string, unknown> };

export interface ActionOutcome {
  status: number;
  stored: StoredAnswer;
  replayed: boolean;
  /** Products whose stock went back (fresh `end` only). */
  restocked: number[];
}

/** The payload as kept (and compared on a retry): the signature by its hash, not 200 KB again. */
function payloadText(body: ParsedAction): string {
  const copy: Record<string, unknown> = { ...body };
  delete copy.taken_at;
  delete copy.device_id;
  if (typeof copy.signature_png === 'string') copy.signature_png = `sha256:${createHash('sha256').update(copy.signature_png).digest('hex')}`;
  return JSON.stringify(copy);
}

function replay(row: Row<'driver_actions'>, staffId: number, body: ParsedAction): ActionOutcome {
  if (row.staff_id !== staffId || row.payload !== payloadText(body))
    return { status: 409, stored: { ok: false, message: STOP_MESSAGES.actionReused, errorCode: 'action_id_reused' }, replayed: false, restocked: [] };
  const stored = JSON.parse(row.answer) as StoredAnswer;
  if (stored.ok) stored.answer = { ...stored.answer, replayed: true };
  return { status: row.answer_status, stored, replayed: true, restocked: [] };
}

async function storedAction(db: Db, storeId: number, actionId: string) {
  return db.selectFrom('driver_actions').selectAll().where('store_id', '=', storeId).where('action_id', '=', actionId).executeTakeFirst();
}

export interface DriverActor {
  staffId: number;
  name: string;
}

/**
 * Apply one action of a phone once. `trip` is already checked as one the member may act on.
 * Answers the first answer again to a retry of the same action id (also one arriving at once).
 */
export async function runDriverAction(db: Db, store: Store, trip: Row<'trips'>, who: DriverActor, body: ParsedAction, now: Date): Promise<ActionOutcome> {
  const known = await storedAction(db, store.storeId, body.action_id);
  if (known) return replay(known, who.staffId, body);
  const iso = now.toISOString();
  const actor: OrderActor = { type: 'staff', id: who.staffId, name: who.name };
  const row = {
    store_id: store.storeId,
    action_id: body.action_id,
    staff_id: who.staffId,
    device_id: body.device_id ?? null,
    trip_id: trip.id,
    kind: body.kind,
    payload: payloadText(body),
    taken_at: body.taken_at ? new Date(body.taken_at).toISOString() : null,
    received_at: iso,
  };
  let restocked: number[] = [];
  try {
    const answer = await db.transaction().execute(async (trx) => {
      // First: the action's row (a copy of this action running at once waits here, then fails as a duplicate).
      await trx.insertInto('driver_actions').values({ ...row, answer_status: 0, answer: '{}' }).execute();
      let end: TripEndSummary | undefined;
      if (body.kind === 'start') await startTripIn(trx, store, trip, await tripLimitsOf(trx, store), actor, now);
      else if (body.kind === 'deliver') await deliverIn(trx, store, trip, body, actor, now);
      else if (body.kind === 'fail') await failIn(trx, trip, body, actor, now);
      else {
        const ended = await endTripIn(trx, store, trip, { cash: body.cash, note: body.note }, actor, now);
        end = ended.summary;
        restocked = ended.restocked;
      }
      const view = await tripView(trx, store, await trx.selectFrom('trips').selectAll().where('id', '=', trip.id).executeTakeFirstOrThrow());
      const answer: DriverActionAnswer = { action_id: body.action_id, replayed: false, trip: view, ...(end ? { end } : {}) };
      const stored: StoredAnswer = { ok: true, answer };
      await trx
        .updateTable('driver_actions')
        .set({ answer_status: 200, answer: JSON.stringify(stored) })
        .where('store_id', '=', store.storeId)
        .where('action_id', '=', body.action_id)
        .execute();
      return answer;
    });
    if (body.kind === 'deliver' || body.kind === 'fail') {
      // after-stop hook
      try {
        await afterStopRecorded(db, store.storeId, trip.id);
      } catch {
        // The stop is recorded; the hook's own failure must not change the driver's answer.
      }
    }
    return { status: 200, stored: { ok: true, answer }, replayed: false, restocked };
  } catch (error) {
    if (isUniqueViolation(error)) {
      const first = await storedAction(db, store.storeId, body.action_id);
      if (first) return replay(first, who.staffId, body);
    }
    if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
    // A refusal is the action's answer too: kept, so a retry hears the same words.
    const stored: StoredAnswer = { ok: false, message: error.message, errorCode: error.extra?.errorCode, meta: error.extra?.meta };
    try {
      await db.insertInto('driver_actions').values({ ...row, answer_status: error.statusCode, answer: JSON.stringify(stored) }).execute();
    } catch (again) {
      if (!isUniqueViolation(again)) throw again;
      const first = await storedAction(db, store.storeId, body.action_id);
      if (first) return replay(first, who.staffId, body);
    }
    return { status: error.statusCode, stored, replayed: false, restocked: [] };
  }
}

// --- What the driver's phone shows ---------------------------------------------------------------

const digits = (phone: string) => phone.replace(/[^\d+]/g, '');

function parse<T>(json: string | null): T | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as T;
  } catch {
    return null;
  }
}

/** The trips of the driver records linked to this login: planned, started, and those ended on the store's day today. */
export async function myTrips(db: Db, store: Store, staffId: number, now: Date): Promise<DriverTripView[]> {
  const drivers = (await db.selectFrom('drivers').select('id').where('store_id', '=', store.storeId).where('staff_id', '=', staffId).execute()).map((d) => d.id);
  if (drivers.length === 0) return [];
  const since = new Date(now.getTime() - 2 * 86_400_000).toISOString();
  const rows = await db
    .selectFrom('trips')
    .selectAll()
    .where('store_id', '=', store.storeId)
    .where('driver_id', 'in', drivers)
    .where((eb) => eb.or([eb('status', 'in', ['planned', 'started']), eb.and([eb('status', '=', 'ended'), eb('ended_at', '>=', since)])]))
    .orderBy('id', 'desc')
    .execute();
  const today = todayInZone(now, timeZoneOf(store));
  const trips = rows.filter((t) => t.status !== 'ended' || (t.ended_at && todayInZone(new Date(t.ended_at), timeZoneOf(store)) === today));
  const limits = await tripLimitsOf(db, store);
  const out: DriverTripView[] = [];
  for (const trip of trips) {
    const view = await tripView(db, store, trip);
    out.push({ ...view, stops: await driverStops(db, store, trip.id, limits.drivers_see_customer_phone) });
  }
  return out;
}

async function driverStops(db: Db, store: Store, tripId: number, showPhone: boolean): Promise<DriverStopView[]> {
  const stops = await db
    .selectFrom('trip_stops')
    .innerJoin('orders', 'orders.id', 'trip_stops.order_id')
    .selectAll('orders')
    .select(['trip_stops.position as position', 'trip_stops.outcome as outcome', 'trip_stops.failed_reason as failed_reason', 'trip_stops.outcome_at as outcome_at'])
    .where('trip_stops.trip_id', '=', tripId)
    .orderBy('trip_stops.position')
    .execute();
  const ids = stops.map((s) => s.id);
  const items = ids.length
    ? await db
        .selectFrom('order_items')
        .leftJoin('products', 'products.id', 'order_items.product_id')
        .select(['order_items.order_id', 'order_items.name', 'order_items.size', 'order_items.qty', 'products.package_id'])
        .where('order_items.order_id', 'in', ids)
        .orderBy('order_items.id')
        .execute()
    : [];
  const storePhone = digits(store.dispensarySettings.place_info.phone);
  return stops.map((o) => {
    const view = deliveryOrderView(store, o);
    const who = parse<{ firstName?: string; phone?: string }>(o.personal_details) ?? {};
    const customer = who.phone ? digits(who.phone) : '';
    const direct = showPhone && customer.length >= 7;
    return {
      order_id: o.id,
      increment_id: o.increment_id,
      position: o.position,
      customer_first_name: who.firstName ?? '',
      address: view.address,
      navigation_url: `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(view.address)}`,
      call_url: `tel:${direct ? customer : storePhone}`,
      // Through the store: the order number in the text, so the store knows whom to relay it to.
      text_url: direct ? `sms:${customer}` : `sms:${storePhone}?body=${encodeURIComponent(`Order ${o.increment_id}: `)}`,
      license_type: o.license_type,
      items: items
        .filter((i) => i.order_id === o.id)
        .map((i) => ({ name: i.name, size: i.size != null && isSizeId(i.size) ? sizeLabel(i.size) : null, qty: i.qty, package_id: i.package_id ?? null })),
      total_cents: o.total_cents,
      outcome: o.outcome,
      failed_reason: o.failed_reason,
      outcome_at: o.outcome_at,
    };
  });
}

// --- What each phone still holds -----------------------------------------------------------------

export async function reportDevice(db: Db, storeId: number, staffId: number, body: { device_id: string; pending: number; oldest_pending_at: string | null }, now: Date): Promise<void> {
  const iso = now.toISOString();
  const values = { staff_id: staffId, pending: body.pending, oldest_pending_at: body.oldest_pending_at ? new Date(body.oldest_pending_at).toISOString() : null, seen_at: iso };
  await db
    .insertInto('driver_devices')
    .values({ store_id: storeId, device_id: body.device_id, ...values })
    .onConflict((oc) => oc.columns(['store_id', 'device_id']).doUpdateSet(values))
    .execute();
}

export async function devicesOf(db: Db, storeId: number): Promise<DriverDeviceView[]> {
  const rows = await db
    .selectFrom('driver_devices')
    .leftJoin('staff', 'staff.id', 'driver_devices.staff_id')
    .select(['driver_devices.device_id', 'driver_devices.staff_id', 'staff.name as staff_name', 'staff.email as staff_email', 'driver_devices.pending', 'driver_devices.oldest_pending_at', 'driver_devices.seen_at'])
    .where('driver_devices.store_id', '=', storeId)
    .orderBy('driver_devices.pending', 'desc')
    .orderBy('driver_devices.seen_at', 'desc')
    .execute();
  return rows.map((r) => ({
    device_id: r.device_id,
    staff_id: r.staff_id,
    staff_name: r.staff_name || r.staff_email || null,
    pending: Number(r.pending),
    oldest_pending_at: r.oldest_pending_at,
    seen_at: r.seen_at,
  }));
}
