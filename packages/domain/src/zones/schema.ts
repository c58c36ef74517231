/**
 * The `zones` settings section (issue 14, delivery zones): its zod schema. Kept apart from
 * ./rules.ts so browser code that only decides or displays zones does not pull zod in.
 *
 * A store lists its delivery zones; each is one of
 * - `zips`: a list of 5-digit ZIP codes;
 * - `distance`: a tier of straight-line distance from the store's place (`place_info` lat/lng),
 *   from `min_miles` (exclusive, 0 = the store itself) up to `max_miles` (inclusive);
 * - `polygon`: a GeoJSON Polygon or MultiPolygon (coordinates `[lng, lat]`, as GeoJSON has them);
 *   the address's ZIP centre inside it (its edge counts as inside, holes do not).
 * and each has a fee (before tax and tax included, cents), a minimum order, an optional
 * free-delivery threshold and an estimated time. An empty list means the store does not deliver.
 */
import { z } from 'zod';

/** The bound of every price (menu file, quick edits): under $100,000, so at most $99,999.99. */
export const ZONE_MAX_CENTS = 99_999_99;
const cents = z.number().int().min(0).max(ZONE_MAX_CENTS, 'an amount is at most $99,999.99 (cents: 9999999)');
const lng = z.number().min(-180).max(180);
const lat = z.number().min(-90).max(90);
const position = z.tuple([lng, lat]).or(z.tuple([lng, lat, z.number()]));
/** A closed ring: at least 4 positions, the last equal to the first (GeoJSON RFC 7946 §3.1.6). */
const ring = z
  .array(position)
  .min(4, 'a polygon ring needs at least 4 positions (the last one repeating the first)')
  .refine((r) => r[0][0] === r[r.length - 1][0] && r[0][1] === r[r.length - 1][1], 'a polygon ring must end where it starts');
const polygonCoordinates = z.array(ring).min(1, 'a polygon needs its outer ring');

export const geometrySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Polygon'), coordinates: polygonCoordinates }),
  z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(polygonCoordinates).min(1) }),
]);

const common = {
  name: z.string().trim().min(1).max(80),
  /** Fee before tax, cents (spec §9: 4.00). */
  fee: cents,
  /** Fee the shopper pays, tax included, cents (spec §9: 5.00): what the totals' shipping segment charges. */
  fee_incl_tax: cents,
  /** Order value (subtotal after discounts, before taxes) under which delivery is refused; 0 = none. */
  minimum_order: cents.default(0),
  /** Order value from which delivery is free; null = never free. */
  free_over: cents.nullable().default(null),
  /** Shown to the shopper, e.g. 45 → "about 45 min". */
  eta_minutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60),
};

export const zoneSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('zips'), ...common, zips: z.array(z.string().regex(/^\d{5}$/, 'a ZIP code is 5 digits')).min(1) }),
    z.object({
      type: z.literal('distance'),
      ...common,
      min_miles: z.number().min(0).default(0),
      max_miles: z.number().positive().max(500),
    }),
    z.object({ type: z.literal('polygon'), ...common, geometry: geometrySchema }),
  ])
  .refine((zone) => zone.fee <= zone.fee_incl_tax, { message: 'fee before tax cannot exceed the fee including tax', path: ['fee'] })
  .refine((zone) => zone.type !== 'distance' || zone.min_miles < zone.max_miles, {
    message: 'min_miles must be under max_miles',
    path: ['min_miles'],
  });

export const zonesSchema = z
  .object({ zones: z.array(zoneSchema).max(100) })
  .refine((v) => new Set(v.zones.map((zone) => zone.name)).size === v.zones.length, {
    message: 'zone names must be different',
    path: ['zones'],
  });

export type DeliveryZone = z.infer<typeof zoneSchema>;
export type DeliveryZones = z.infer<typeof zonesSchema>;
export type ZoneGeometry = z.infer<typeof geometrySchema>;
