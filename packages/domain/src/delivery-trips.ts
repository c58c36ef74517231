/**
 * Limits per delivery trip (issue 29 "Drivers, vehicles, trips"): the store setting `delivery-trips`
 * — what one vehicle may carry — with state presets and where each comes from
 * (../../shared/research/market-and-regulation.md §1c and §4). A trip over a limit cannot start;
 * the refusal names the limit and by how much.
 *  - goods value: the orders' totals after deals (what the customers pay for the goods on board);
 *  - weight: the orders' cannabis weight as flower-equivalent grams (the order's
 *    `thc_equivalent_grams`, the measure purchase limits use);
 *  - orders per trip.
 * `null` is no limit.
 */
import { z } from 'zod';
import { formatMoney, type MoneyLocale } from './money.ts';

export const TRIP_LIMIT_PRESETS = ['CA', 'MI', 'none', 'custom'] as const;
export type TripLimitPreset = (typeof TRIP_LIMIT_PRESETS)[number];

export interface TripLimits {
  /** Which preset the numbers came from; `custom` once the store changed one. */
  preset: TripLimitPreset;
  max_goods_cents: number | null;
  max_weight_grams: number | null;
  max_orders: number | null;
  /**
   * The driver's phone (issue 29): whether the driver sees the customer's own phone number (call and
   * text links). false (the default): the phone's links go to the store's number, the order number in
   * the text's body, and the store relays.
   */
  drivers_see_customer_phone: boolean;
}

export const GRAMS_PER_OUNCE = 28.349523125;

export interface TripLimitPresetInfo {
  title: string;
  limits: Omit<TripLimits, 'preset' | 'drivers_see_customer_phone'>;
  sources: string[];
}

export const TRIP_LIMIT_PRESET_INFO: Readonly<Record<TripLimitPreset, TripLimitPresetInfo>> = {
  CA: {
    title: 'California: at most $10,000 of goods in the vehicle',
    limits: { max_goods_cents: 1_000_000, max_weight_grams: null, max_orders: null },
    sources: [
      '4 CCR §15418 (goods carried by a delivery employee; the ledger is updated after each stop)',
      '$10,000 per vehicle since 1 January 2023 (earlier $5,000): getmeadow.com/blog/california-cannabis-regulatory-changes-delivery-trunk-sizes-increase-to',
    ],
  },
  MI: {
    title: 'Michigan: at most 15 ounces per driver',
    limits: { max_goods_cents: null, max_weight_grams: Math.round(15 * GRAMS_PER_OUNCE * 100) / 100, max_orders: null },
    sources: ['Michigan delivery rules, at most 15 oz per driver and GPS (AP, 2019: wiltonbulletin.com)'],
  },
  none: {
    title: 'No state limit known: the store sets its own',
    limits: { max_goods_cents: null, max_weight_grams: null, max_orders: null },
    sources: [],
  },
  custom: {
    title: "The store's own limits",
    limits: { max_goods_cents: null, max_weight_grams: null, max_orders: null },
    sources: [],
  },
};

/** The preset of a store's state (its address's region code): CA, MI, else none. */
export function tripLimitPresetFor(regionCode: string | null | undefined): TripLimitPreset {
  const code = (regionCode ?? '').toUpperCase();
  return code === 'CA' || code === 'MI' ? code : 'none';
}

export function tripLimitsOfPreset(preset: TripLimitPreset): TripLimits {
  return { preset, ...TRIP_LIMIT_PRESET_INFO[preset].limits, drivers_see_customer_phone: false };
}

export const tripLimitsSchema: z.ZodType<TripLimits, Omit<TripLimits, 'drivers_see_customer_phone'> & { drivers_see_customer_phone?: boolean }> = z
  .object({
    preset: z.enum(TRIP_LIMIT_PRESETS, { message: `preset must be one of: ${TRIP_LIMIT_PRESETS.join(', ')}.` }),
    max_goods_cents: z.number({ message: 'max_goods_cents must be a whole number of cents or null.' }).int('max_goods_cents must be a whole number of cents.').positive('max_goods_cents must be more than 0.').max(100_000_000).nullable(),
    max_weight_grams: z.number({ message: 'max_weight_grams must be a number of grams or null.' }).positive('max_weight_grams must be more than 0.').max(1_000_000).nullable(),
    max_orders: z.number({ message: 'max_orders must be a whole number or null.' }).int('max_orders must be a whole number.').min(1, 'max_orders must be at least 1.').max(500).nullable(),
    // Absent in values saved before issue 29's driver's phone: false.
    drivers_see_customer_phone: z.boolean({ message: 'drivers_see_customer_phone is true or false.' }).default(false),
  })
  .strict();

export interface TripLoad {
  goodsCents: number;
  weightGrams: number;
  orders: number;
}

export type TripLimitName = 'goods' | 'weight' | 'orders';

export interface TripLimitProblem {
  limit: TripLimitName;
  /** How much over, in the limit's unit (cents, grams, orders). */
  over: number;
  message: string;
}

const GRAMS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const grams = (g: number) => `${GRAMS.format(Math.round(g * 100) / 100)} g`;

export const TRIP_LIMIT_MESSAGES = {
  goods: (load: number, over: number, max: number, money?: MoneyLocale) =>
    `Goods on this trip are ${formatMoney(load, money)}, ${formatMoney(over, money)} over the ${formatMoney(max, money)} limit.`,
  weight: (load: number, over: number, max: number) => `Cannabis on this trip weighs ${grams(load)}, ${grams(over)} over the ${grams(max)} limit.`,
  orders: (load: number, over: number, max: number) =>
    `This trip has ${load} orders, ${over} over the limit of ${max} ${max === 1 ? 'order' : 'orders'} per trip.`,
} as const;

/** Every limit the load is over, with the words the console shows; empty: the trip may start. */
export function tripLimitProblems(limits: TripLimits, load: TripLoad, money?: MoneyLocale): TripLimitProblem[] {
  const out: TripLimitProblem[] = [];
  if (limits.max_goods_cents != null && load.goodsCents > limits.max_goods_cents) {
    const over = load.goodsCents - limits.max_goods_cents;
    out.push({ limit: 'goods', over, message: TRIP_LIMIT_MESSAGES.goods(load.goodsCents, over, limits.max_goods_cents, money) });
  }
  // Compared in hundredths of a gram: sums of fractions must not refuse a load exactly at the limit.
  const w = Math.round(load.weightGrams * 100);
  if (limits.max_weight_grams != null && w > Math.round(limits.max_weight_grams * 100)) {
    const over = (w - Math.round(limits.max_weight_grams * 100)) / 100;
    out.push({ limit: 'weight', over, message: TRIP_LIMIT_MESSAGES.weight(w / 100, over, limits.max_weight_grams) });
  }
  if (limits.max_orders != null && load.orders > limits.max_orders) {
    const over = load.orders - limits.max_orders;
    out.push({ limit: 'orders', over, message: TRIP_LIMIT_MESSAGES.orders(load.orders, over, limits.max_orders) });
  }
  return out;
}
