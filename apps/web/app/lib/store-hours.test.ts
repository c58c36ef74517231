/**
 * Issue 14: the storefront's hours from the store's hours settings — status line with a holiday,
 * the week table Monday first, the exceptions of the next two weeks, delivery kept apart only when
 * its hours differ, and the default (no settings of the store's own) from the opening hours.
 */
import { hoursFromOpeningHours, type HoursSettings } from '@verdant/domain';
import { describe, expect, it } from 'vitest';
import { hoursOrDefault, sameHours, storeStatus, upcomingExceptions, weekTable } from './store-hours.ts';
import { parseStoresFile } from '@verdant/domain';
import demo from '../../../server/config/stores.demo.json' with { type: 'json' };
import { toPublicStore } from './store-view.ts';

const LA = 'America/Los_Angeles';
const OPENING = [
  ...['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map((day) => ({ day, open: '09:00', close: '21:00' })),
  { day: 'Sunday', open: '10:00', close: '18:00' },
];

const settings = (): HoursSettings => ({
  ...hoursFromOpeningHours(OPENING),
  exceptions: [
    { date: '2026-11-26', label: 'Thanksgiving', order_types: ['pickup', 'delivery'], closed: true },
    { date: '2026-11-27', label: '', order_types: ['pickup'], closed: false, open: '12:00', close: '17:30' },
    { date: '2026-12-25', label: 'Christmas', order_types: ['pickup', 'delivery'], closed: true },
    { date: '2026-11-20', label: 'Over', order_types: ['pickup', 'delivery'], closed: true },
  ],
});

describe('store hours from the hours settings', () => {
  it('says closed on a holiday and when the store opens next', () => {
    // Thursday 11/26/2026 11:00 PST: a Thursday is open 9–21, Thanksgiving closes it; Friday opens at noon.
    const thanksgiving = new Date('2026-11-26T19:00:00Z');
    expect(storeStatus(settings(), 'pickup', LA, thanksgiving)).toEqual({
      open: false,
      label: 'Closed · opens tomorrow 12 PM',
      opensAt: '2026-11-27T20:00:00.000Z',
    });
    // Delivery keeps its week on Friday.
    expect(storeStatus(settings(), 'delivery', LA, thanksgiving).label).toBe('Closed · opens tomorrow 9 AM');
    // The day before, in the afternoon: open.
    expect(storeStatus(settings(), 'pickup', LA, new Date('2026-11-25T22:00:00Z')).label).toBe('Open now · closes 9 PM');
  });

  it('lists the week Monday first, whatever order the console saved it in', () => {
    const s = settings();
    s.pickup.weekly = [
      { day: 'Sunday', open: '10:00', close: '18:00' },
      { day: 'Wednesday', open: '09:00', close: '21:00' },
      { day: 'Monday', open: '09:00', close: '20:00' },
    ];
    expect(weekTable(s, 'pickup')).toEqual([
      { day: 'Monday', open: '09:00', close: '20:00' },
      { day: 'Wednesday', open: '09:00', close: '21:00' },
      { day: 'Sunday', open: '10:00', close: '18:00' },
    ]);
  });

  it('lists the exceptions of the next two weeks of an order type, in date order, not the ones over', () => {
    const now = new Date('2026-11-25T22:00:00Z'); // 11/25/2026 14:00 PST
    expect(upcomingExceptions(settings(), 'pickup', LA, now)).toEqual([
      { date: '2026-11-26', shown: '11/26/2026', label: 'Thanksgiving', hours: 'Closed' },
      { date: '2026-11-27', shown: '11/27/2026', label: '', hours: '12:00 PM – 5:30 PM' },
    ]);
    expect(upcomingExceptions(settings(), 'delivery', LA, now).map((e) => e.date)).toEqual(['2026-11-26']);
    // Two weeks on from 12/12, Christmas is in; 11/26 is over (and today counts, in the store's zone:
    // 12/25 07:00 UTC is still 12/24 in Los Angeles).
    expect(upcomingExceptions(settings(), 'pickup', LA, new Date('2026-12-12T20:00:00Z')).map((e) => e.date)).toEqual(['2026-12-25']);
    expect(upcomingExceptions(settings(), 'pickup', LA, new Date('2026-12-10T20:00:00Z'))).toEqual([]);
    expect(upcomingExceptions(settings(), 'pickup', LA, new Date('2026-12-25T07:00:00Z')).map((e) => e.date)).toEqual(['2026-12-25']);
    expect(upcomingExceptions(settings(), 'pickup', LA, new Date('2026-12-26T09:00:00Z'))).toEqual([]);
  });

  it('keeps delivery apart only when its hours differ from pickup', () => {
    const s = settings();
    expect(sameHours(s)).toBe(false); // 11/27 is pickup only
    s.exceptions = s.exceptions.filter((e) => e.order_types.length === 2);
    expect(sameHours(s)).toBe(true);
    s.delivery.weekly = s.delivery.weekly.filter((w) => w.day !== 'Sunday');
    expect(sameHours(s)).toBe(false);
  });

  it('a store without settings of its own shows its opening hours, as before', () => {
    const store = parseStoresFile(demo).stores.find((s) => s.storeCode === 'downtown')!;
    const publicStore = toPublicStore(store);
    expect(publicStore.hours).toEqual(hoursFromOpeningHours(store.dispensarySettings.place_info.hours));
    expect(weekTable(publicStore.hours, 'pickup')).toEqual(store.dispensarySettings.place_info.hours);
    expect(hoursOrDefault(null, OPENING).exceptions).toEqual([]);
    const own = settings();
    expect(toPublicStore(store, own).hours).toBe(own);
  });
});
