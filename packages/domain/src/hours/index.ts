export * from './slots.ts';
export { hoursExceptionSchema, hoursSettingsSchema, orderTypeHoursSchema, slotRulesSchema, weeklyHoursSchema } from './schema.ts';
