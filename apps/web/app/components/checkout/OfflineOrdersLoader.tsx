import { lazy, Suspense, useEffect, useState } from 'react';
import { useRootData } from '../../lib/root-data.ts';
import { offlineOrdersMayWait, onOfflineOrdersWaiting } from '../../offline/waiting-flag.ts';

/**
 * The offline-orders notice and its IndexedDB code load only in a browser that queued an order
 * for this store (offline/waiting-flag.ts), after the page is idle, or as soon as an order gets
 * queued here or in another tab.
 */
const Notice = lazy(() => import('./OfflineOrdersNotice.tsx').then((m) => ({ default: m.OfflineOrdersNotice })));

export function OfflineOrdersNotice() {
  const { storeCode } = useRootData().store;
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const off = onOfflineOrdersWaiting(storeCode, () => setReady(true));
    if (offlineOrdersMayWait(storeCode)) {
      const idle = (window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
      if (idle) idle(() => setReady(true), { timeout: 2000 });
      else window.setTimeout(() => setReady(true), 500);
    }
    return off;
  }, [storeCode]);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <Notice />
    </Suspense>
  );
}
