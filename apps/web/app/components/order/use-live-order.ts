import { useEffect, useRef, useState } from 'react';
import { NetworkError } from '../../api/envelope.ts';
import { isSettled, statusAnnouncement, type OrderStatusView } from '../../lib/order-status.ts';

export interface LiveOrder<T extends OrderStatusView> {
  order: T;
  /** The last status change heard while the page was open, worded for the live region. */
  announcement: string;
  /** Why the status shown may be old (offline, or the last refresh failed), else null. */
  staleNote: string | null;
}

export const STALE_COPY = {
  offline: 'You are offline. This is the last status we received; it updates again when you are back online.',
  failed: 'We could not refresh the status just now. This is the last status we received.',
} as const;

/**
 * Keeps an open order's status fresh: asks `fetchStatus` every `intervalMs` while the page is
 * visible and the order can still change (stops when hidden or at a final status, asks at once
 * when shown again or back online). A failed refresh keeps the last known state with a note,
 * never blanks it. Timers run only in the browser, so the first render equals the server's.
 */
export function useLiveOrder<T extends OrderStatusView>(
  initial: T,
  fetchStatus: () => Promise<T>,
  intervalMs: number,
  timeZone: string,
): LiveOrder<T> {
  const [order, setOrder] = useState(initial);
  const [announcement, setAnnouncement] = useState('');
  const [staleNote, setStaleNote] = useState<string | null>(null);
  const latest = useRef(initial);
  const fetchRef = useRef(fetchStatus);
  fetchRef.current = fetchStatus;

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight = false;
    let stopped = false;
    const visible = () => document.visibilityState === 'visible';
    const schedule = () => {
      clearTimeout(timer);
      if (!stopped && visible() && !isSettled(latest.current)) timer = setTimeout(() => void refresh(), intervalMs);
    };
    const refresh = async () => {
      if (inFlight || stopped || isSettled(latest.current)) return;
      inFlight = true;
      try {
        const next = await fetchRef.current();
        if (stopped) return;
        const said = statusAnnouncement(latest.current, next, timeZone);
        latest.current = next;
        setOrder(next);
        setStaleNote(null);
        if (said) setAnnouncement(said);
      } catch (e) {
        if (!stopped) setStaleNote(e instanceof NetworkError || !navigator.onLine ? STALE_COPY.offline : STALE_COPY.failed);
      } finally {
        inFlight = false;
        schedule();
      }
    };
    const wake = () => {
      if (visible()) void refresh();
      else clearTimeout(timer);
    };
    const offline = () => setStaleNote(STALE_COPY.offline);
    document.addEventListener('visibilitychange', wake);
    window.addEventListener('online', wake);
    window.addEventListener('offline', offline);
    schedule();
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', wake);
      window.removeEventListener('online', wake);
      window.removeEventListener('offline', offline);
    };
  }, [intervalMs, timeZone]);

  return { order, announcement, staleNote };
}
