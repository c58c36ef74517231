/** The order types and weekdays hours are kept for, below both the slot rules (./slots.ts) and their zod schema (./schema.ts). */

export const HOURS_ORDER_TYPES = ['pickup', 'delivery'] as const;
export type HoursOrderType = (typeof HOURS_ORDER_TYPES)[number];

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
