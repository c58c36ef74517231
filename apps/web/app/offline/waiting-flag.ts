/**
 * A one-byte hint, kept in localStorage, that this browser may hold offline orders for a store.
 * The offline-orders notice (and its IndexedDB code, ~6 KB) loads only when the hint is set, so
 * the pages of the great majority of shoppers — who never ordered offline — do not carry it.
 * The hint is set when an order is queued and cleared by the notice once no order waits; a
 * browser that cannot keep it (storage blocked) always loads the notice.
 */
const FLAG_EVENT = 'verdant:offline-orders-waiting';

export function waitingFlagKey(storeCode: string): string {
  return `verdant:${storeCode}:offline-orders-waiting`;
}

export function markOfflineOrdersWaiting(storeCode: string): void {
  try {
    localStorage.setItem(waitingFlagKey(storeCode), '1');
  } catch {
    /* storage blocked: offlineOrdersMayWait() answers true anyway */
  }
  // `storage` events reach the other tabs only; this tab hears its own event.
  window.dispatchEvent(new CustomEvent(FLAG_EVENT, { detail: storeCode }));
}

export function clearOfflineOrdersWaiting(storeCode: string): void {
  try {
    localStorage.removeItem(waitingFlagKey(storeCode));
  } catch {
    /* nothing to clear */
  }
}

export function offlineOrdersMayWait(storeCode: string): boolean {
  try {
    return localStorage.getItem(waitingFlagKey(storeCode)) === '1';
  } catch {
    return true;
  }
}

/** Call `onSet` when an order gets queued for this store, in this tab or another. */
export function onOfflineOrdersWaiting(storeCode: string, onSet: () => void): () => void {
  const key = waitingFlagKey(storeCode);
  const fromStorage = (e: StorageEvent) => {
    if (e.key === key && e.newValue === '1') onSet();
  };
  const fromThisTab = (e: Event) => {
    if ((e as CustomEvent<string>).detail === storeCode) onSet();
  };
  window.addEventListener('storage', fromStorage);
  window.addEventListener(FLAG_EVENT, fromThisTab);
  return () => {
    window.removeEventListener('storage', fromStorage);
    window.removeEventListener(FLAG_EVENT, fromThisTab);
  };
}
