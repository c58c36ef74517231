/**
 * The smallest key/value door onto IndexedDB that the offline modules share. It is idb-keyval
 * (get/set/del/entries/clear/update) over a store opened from an INJECTED IDBFactory: idb-keyval's
 * own `createStore` always reads the global `indexedDB`, which a test (fake-indexeddb's
 * IDBFactory per test) or a worker may want to replace. One database per store name, as
 * idb-keyval does, so opening never needs a version upgrade of someone else's database.
 */
import { clear, del, entries, get, set, update, type UseStore } from 'idb-keyval';

export interface KeyValueBackend {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
  /** Every entry, in key order (IndexedDB sorts string keys). */
  entries(): Promise<[string, unknown][]>;
  clear(): Promise<void>;
  /** Read-modify-write in ONE readwrite transaction (atomic across tabs). */
  update(key: string, updater: (old: unknown) => unknown): Promise<void>;
}

function promisify<T>(request: IDBRequest<T> | IDBTransaction): Promise<T> {
  return new Promise((resolve, reject) => {
    const r = request as IDBRequest<T> & IDBTransaction;
    r.oncomplete = r.onsuccess = () => resolve((r as IDBRequest<T>).result);
    r.onabort = r.onerror = () => reject(r.error);
  });
}

/** idb-keyval's `createStore`, with the factory injectable and resolved on first use (never during SSR import). */
export function keyvalStore(dbName: string, storeName: string, factory?: IDBFactory | null): UseStore {
  let dbp: Promise<IDBDatabase> | undefined;
  const getDB = () => {
    if (dbp) return dbp;
    const idb = factory ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
    if (!idb) return Promise.reject(new Error('IndexedDB is not available'));
    const request = idb.open(dbName);
    request.onupgradeneeded = () => request.result.createObjectStore(storeName);
    dbp = promisify(request);
    dbp.then(
      (db) => {
        db.onclose = () => (dbp = undefined);
      },
      () => (dbp = undefined),
    );
    return dbp;
  };
  return (txMode, callback) => getDB().then((db) => callback(db.transaction(storeName, txMode).objectStore(storeName)));
}

export function keyvalBackend(dbName: string, storeName = 'keyval', factory?: IDBFactory | null): KeyValueBackend {
  const store = keyvalStore(dbName, storeName, factory);
  return {
    get: (key) => get(key, store),
    set: (key, value) => set(key, value, store),
    del: (key) => del(key, store),
    entries: () => entries<string, unknown>(store),
    clear: () => clear(store),
    update: (key, updater) => update(key, updater, store),
  };
}
