import { describe, expect, it } from 'vitest';
import { distanceMiles } from './delivery.ts';
import { DELIVERY_PROGRESS_MESSAGES } from './messages.ts';
import { DEFAULT_TRIP_PACE, ROAD_FACTOR, remainingStopMinutes, roundMinutes, tripProgress } from './trip-progress.ts';
import { tripLimitsSchema } from './delivery-trips.ts';

const STORE = { lat: 38.5816, lng: -121.4944 }; // downtown Sacramento
const A = { lat: 38.5556, lng: -121.4383 }; // 95819
const B = { lat: 38.6, lng: -121.4 };

describe('remainingStopMinutes', () => {
  it('drives each leg at the average speed (road factor on the straight line) and adds the minutes at each stop before', () => {
    const pace = { average_mph: 30, minutes_per_stop: 4 };
    const [a, b] = remainingStopMinutes(STORE, [A, B], pace);
    const legA = ((distanceMiles(STORE, A) * ROAD_FACTOR) / 30) * 60;
    const legB = ((distanceMiles(A, B) * ROAD_FACTOR) / 30) * 60;
    expect(a).toBeCloseTo(legA, 6);
    expect(b).toBeCloseTo(legA + 4 + legB, 6);
  });

  it('uses the defaults (20 mph, 5 min a stop) and a stop at the same place costs only the door', () => {
    expect(DEFAULT_TRIP_PACE).toEqual({ average_mph: 20, minutes_per_stop: 5 });
    expect(remainingStopMinutes(A, [A, A, A])).toEqual([0, 5, 10]);
  });

  it('a stop whose ZIP is unknown adds its door minutes; the drive is counted to the next known point', () => {
    const pace = { average_mph: 20, minutes_per_stop: 5 };
    const [, , b] = remainingStopMinutes(STORE, [A, null, B], pace);
    const drive = ((distanceMiles(STORE, A) + distanceMiles(A, B)) * ROAD_FACTOR * 3);
    expect(b).toBeCloseTo(drive + 10, 6);
    // Nowhere to start from (no store point): the first leg is unknown, the rest is driven.
    const [first, second] = remainingStopMinutes(null, [A, B], pace);
    expect(first).toBe(0);
    expect(second).toBeCloseTo(5 + distanceMiles(A, B) * ROAD_FACTOR * 3, 6);
  });

  it('a speed of 0 falls back to the default instead of dividing by it', () => {
    expect(remainingStopMinutes(STORE, [A], { average_mph: 0, minutes_per_stop: 5 })[0]).toBeCloseTo(remainingStopMinutes(STORE, [A])[0]!, 6);
  });

  it('nothing left: nothing to estimate', () => {
    expect(remainingStopMinutes(STORE, [])).toEqual([]);
  });
});

describe('the words', () => {
  it('rounds up to whole minutes, at least 1, and past 10 to the nearest 5', () => {
    expect([0, 0.2, 1, 4.1, 9.99, 10, 11, 12.4, 13, 23, 26, 61].map(roundMinutes)).toEqual([1, 1, 1, 5, 10, 10, 10, 15, 15, 25, 25, 60]);
  });

  it('says the issue\'s sentence, "you are next" for the next stop', () => {
    expect(tripProgress(2, 24.2)).toEqual({ stop: 3, minutes: 25, text: 'Your driver is on the way — you are stop 3, about 25 minutes' });
    expect(tripProgress(0, 3.2).text).toBe('Your driver is on the way — you are next, about 4 minutes');
    expect(tripProgress(0, 0.4).text).toBe('Your driver is on the way — you are next, about 1 minute');
  });

  it('the near message: the store and order first, plain characters in the SMS', () => {
    const sms = DELIVERY_PROGRESS_MESSAGES.nearSms('Verdant Downtown', 'DO-100042');
    expect(sms).toBe('Verdant Downtown: order #DO-100042 is about 10 minutes away. Have your ID ready.');
    expect(/^[\x20-\x7e]*$/.test(sms)).toBe(true);
    const mail = DELIVERY_PROGRESS_MESSAGES.nearEmail('Verdant Downtown', 'DO-100042', 'Ana Reyes');
    expect(mail.subject).toBe('Order #DO-100042 is about 10 minutes away');
    expect(mail.text).toContain('Hello Ana Reyes,');
    expect(mail.text).toContain('Your driver is about 10 minutes away with your order #DO-100042.');
  });
});

describe('the store settings (delivery-trips)', () => {
  const base = { preset: 'CA', max_goods_cents: 1_000_000, max_weight_grams: null, max_orders: null };
  it('the pace and the channel are optional (a value saved before them still reads)', () => {
    // drivers_see_customer_phone (the driver's phone) is defaulted the same way.
    expect(tripLimitsSchema.parse(base)).toEqual({ ...base, drivers_see_customer_phone: false });
    expect(tripLimitsSchema.parse({ ...base, average_mph: 25, minutes_per_stop: 3, near_message: 'email' })).toMatchObject({ average_mph: 25, near_message: 'email' });
  });
  it('refuses a speed or a stop time out of range, and another channel, in plain words', () => {
    const r = tripLimitsSchema.safeParse({ ...base, average_mph: 0, minutes_per_stop: -1, near_message: 'fax' });
    expect(r.success).toBe(false);
    const messages = r.error!.issues.map((i) => i.message);
    expect(messages).toEqual(['average_mph must be at least 3.', 'minutes_per_stop must be 0 or more.', 'near_message must be sms or email.']);
  });
});
