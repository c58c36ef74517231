/**
 * What checkout and the store's pages read of the store's hours (issue 14 "Hours and time slots"):
 *   GET /api/store/hours            open now / opens at …, per order type, and the week and exceptions
 *   GET /api/order/slots?order_type= whether ASAP is offered and the slots with room, for checkout
 * The order itself is checked again when it is saved (booking.ts): these answers are a snapshot.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { availableSlots, hoursStatus, HOURS_ORDER_TYPES, type HoursOrderType } from '@verdant/domain';
import type { Database } from '../db/schema.ts';
import { ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import { HOURS } from './section.ts';
import { takenSlots, zoneOf } from './booking.ts';

export const slotsQuerySchema = z.object({
  order_type: z.enum(HOURS_ORDER_TYPES, { error: 'order_type must be pickup or delivery' }),
});

const statusSchema = z.object({ open: z.boolean(), label: z.string(), opensAt: z.string().nullable() });
export const slotsResponseSchema = z.object({
  order_type: z.enum(HOURS_ORDER_TYPES),
  timezone: z.string(),
  status: statusSchema,
  /** True when an order without a slot is taken now (the store is open for this order type). */
  asap: z.boolean(),
  /** Outside hours: `refuse` (no order until it opens) or `next_slot` (an ASAP order gets the first free slot). */
  outside_hours: z.enum(['refuse', 'next_slot']),
  slots: z.array(z.object({ start: z.string(), end: z.string(), label: z.string(), remaining: z.number().int().nullable() })),
});

export function registerHoursRoutes(app: FastifyInstance, deps: { db: Kysely<Database>; now?: () => Date }): void {
  const now = () => deps.now?.() ?? new Date();
  const settingsOf = async (storeId: number) => (await app.storeSettings.get(storeId, HOURS)).value;

  app.get(
    '/api/order/slots',
    {
      config: {
        docs: {
          summary: 'List the time slots a checkout may book',
          description:
            'The slots with room of one order type, from the preparation lead time on, for the days the store books ahead, in time order (times are UTC instants; `label` is the store-zone text). ' +
            '`asap` says whether an order without a slot is taken now. The order is checked again when saved: a slot that filled meanwhile answers 409.',
          tags: ['Order'],
          query: slotsQuerySchema,
          response: slotsResponseSchema,
          security: 'none',
          errors: { 400: 'order_type is missing or not pickup/delivery' },
        },
      },
    },
    async (request) => {
      const { order_type } = parseOr400(slotsQuerySchema, request.query);
      const store = request.store;
      const hours = await settingsOf(store.storeId);
      const at = now();
      const zone = zoneOf(store);
      const status = hoursStatus(hours, order_type, zone, at);
      const slots = availableSlots(hours, order_type, zone, at, await takenSlots(deps.db, store.storeId, order_type, at));
      return ok({ order_type, timezone: zone, status, asap: status.open, outside_hours: hours.outside_hours, slots });
    },
  );

  app.get(
    '/api/store/hours',
    {
      config: {
        docs: {
          summary: "Read the store's ordering hours and whether it is open now",
          description:
            'Per order type: open now / opens at … (store zone, exceptions included), the weekly hours; and the dated exceptions (holidays).',
          tags: ['Store'],
          security: 'none',
        },
      },
    },
    async (request) => {
      const store = request.store;
      const hours = await settingsOf(store.storeId);
      const at = now();
      const zone = zoneOf(store);
      const per = (t: HoursOrderType) => ({ status: hoursStatus(hours, t, zone, at), weekly: hours[t].weekly });
      return ok({
        timezone: zone,
        pickup: per('pickup'),
        delivery: per('delivery'),
        exceptions: hours.exceptions,
        outside_hours: hours.outside_hours,
      });
    },
  );
}
