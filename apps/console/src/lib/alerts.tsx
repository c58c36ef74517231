/**
 * New orders that cannot be missed (issue 26), for every signed-in console page — the queue, an
 * order, the menu, settings, and the Staff and Account pages too (they watch the store last worked
 * in). One live stream per tab, opened here, above the pages, so it stays open across navigation:
 *  - a new order chimes, is announced, shows in the "New orders" banner on every page and, when staff
 *    turned them on (a click asks the browser), raises a system notification;
 *  - while any order waits unopened the chime repeats every 30 s (unless muted) and the banner says
 *    how long each has waited;
 *  - "New" is the server's: an order nobody opened yet (`opened_at`), so the flags survive a reload and
 *    another device; opening the order ends it everywhere (POST …/opened, pushed to every console);
 *  - mute lasts for this browser tab's session only (sessionStorage): a new shift starts with sound.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api } from './api.ts';
import { chime, useStoreEvents, type LiveOrderEvent, type LiveState } from './live.ts';
import { useSession } from './session.tsx';
import type { ConsoleStore, OrderList } from './types.ts';

export const REMINDER_MS = 30_000;

export interface WaitingOrder {
  id: number;
  increment_id: string;
  order_type: 'pickup' | 'delivery';
  created_at: string;
}

export interface LiveAlerts {
  /** The store watched: the one in the address, else the last one worked in (or the member's only store). */
  store: ConsoleStore | null;
  liveTick: number;
  lastEvent: LiveOrderEvent | null;
  liveState: LiveState;
  /** Orders waiting to be confirmed that nobody opened yet, oldest first. */
  newOrders: WaitingOrder[];
  unseen: ReadonlySet<number>;
  markSeen(orderId: number): void;
  markAllSeen(): void;
  muted: boolean;
  setMuted(muted: boolean): void;
  /** Ticks every 30 s: "waiting N min" labels follow it. */
  now: number;
  notifications: NotificationPermission | 'unsupported';
  enableNotifications(): void;
  /**
   * What the live region says: the announcements of the last ANNOUNCE_KEEP_MS, oldest first, each its
   * own line. A new order arriving a moment after a curbside arrival must not wipe the arrival before
   * a screen reader reads it (each added line is read on its own).
   */
  announcements: readonly Announcement[];
}

export interface Announcement {
  id: number;
  text: string;
}

const ANNOUNCE_KEEP_MS = 15_000;
const ANNOUNCE_MAX = 5;

/**
 * What a store's pages read of the alerts (through the store layout's outlet): the live stream of
 * the store in the address, the unseen orders, the mute switch and the clock.
 */
export type StoreAlerts = Pick<LiveAlerts, 'liveTick' | 'lastEvent' | 'liveState' | 'unseen' | 'markSeen' | 'markAllSeen' | 'muted' | 'setMuted' | 'now'>;

/** The alerts for a store's pages: its live stream only when it is the store watched (`same`), else waiting to connect. */
export function storeAlerts(alerts: LiveAlerts, same: boolean): StoreAlerts {
  return {
    liveTick: same ? alerts.liveTick : 0,
    lastEvent: same ? alerts.lastEvent : null,
    liveState: same ? alerts.liveState : 'connecting',
    unseen: alerts.unseen,
    markSeen: alerts.markSeen,
    markAllSeen: alerts.markAllSeen,
    muted: alerts.muted,
    setMuted: alerts.setMuted,
    now: alerts.now,
  };
}

const AlertsContext = createContext<LiveAlerts | null>(null);

/** The alerts when signed in; null on the public pages (log-in, password reset). */
export function useOptionalAlerts(): LiveAlerts | null {
  return useContext(AlertsContext);
}

export function useAlerts(): LiveAlerts {
  const value = useContext(AlertsContext);
  if (!value) throw new Error('useAlerts outside <AlertsProvider>');
  return value;
}

