/**
 * Saving a store's order settings (PUT …/settings/orders): any subset of the fields; what is not
 * sent keeps its value. One upsert, so two saves never leave two rows.
 */
import { orderSettingsBody, type OrderSettings } from '@verdant/domain/console-api';
import type { z } from 'zod';
import { orderSettings, type Db } from './store-facts.ts';

/** The request's rule is the console's contract (@verdant/domain/console-api). */
export const settingsSchema = orderSettingsBody;

export type SettingsInput = z.infer<typeof settingsSchema>;

export async function saveOrderSettings(db: Db, storeId: number, input: SettingsInput, now: Date): Promise<OrderSettings> {
  const current = await orderSettings(db, storeId);
  const next: OrderSettings = {
    ...current,
    ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
    notifications: { ...current.notifications, ...(input.notifications ?? {}) },
  } as OrderSettings;
  const row = {
    auto_confirm: next.auto_confirm ? (1 as const) : (0 as const),
    auto_confirm_minutes: next.auto_confirm_minutes,
    pickup_window_hours: next.pickup_window_hours,
    notifications: JSON.stringify(next.notifications),
    order_email: next.order_email,
    updated_at: now.toISOString(),
  };
  await db
    .insertInto('store_order_settings')
    .values({ store_id: storeId, ...row })
    .onConflict((oc) => oc.column('store_id').doUpdateSet(row))
    .execute();
  return orderSettings(db, storeId);
}
