import { useEffect, useState } from 'react';
import { useOnline } from '../../lib/use-online.ts';
import { useRootData } from '../../lib/root-data.ts';
import { onSnapshotChange, refreshSnapshot, rememberStoreOfPage, snapshotTime } from '../../lib/offline-catalog.ts';

/** "Nov 21, 2:40 PM" in the store's time zone. */
function formatTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(iso));
}

/**
 * Keeps the offline menu (catalogue snapshot) fresh while online — fetched when the browser is
 * idle after load and again when the network returns — and, offline, tells the shopper so and how
 * old the menu they browse is (issue 6). Announced politely to screen readers.
 */
export function OfflineStatus() {
  const { store, basePath } = useRootData();
  const online = useOnline();
  const [madeAt, setMadeAt] = useState<string | null>(null);

  useEffect(() => {
    rememberStoreOfPage(store.storeCode, basePath);
    const read = () => void snapshotTime(store.storeCode).then(setMadeAt);
    read();
    const off = onSnapshotChange(read);
    const refresh = () => void refreshSnapshot(store.storeCode);
    const idle = (window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
    const handle = idle ? idle(refresh, { timeout: 10_000 }) : window.setTimeout(refresh, 3000);
    const back = () => void refreshSnapshot(store.storeCode, { force: true });
    window.addEventListener('online', back);
    return () => {
      off();
      window.removeEventListener('online', back);
      if (!idle) window.clearTimeout(handle);
    };
  }, [store.storeCode, basePath]);

  return (
    <div role="status" aria-live="polite" className={online ? 'sr-only' : 'border-b border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm text-amber-950'}>
      {online
        ? ''
        : madeAt
          ? `You are offline. You are browsing the menu as of ${formatTime(madeAt, store.placeInfo.timezone)}; prices and stock may have changed since.`
          : 'You are offline. Pages you opened before are still here.'}
    </div>
  );
}
