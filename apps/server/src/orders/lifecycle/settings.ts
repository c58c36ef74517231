/**
 * Saving a store's order settings (PUT …/settings/orders): any subset of the fields; what is not
 * sent keeps its value. One upsert, so two saves never leave two rows.
 */
import { z } from 'zod';
import { NOTIFICATION_TEMPLATES, orderSettings, type Db, type OrderSettings } from './store-facts.ts';

const toggle = z.object({ sms: z.boolean(), email: z.boolean() }).strict();

export const settingsSchema = z
  .object({
    auto_confirm: z.boolean(),
    auto_confirm_minutes: z
      .number()
      .int()
      .min(5, 'At least 5 minutes.')
      .max(24 * 60, 'At most 24 hours.'),
    pickup_window_hours: z
      .number()
      .int()
      .min(1, 'At least 1 hour.')
      .max(24 * 14, 'At most 14 days.'),
    notifications: z.partialRecord(z.enum(NOTIFICATION_TEMPLATES), toggle),
    order_email: z.email('Please provide a valid e-mail address.').max(254).nullable(),
  })
  .partial()
  .strict();

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
