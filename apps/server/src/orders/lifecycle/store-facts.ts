/**
 * What the lifecycle needs to know about a store and a customer: the store's time zone (order
 * dates, holds and reports are store-local days), its order settings (defaults when it never saved
 * any) and the customer's reviewed documents, turned into the hold of an order.
 */
import { missingVerifications, todayInZone, type CustomerDocuments, type Verification } from '@verdant/domain';
import { NOTIFICATION_TEMPLATES, type NotificationTemplate, type OrderSettings } from '@verdant/domain/console-api';
import type { Kysely } from 'kysely';
import type { Database, Row } from '../../db/schema.ts';

export type Db = Kysely<Database>;

export interface StoreFacts {
  id: number;
  code: string;
  name: string;
  timezone: string;
}

/** The store row with its zone (from the stores file's `dispensarySettings.place_info.timezone`). */
export async function storeFacts(db: Db, storeId: number): Promise<StoreFacts | null> {
  const row = await db.selectFrom('stores').select(['id', 'code', 'name', 'settings']).where('id', '=', storeId).executeTakeFirst();
  if (!row) return null;
  let timezone = 'UTC';
  try {
    const settings = JSON.parse(row.settings) as { dispensarySettings?: { place_info?: { timezone?: string } } };
    timezone = settings.dispensarySettings?.place_info?.timezone || 'UTC';
  } catch {
    // A store without readable settings counts in UTC rather than failing every order view.
  }
  return { id: row.id, code: row.code, name: row.name, timezone };
}

export { NOTIFICATION_TEMPLATES, type NotificationTemplate, type OrderSettings } from '@verdant/domain/console-api';

/** The store's order settings; a store that never saved any gets the migration's defaults. */
export async function orderSettings(db: Db, storeId: number): Promise<OrderSettings> {
  const row = await db.selectFrom('store_order_settings').selectAll().where('store_id', '=', storeId).executeTakeFirst();
  return settingsView(row ?? null);
}

export function settingsView(row: Row<'store_order_settings'> | null): OrderSettings {
  let stored: Record<string, { sms?: boolean; email?: boolean }> = {};
  try {
    stored = row ? JSON.parse(row.notifications) : {};
  } catch {
    stored = {};
  }
  // Absent means on (migration 0010).
  const notifications = Object.fromEntries(
    NOTIFICATION_TEMPLATES.map((t) => [t, { sms: stored[t]?.sms !== false, email: stored[t]?.email !== false }]),
  ) as OrderSettings['notifications'];
  return {
    auto_confirm: row ? row.auto_confirm === 1 : false,
    auto_confirm_minutes: row?.auto_confirm_minutes ?? 20,
    pickup_window_hours: row?.pickup_window_hours ?? 24,
    notifications,
    order_email: row?.order_email ?? null,
  };
}

/** YYYY-MM-DD of an ISO instant in the zone. */
export function localDate(iso: string, timezone: string): string {
  return todayInZone(new Date(iso), timezone);
}

/** The UTC instant (ISO) at which a store-local day starts (DST-safe: the zone's offset at that moment). */
export function dayStartUtc(date: string, timezone: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const guess = Date.UTC(y, m - 1, d);
  let t = guess - offsetMs(guess, timezone);
  // The offset at the guess may differ from the offset at the result (a DST change that night).
  t = guess - offsetMs(t, timezone);
  return new Date(t).toISOString();
}

/** The zone's offset from UTC at an instant, in ms (local wall clock − UTC). */
function offsetMs(instant: number, timezone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const p = Object.fromEntries(parts.map((x) => [x.type, x.value]));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The day after a YYYY-MM-DD date. */
export function nextDay(date: string): string {
  const t = Date.parse(`${date}T00:00:00Z`) + 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

export type CustomerDocs = Pick<Row<'customers'>, 'id_status' | 'medcard_status' | 'medcard_expiry'>;

export function parseNeeds(text: string | null | undefined): Verification[] {
  try {
    const v = JSON.parse(text ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is Verification => x === 'id' || x === 'medcard') : [];
  } catch {
    return [];
  }
}

/**
 * The verifications an order still waits for: what it needed when placed, against the customer's
 * documents as staff reviewed them, on the order's store-local date (a card that expired before
 * that day does not count).
 *
 * A guest order is never held (our decision): a guest has no account, so no upload staff could
 * review and no way to lift a hold — a guest delivery would wait forever. Its ID (and card) are
 * checked by hand when it is handed over: `complete` requires staff to confirm those checks.
 */
export function holdOf(
  order: Pick<Row<'orders'>, 'verification_needs' | 'created_at' | 'customer_id'>,
  docs: CustomerDocs | null,
  timezone: string,
): Verification[] {
  const needs = parseNeeds(order.verification_needs);
  if (needs.length === 0 || order.customer_id == null) return [];
  const d: CustomerDocuments | null = docs
    ? { id_status: docs.id_status, medcard_status: docs.medcard_status, medcard_expiry: docs.medcard_expiry }
    : null;
  return missingVerifications(needs, d, localDate(order.created_at, timezone));
}
