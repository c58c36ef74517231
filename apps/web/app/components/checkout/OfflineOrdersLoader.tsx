import { lazy, Suspense, useEffect, useState } from 'react';

/** The offline-orders notice and its IndexedDB code load after the page is idle: they matter only once an order was made offline. */
const Notice = lazy(() => import('./OfflineOrdersNotice.tsx').then((m) => ({ default: m.OfflineOrdersNotice })));

export function OfflineOrdersNotice() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const idle = (window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
    if (idle) idle(() => setReady(true), { timeout: 2000 });
    else window.setTimeout(() => setReady(true), 500);
  }, []);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <Notice />
    </Suspense>
  );
}
