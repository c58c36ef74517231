import { describe, expect, it } from 'vitest';
import { createNotificationStore, lifetimeOf, type Clock } from './notifications.ts';

/** A clock the test moves by hand. */
function manualClock() {
  let t = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let next = 1;
  const clock: Clock = {
    now: () => t,
    setTimeout: (fn, ms) => {
      const id = next++;
      timers.push({ at: t + ms, fn, id });
      return id;
    },
    clearTimeout: (id) => void (timers = timers.filter((x) => x.id !== id)),
  };
  const advance = (ms: number) => {
    t += ms;
    const due = timers.filter((x) => x.at <= t);
    timers = timers.filter((x) => x.at > t);
    due.forEach((x) => x.fn());
  };
  return { clock, advance };
}

describe('notifications (spec §4, §9: 5000 ms, no duplicates)', () => {
  it('lives 5000 ms unless hasNoTimeout or its own timeToLive', () => {
    expect(lifetimeOf({})).toBe(5000);
    expect(lifetimeOf({ timeToLive: 8000 })).toBe(8000);
    expect(lifetimeOf({ hasNoTimeout: true, timeToLive: 10 })).toBeNull();
    // An action that goes somewhere never times out (WCAG 2.2.1); an OK-only notice does.
    expect(lifetimeOf({ action1: { label: 'OK' }, action2: { label: 'Proceed to checkout', href: '/checkout' } })).toBeNull();
    expect(lifetimeOf({ action1: { label: 'OK' } })).toBe(5000);
    const { clock, advance } = manualClock();
    const s = createNotificationStore(clock);
    s.getState().notify({ type: 'success', message: 'Product has been added to the cart!' });
    s.getState().notify({ type: 'error', message: 'Stays', hasNoTimeout: true });
    s.getState().notify({ type: 'info', message: 'Short', timeToLive: 1000 });
    advance(1000);
    expect(s.getState().items.map((n) => n.message)).toEqual(['Product has been added to the cart!', 'Stays']);
    advance(4000);
    expect(s.getState().items.map((n) => n.message)).toEqual(['Stays']);
    s.getState().dismiss(s.getState().items[0].id);
    expect(s.getState().items).toEqual([]);
  });

  it('does not repeat an identical consecutive message, and restarts its clock', () => {
    const { clock, advance } = manualClock();
    const s = createNotificationStore(clock);
    const first = s.getState().notify({ type: 'success', message: 'Product quantity has been updated!' });
    advance(4000);
    expect(s.getState().notify({ type: 'success', message: 'Product quantity has been updated!' })).toBe(first);
    expect(s.getState().items).toHaveLength(1);
    advance(4000);
    expect(s.getState().items).toHaveLength(1);
    advance(1000);
    expect(s.getState().items).toHaveLength(0);
    s.getState().notify({ type: 'success', message: 'A' });
    s.getState().notify({ type: 'success', message: 'B' });
    s.getState().notify({ type: 'success', message: 'A' });
    expect(s.getState().items.map((n) => n.message)).toEqual(['A', 'B', 'A']);
  });

  it('pauses while the shopper is inside the list, then gives at least a second more', () => {
    const { clock, advance } = manualClock();
    const s = createNotificationStore(clock);
    s.getState().notify({ type: 'success', message: 'Added' });
    advance(4900);
    s.getState().pause();
    advance(60_000);
    expect(s.getState().items).toHaveLength(1);
    s.getState().resume();
    advance(999);
    expect(s.getState().items).toHaveLength(1);
    advance(1);
    expect(s.getState().items).toHaveLength(0);
  });
});
