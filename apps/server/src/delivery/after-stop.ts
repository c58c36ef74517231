/**
 * PLACEHOLDER (issue 29): called after every stop outcome (delivered or failed) is committed, from
 * ./stops.ts (look for `// after-stop hook`). The lead replaces this file at merge with the
 * "driver about 10 minutes away" message (another engineer's work: it reads the trip's next open stop
 * and sends the message once, guarded by trip_stops.near_notified_at). Until then it does nothing.
 * It must not throw into the driver's answer: the stop is already recorded when it runs.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export async function afterStopRecorded(_db: Kysely<Database>, _storeId: number, _tripId: number): Promise<void> {
  // No-op placeholder.
}
