/**
 * Starts the store's sync-task queue (app/offline/app-sync.ts) for a logged-in customer: once the
 * page is idle after load (tasks left from an earlier visit go out) and again whenever the
 * browser is back online. The queue code is loaded by dynamic import here, so it never enters the
 * first-paint bundle; guests (who have no account writes) never load it.
 */
import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { useOnline } from '../lib/use-online.ts';
import type { AuthState } from './auth-types.ts';

export const loadAppSync = () => import('../offline/app-sync.ts');

/** The store's queue, loaded on demand (null during SSR). */
export async function appSyncOf(storeCode: string, auth: StoreApi<AuthState>) {
  if (typeof window === 'undefined') return null;
  return (await loadAppSync()).appSyncFor(storeCode, auth);
}

/** Untransmitted tasks and kept task results dropped (the session was lost, or the customer logged out). */
export async function clearAppSync(storeCode: string, auth: StoreApi<AuthState>): Promise<void> {
  try {
    await (await appSyncOf(storeCode, auth))?.clear();
  } catch (e) {
    console.warn('Could not clear the sync queue', e);
  }
}

export function useSyncQueueBoot(storeCode: string, auth: StoreApi<AuthState>): void {
  const customer = useStore(auth, (s) => s.loaded && s.user != null);
  const online = useOnline();
  useEffect(() => {
    if (!customer || !online) return;
    let live = true;
    const start = () => {
      if (!live) return;
      void appSyncOf(storeCode, auth).then((app) => {
        if (live && app) app.process().catch((e: unknown) => console.warn('Sync queue pass failed', e));
      });
    };
    const idle = (window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
    if (idle) idle(start, { timeout: 3000 });
    else window.setTimeout(start, 500);
    return () => {
      live = false;
    };
  }, [customer, online, storeCode, auth]);
}
