/**
 * The driver's trips as the phone shows them (issue 29 "The driver's phone"): the server's answer
 * (GET /delivery/my-trips) with the actions still on the phone laid over it, so a tap shows at once
 * ("Delivered — waiting to send") and a reload in a dead zone shows the same.
 */
import type { DriverActionBody, DriverMyTrips, DriverStopView, DriverTripView } from './types.ts';
import type { RefusedAction } from './driver-queue.ts';

/** A trip with its stops as the driver's phone reads them (GET /delivery/my-trips). */
export type DriverTrip = DriverTripView;

/** The trips of GET /delivery/my-trips. */
export function tripsOf(answer: DriverMyTrips | null | undefined): DriverTrip[] {
  return Array.isArray(answer?.items) ? answer.items : [];
}

export interface ShownStop extends DriverStopView {
  /** Its outcome was taken on this phone and is not on the server yet. */
  pending: boolean;
  /** The server refused what the driver did at this stop (its words). */
  refusal: RefusedAction | null;
}

export interface ShownTrip extends Omit<DriverTrip, 'stops'> {
  stops: ShownStop[];
  /** Started or ended on this phone, not on the server yet. */
  statusPending: boolean;
  /** A start or an end the server refused. */
  refusals: RefusedAction[];
}

/** The trip with the phone's unsent (and just sent, not yet read back) actions applied, in the order they were taken. */
export function showTrip(trip: DriverTrip, local: DriverActionBody[], refused: RefusedAction[]): ShownTrip {
  const shown: ShownTrip = {
    ...trip,
    stops: [...trip.stops].sort((a, b) => a.position - b.position).map((s) => ({ ...s, pending: false, refusal: null })),
    statusPending: false,
    refusals: [],
  };
  for (const body of local) {
    if (body.trip_id !== trip.id) continue;
    if (body.kind === 'start' && shown.status === 'planned') {
      shown.status = 'started';
      shown.statusPending = true;
    } else if (body.kind === 'end' && shown.status !== 'ended') {
      shown.status = 'ended';
      shown.statusPending = true;
    } else if (body.kind === 'deliver' || body.kind === 'fail') {
      const stop = shown.stops.find((s) => s.order_id === body.order_id);
      if (stop && stop.outcome === null) {
        stop.outcome = body.kind === 'deliver' ? 'delivered' : 'failed';
        stop.failed_reason = body.kind === 'fail' ? body.reason : null;
        stop.outcome_at = body.taken_at ?? null;
        stop.pending = true;
      }
    }
  }
  for (const r of refused) {
    if (r.body.trip_id !== trip.id) continue;
    if (r.body.kind === 'deliver' || r.body.kind === 'fail') {
      const orderId = r.body.order_id;
      const stop = shown.stops.find((s) => s.order_id === orderId);
      if (stop) stop.refusal = r;
    } else shown.refusals.push(r);
  }
  return shown;
}

/** The first stop without an outcome: the one the driver goes to next. */
export function nextStop(trip: ShownTrip): ShownStop | null {
  return trip.stops.find((s) => s.outcome === null) ?? null;
}
