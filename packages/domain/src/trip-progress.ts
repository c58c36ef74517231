/**
 * How far a delivery is (issue 29 "The shopper"): "Your driver is on the way — you are stop 3, about
 * 25 minutes". Pure, no zod (the shopper's pages import it), and tested (./trip-progress.test.ts).
 *
 * The estimate knows only what the store already has: the ZIP centres of the stops (the same offline
 * table the delivery zones and the suggested stop order use) and the store's own position. No driver
 * position is used or shown. The driver is taken to be at the last stop they recorded (or at the
 * store when none is recorded yet); from there they drive through the remaining stops in order:
 *  - a leg's driving miles are the straight line between ZIP centres × ROAD_FACTOR (roads are not
 *    straight; 1.3 is the usual ratio of road to straight-line distance in a city);
 *  - driven at the store's average speed (`average_mph`, default 20 mph: city driving with lights);
 *  - each stop before the shopper's adds `minutes_per_stop` (default 5: park, walk, the ID check and
 *    the signature at the door).
 * A stop whose ZIP the table does not know adds no driving (its leg is counted to the next known
 * point instead) but still its minutes at the door.
 */
import { distanceMiles, type LatLng } from './delivery.ts';
import { DELIVERY_PROGRESS_MESSAGES } from './messages.ts';

export const ROAD_FACTOR = 1.3;

export interface TripPace {
  /** Average driving speed, miles per hour. */
  average_mph: number;
  /** Minutes spent at each stop (parking, the door, the ID check, the signature). */
  minutes_per_stop: number;
}

export const DEFAULT_TRIP_PACE: Readonly<TripPace> = { average_mph: 20, minutes_per_stop: 5 };

/** The "about 10 minutes away" message goes out when a stop's estimate is at most this. */
export const NEAR_MINUTES = 10;

/**
 * Minutes from now until the driver reaches each remaining stop, in the order given. `from` is
 * where the driver is taken to be (the last recorded stop's ZIP centre, else the store); each
 * stop's point is its ZIP centre, null when unknown.
 */
export function remainingStopMinutes(from: LatLng | null, stops: readonly (LatLng | null)[], pace: TripPace = DEFAULT_TRIP_PACE): number[] {
  const mph = pace.average_mph > 0 ? pace.average_mph : DEFAULT_TRIP_PACE.average_mph;
  const dwell = Math.max(0, pace.minutes_per_stop);
  const out: number[] = [];
  let at = from;
  let minutes = 0;
  stops.forEach((point, i) => {
    if (i > 0) minutes += dwell; // the stop before this one, at the door
    if (point) {
      if (at) minutes += ((distanceMiles(at, point) * ROAD_FACTOR) / mph) * 60;
      at = point;
    }
    out.push(minutes);
  });
  return out;
}

/** What the shopper is told: the stop (1 = next) and about how many minutes. */
export interface TripProgress {
  /** 1 + the stops before this one with no outcome yet. */
  stop: number;
  /** Rounded for the shopper (see roundMinutes). */
  minutes: number;
  text: string;
}

/** Whole minutes, at least 1; past 10 to the nearest 5 (an estimate should not look precise). */
export function roundMinutes(minutes: number): number {
  const m = Math.max(1, Math.ceil(minutes - 1e-9));
  return m <= 10 ? m : Math.round(m / 5) * 5;
}

export function tripProgress(stopsAhead: number, rawMinutes: number): TripProgress {
  const stop = Math.max(0, stopsAhead) + 1;
  const minutes = roundMinutes(rawMinutes);
  return { stop, minutes, text: DELIVERY_PROGRESS_MESSAGES.progress(stop, minutes) };
}
