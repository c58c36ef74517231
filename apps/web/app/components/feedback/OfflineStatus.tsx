import { useEffect, useState } from 'react';
import { formatDateTime } from '@verdant/domain';
import { useOnline } from '../../lib/use-online.ts';
import { useRootData } from '../../lib/root-data.ts';
import { onSnapshotChange, refreshSnapshot, rememberStoreOfPage, snapshotTime } from '../../lib/offline-catalog.ts';

/**
 * Keeps the offline menu (catalogue snapshot) fresh while online — fetched when the browser is
 * idle after load and again when the network returns — and, offline, tells the shopper so and how
 * old the menu they browse is (issue 6). Announced politely to screen readers.
 */
/** How long after a page load the offline menu copy is checked for freshness. */
const SNAPSHOT_REFRESH_DELAY_MS = 5000;

export function OfflineStatus() {
  const { store, basePath } = useRootData();
  const online = useOnline();
  const [madeAt, setMadeAt] = useState<string | null>(null);

  useEffect(() => {
    rememberStoreOfPage(store.storeCode, basePath);
    // Background work, kept out of the page's start: the offline copy of the menu is refreshed a
    // few seconds after the page settled (then when idle), its time read only when shown.
    const refresh = () => void refreshSnapshot(store.storeCode);
    const idle = (window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
    const timer = window.setTimeout(() => (idle ? idle(refresh, { timeout: 10_000 }) : refresh()), SNAPSHOT_REFRESH_DELAY_MS);
    const back = () => void refreshSnapshot(store.storeCode, { force: true });
    window.addEventListener('online', back);
    return () => {
      window.removeEventListener('online', back);
      window.clearTimeout(timer);
    };
  }, [store.storeCode, basePath]);

  useEffect(() => {
    if (online) return;
    const read = () => void snapshotTime(store.storeCode).then(setMadeAt);
    read();
    return onSnapshotChange(read);
  }, [online, store.storeCode]);

  return (
    <div role="status" aria-live="polite" className={online ? 'sr-only' : 'border-b border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm text-amber-950'}>
      {online
        ? ''
        : madeAt
          ? `You are offline. You are browsing the menu as of ${formatDateTime(madeAt, store.placeInfo.timezone)}; prices and stock may have changed since.`
          : 'You are offline. Pages you opened before are still here.'}
    </div>
  );
}
