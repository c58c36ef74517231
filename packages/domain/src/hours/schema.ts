/**
 * The zod schema of the `hours` settings section (issue 14; what the values mean: ./slots.ts).
 * Kept apart from the computation so the storefront's pages, which show "open now" everywhere, do
 * not load zod and these schemas (the console and the server validate with them).
 */
import { z } from 'zod';
import { HOURS_ORDER_TYPES, WEEKDAY_NAMES } from './names.ts';

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:mm (00:00–23:59)');

export const weeklyHoursSchema = z.object({ day: z.enum(WEEKDAY_NAMES), open: clock, close: clock });

export const hoursExceptionSchema = z
  .object({
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD'),
    /** Shown to shoppers, e.g. "Thanksgiving". */
    label: z.string().trim().max(80).default(''),
    /** Which order types the exception changes (both when absent). */
    order_types: z.array(z.enum(HOURS_ORDER_TYPES)).min(1).default(['pickup', 'delivery']),
    closed: z.boolean(),
    open: clock.optional(),
    close: clock.optional(),
  })
  .refine((e) => e.closed || (e.open != null && e.close != null), { message: 'an exception that is not closed needs open and close' });

export const slotRulesSchema = z.object({
  length_minutes: z.union([z.literal(15), z.literal(30), z.literal(60)]),
  /** Preparation time: the first bookable slot starts at least this many minutes from now. */
  lead_minutes: z
    .number()
    .int()
    .min(0)
    .max(24 * 60),
  /** 0: today only; 7: today and the next seven days. */
  days_ahead: z.number().int().min(0).max(30),
  /** Orders per slot; null: no limit. */
  capacity: z.number().int().min(1).max(10_000).nullable(),
});

export const orderTypeHoursSchema = z.object({
  /** A day the list does not name is a closed day. Close at or before open runs past midnight. */
  weekly: z.array(weeklyHoursSchema).max(14),
  slots: slotRulesSchema,
});

export const hoursSettingsSchema = z
  .object({
    pickup: orderTypeHoursSchema,
    delivery: orderTypeHoursSchema,
    exceptions: z.array(hoursExceptionSchema).max(366).default([]),
    /** Outside ordering hours: refuse the order, or take it for the next free slot. */
    outside_hours: z.enum(['refuse', 'next_slot']),
  })
  .superRefine((v, ctx) => {
    for (const type of HOURS_ORDER_TYPES) {
      const seen = new Set<string>();
      v[type].weekly.forEach((w, i) => {
        if (seen.has(w.day)) ctx.addIssue({ code: 'custom', path: [type, 'weekly', i, 'day'], message: `${w.day} is listed twice` });
        seen.add(w.day);
        if (w.open === w.close)
          ctx.addIssue({ code: 'custom', path: [type, 'weekly', i, 'close'], message: 'open and close are the same time' });
      });
    }
    const dates = new Set<string>();
    v.exceptions.forEach((e, i) => {
      for (const t of e.order_types) {
        if (dates.has(`${e.date}/${t}`))
          ctx.addIssue({ code: 'custom', path: ['exceptions', i, 'date'], message: `${e.date} has two exceptions for ${t}` });
        dates.add(`${e.date}/${t}`);
      }
    });
  });

export type HoursSettings = z.infer<typeof hoursSettingsSchema>;
export type HoursException = z.infer<typeof hoursExceptionSchema>;
export type SlotRules = z.infer<typeof slotRulesSchema>;