const MUTE_KEY = 'verdant-console:mute';
const STORE_KEY = 'verdant-console:store';

function sessionGet(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}
function sessionSet(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // No storage (private mode): the choice lasts for this page.
  }
}

/** `waiting 4 min` from when the order was placed. */
export function waitingText(createdAt: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(createdAt)) / 60_000));
  if (minutes < 1) return 'waiting under 1 min';
  if (minutes < 120) return `waiting ${minutes} min`;
  return `waiting ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function notificationState(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export function AlertsProvider({ children }: { children: ReactNode }) {
  const { stores } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const inPath = /^\/stores\/(\d+)(?:\/|$)/.exec(location.pathname)?.[1] ?? null;
  const [remembered, setRemembered] = useState<string | null>(() => sessionGet(STORE_KEY));
  useEffect(() => {
    if (inPath && inPath !== remembered) {
      setRemembered(inPath);
      sessionSet(STORE_KEY, inPath);
    }
  }, [inPath, remembered]);
  const storeId = inPath ?? remembered ?? (stores.length === 1 ? String(stores[0].id) : null);
  const store = stores.find((s) => String(s.id) === storeId) ?? null;

  const [liveTick, setLiveTick] = useState(0);
  const [lastEvent, setLastEvent] = useState<LiveOrderEvent | null>(null);
  const [announcements, setAnnouncements] = useState<(Announcement & { at: number })[]>([]);
  const announceSeq = useRef(0);
  const setAnnouncement = useCallback((text: string) => {
    const at = Date.now();
    const id = ++announceSeq.current;
    setAnnouncements((list) => [...list.filter((a) => at - a.at < ANNOUNCE_KEEP_MS), { id, text, at }].slice(-ANNOUNCE_MAX));
  }, []);
  const [waiting, setWaiting] = useState<WaitingOrder[]>([]);
  const [opened, setOpened] = useState<ReadonlySet<number>>(new Set());
  const [muted, setMutedState] = useState(() => sessionGet(MUTE_KEY) === '1');
  const [now, setNow] = useState(() => Date.now());
  const [notifications, setNotifications] = useState(notificationState);
  const mutedRef = useRef(muted);
  mutedRef.current = muted;

  const setMuted = useCallback((value: boolean) => {
    setMutedState(value);
    sessionSet(MUTE_KEY, value ? '1' : '0');
  }, []);

  // The store's orders waiting to be confirmed that nobody opened: read at every (re)connect and push.
  const readTicket = useRef(0);
  const readWaiting = useCallback(async (id: number) => {
    const ticket = ++readTicket.current;
    try {
      const list = await api<OrderList>('GET', `/stores/${id}/orders?status=submitted&sort=slot&limit=100`);
      if (ticket !== readTicket.current) return;
      setWaiting(
        list.items
          .filter((o) => !o.opened_at)
          .map((o) => ({ id: o.id, increment_id: o.increment_id, order_type: o.order_type, created_at: o.created_at }))
          .sort((a, b) => a.created_at.localeCompare(b.created_at)),
      );
    } catch {
      // The banner keeps what it had; the next push or reconnect reads again.
    }
  }, []);
  useEffect(() => {
    setWaiting([]);
    setOpened(new Set());
  }, [store?.id]);

  const notify = useCallback(
    (event: LiveOrderEvent) => {
      if (notificationState() !== 'granted' || !store) return;
      try {
        const n = new Notification(`New ${event.order_type} order #${event.increment_id}`, {
          body: `${store.name}: open it in the console.`,
          tag: `verdant-order-${event.order_id}`,
        });
        n.onclick = () => {
          window.focus();
          navigate(`/stores/${store.id}/orders/${event.order_id}`);
          n.close();
        };
      } catch {
        // Some browsers only notify from a service worker: the banner and the chime still tell.
      }
    },
    [navigate, store],
  );

  // Issue 29: per order, the car and bay last announced in this tab ("car|bay").
  const arrived = useRef(new Map<number, string>());
  const onEvent = useCallback(
    (event: LiveOrderEvent) => {
      setLastEvent(event);
      setLiveTick((n) => n + 1);
      if (event.type === 'order.created') {
        setWaiting((list) =>
          list.some((o) => o.id === event.order_id)
            ? list
            : [...list, { id: event.order_id, increment_id: event.increment_id, order_type: event.order_type, created_at: new Date().toISOString() }],
        );
        setAnnouncement(`New ${event.order_type} order #${event.increment_id}.`);
        if (!mutedRef.current) chime();
        notify(event);
      }
      // Issue 29: a curbside shopper said "I'm here" — the first time for this order in this tab, or
      // again with another car description or bay (staff walking out need the new one): announce and chime.
      // The same car and bay sent again (a double tap, a retry) stays quiet.
      if (event.type === 'order.updated' && event.curbside) {
        const key = `${event.curbside.car ?? ''}|${event.curbside.bay ?? ''}`;
        const before = arrived.current.get(event.order_id);
        if (before !== key) {
          arrived.current.set(event.order_id, key);
          const where = [event.curbside.bay ? `bay ${event.curbside.bay}` : null, event.curbside.car].filter(Boolean).join(', ');
          setAnnouncement(
            before === undefined
              ? `Curbside: order #${event.increment_id} is here${where ? ` (${where})` : ''}.`
              : `Curbside: order #${event.increment_id} changed${where ? ` to ${where}` : ''}.`,
          );
          if (!mutedRef.current) chime();
        }
      }
      if (store) void readWaiting(store.id);
    },
    [notify, readWaiting, setAnnouncement, store],
  );
  const onConnected = useCallback(() => {
    setLiveTick((n) => n + 1);
    if (store) void readWaiting(store.id);
  }, [readWaiting, store]);
  const liveState = useStoreEvents(store ? store.id : null, onEvent, onConnected);

  const newOrders = useMemo(() => waiting.filter((o) => !opened.has(o.id)), [waiting, opened]);
  const unseen = useMemo(() => new Set(newOrders.map((o) => o.id)), [newOrders]);

  // The reminder: every 30 s while an order waits unopened, a chime (unless muted); the clock for "waiting N min".
  const pending = useRef(0);
  pending.current = newOrders.length;
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
      if (pending.current > 0 && !mutedRef.current) chime();
    }, REMINDER_MS);
    return () => clearInterval(timer);
  }, []);

  // The tab title carries the count of new orders until each is opened (pages set the rest: useTitle).
  useEffect(() => {
    const base = document.title.replace(/^\(\d+\) /, '');
    document.title = unseen.size > 0 ? `(${unseen.size}) ${base}` : base;
  }, [unseen]);

  const markSeen = useCallback(
    (orderId: number) => {
      setOpened((set) => (set.has(orderId) ? set : new Set(set).add(orderId)));
      if (store) void api('POST', `/stores/${store.id}/orders/${orderId}/opened`, {}).catch(() => undefined);
    },
    [store],
  );
  const markAllSeen = useCallback(() => {
    for (const o of newOrders) markSeen(o.id);
  }, [newOrders, markSeen]);

  const enableNotifications = useCallback(() => {
    if (typeof Notification === 'undefined') return;
    void Notification.requestPermission().then((p) => setNotifications(p));
  }, []);

  const value = useMemo<LiveAlerts>(
    () => ({
      store,
      liveTick,
      lastEvent,
      liveState,
      newOrders,
      unseen,
      markSeen,
      markAllSeen,
      muted,
      setMuted,
      now,
      notifications,
      enableNotifications,
      announcements,
    }),
    [store, liveTick, lastEvent, liveState, newOrders, unseen, markSeen, markAllSeen, muted, setMuted, now, notifications, enableNotifications, announcements],
  );
  return <AlertsContext.Provider value={value}>{children}</AlertsContext.Provider>;
}
