/**
 * Notifications (spec §3 Notification, §4 Notifications, §8 notices): id, message, type, two
 * actions, hasNoTimeout, timeToLive. A notice shows for 5000 ms unless it has no timeout or its
 * own time to live, or an action that goes somewhere; the same message twice in a row is not shown twice. Timers pause while the
 * shopper points at or is inside the list (WCAG 2.2.1: a notice with buttons must not vanish
 * under the pointer or the keyboard focus).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { NOTIFICATION_TTL_MS } from '../lib/cart-config.ts';

export type NotificationType = 'success' | 'info' | 'warning' | 'error';

export interface NotificationAction {
  label: string;
  /** A store path to go to (Proceed to checkout); without it the action only closes the notice. */
  href?: string;
}

export interface NotificationInput {
  type: NotificationType;
  message: string;
  action1?: NotificationAction;
  action2?: NotificationAction;
  hasNoTimeout?: boolean;
  timeToLive?: number;
}

export interface Notification extends NotificationInput {
  id: number;
}

export interface NotificationState {
  items: Notification[];
  /** Show a notice; returns its id (the existing one when it repeats the last message). */
  notify(input: NotificationInput): number;
  dismiss(id: number): void;
  /** Stop the clocks (pointer or focus inside the list) / start them again. */
  pause(): void;
  resume(): void;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * How long a notice stays, or null when it stays until dismissed. A notice whose action goes
 * somewhere (Proceed to checkout) stays: an action must not vanish before it can be used
 * (WCAG 2.2.1 Timing adjustable). It is still dismissed when the shopper leaves the page.
 */
export function lifetimeOf(n: Pick<NotificationInput, 'hasNoTimeout' | 'timeToLive' | 'action1' | 'action2'>): number | null {
  if (n.hasNoTimeout || n.action1?.href || n.action2?.href) return null;
  return n.timeToLive != null && n.timeToLive > 0 ? n.timeToLive : NOTIFICATION_TTL_MS;
}

export function createNotificationStore(clock: Clock = realClock): StoreApi<NotificationState> {
  let nextId = 1;
  let paused = false;
  /** Per id: the running timer and when it ends, or what was left when paused. */
  const timers = new Map<number, { handle: unknown; endsAt: number; left: number }>();

  const store = createStore<NotificationState>()((set, get) => {
    const start = (id: number, ms: number) => {
      const t = { handle: null as unknown, endsAt: clock.now() + ms, left: ms };
      if (!paused) t.handle = clock.setTimeout(() => get().dismiss(id), ms);
      timers.set(id, t);
    };
    return {
      items: [],
      notify: (input) => {
        const last = get().items.at(-1);
        if (last && last.message === input.message && last.type === input.type) {
          // Not duplicated; its clock starts again so the repeat is seen as long as a new one would be.
          const ms = lifetimeOf(last);
          const t = timers.get(last.id);
          if (t) clock.clearTimeout(t.handle);
          if (ms != null) start(last.id, ms);
          return last.id;
        }
        const id = nextId++;
        set({ items: [...get().items, { ...input, id }] });
        const ms = lifetimeOf(input);
        if (ms != null) start(id, ms);
        return id;
      },
      dismiss: (id) => {
        const t = timers.get(id);
        if (t) clock.clearTimeout(t.handle);
        timers.delete(id);
        if (get().items.some((n) => n.id === id)) set({ items: get().items.filter((n) => n.id !== id) });
      },
      pause: () => {
        if (paused) return;
        paused = true;
        for (const t of timers.values()) {
          clock.clearTimeout(t.handle);
          t.left = Math.max(0, t.endsAt - clock.now());
          t.handle = null;
        }
      },
      resume: () => {
        if (!paused) return;
        paused = false;
        for (const [id, t] of timers) start(id, Math.max(t.left, 1000));
      },
    };
  });
  return store;
}

/** The page's notices (one per page life; on the server nothing is ever notified). */
export const notifications = createNotificationStore();

export function notify(input: NotificationInput): number {
  return notifications.getState().notify(input);
}
