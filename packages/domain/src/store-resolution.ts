import type { Store, StoresFile } from './store.ts';

/**
 * Which store a request is for (spec §1, §2). Pure: the server calls it per request, the browser
 * calls it to decide whether a link leaves the current store (full document navigation).
 *
 * Host rules, in order:
 *  1. `www.{domain}` where the domain is listed in hostRules.wwwDomains opens that store;
 *  2. the first host label, renamed when it is a legacy label (hostRules.renames);
 *  3. a label equal to a store code opens that store; 4. a label equal to an alias opens its store;
 *  5. an unmapped `shop` label opens hostRules.shopLabelStore;
 *  6. anything else (unknown labels, bare `localhost`, IP addresses) opens the default store.
 * A path that starts with `/{storeCode}/` (or is exactly `/{storeCode}`) overrides the host: that is
 * the store-code prefix of spec §2, used by stores with appendStoreCode and valid for any store.
 */
export type ResolvedBy = 'www-domain' | 'rename' | 'code' | 'alias' | 'shop' | 'default' | 'path-prefix';

export interface StoreResolution {
  store: Store;
  resolvedBy: ResolvedBy;
  /** `/eastside` when the path carried the store code, else ''. */
  pathPrefix: string;
  /** The path with the store-code prefix removed (always starts with `/`). */
  pathname: string;
}

/** Lower-case host name without port or trailing dot; '' for IP literals. */
export function normalizeHost(host: string | null | undefined): string {
  if (!host) return '';
  let h = host.trim().toLowerCase();
  if (h.startsWith('[')) return ''; // IPv6 literal
  h = h.replace(/:\d+$/, '').replace(/\.$/, '');
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(h)) return '';
  return h;
}

function byCode(file: StoresFile, code: string): Store | undefined {
  return file.stores.find((s) => s.storeCode === code);
}

export function defaultStore(file: StoresFile): Store {
  const store = byCode(file, file.defaultStoreCode);
  if (!store) throw new Error(`Default store "${file.defaultStoreCode}" is not defined`);
  return store;
}

export function findStoreByCode(file: StoresFile, code: string): Store | undefined {
  return byCode(file, code);
}

export function findStoreById(file: StoresFile, id: number): Store | undefined {
  return file.stores.find((s) => s.storeId === id);
}

export function resolveStoreFromHost(
  host: string | null | undefined,
  file: StoresFile,
): { store: Store; resolvedBy: Exclude<ResolvedBy, 'path-prefix'> } {
  const h = normalizeHost(host);
  if (h.startsWith('www.')) {
    const target = file.hostRules.wwwDomains[h.slice(4)];
    const store = target ? byCode(file, target) : undefined;
    if (store) return { store, resolvedBy: 'www-domain' };
  }
  const label = h.split('.')[0] ?? '';
  const renamed = Object.hasOwn(file.hostRules.renames, label) ? file.hostRules.renames[label] : undefined;
  if (renamed) {
    const store = byCode(file, renamed);
    if (store) return { store, resolvedBy: 'rename' };
  }
  const direct = label ? byCode(file, label) : undefined;
  if (direct) return { store: direct, resolvedBy: 'code' };
  const aliased = label ? file.stores.find((s) => s.aliases.includes(label)) : undefined;
  if (aliased) return { store: aliased, resolvedBy: 'alias' };
  if (label === 'shop' && file.hostRules.shopLabelStore) {
    const store = byCode(file, file.hostRules.shopLabelStore);
    if (store) return { store, resolvedBy: 'shop' };
  }
  return { store: defaultStore(file), resolvedBy: 'default' };
}

export function resolveStore(
  request: { host: string | null | undefined; pathname: string },
  file: StoresFile,
): StoreResolution {
  const pathname = request.pathname.startsWith('/') ? request.pathname : `/${request.pathname}`;
  const first = pathname.split('/')[1] ?? '';
  const prefixed = first ? byCode(file, first.toLowerCase()) : undefined;
  if (prefixed) {
    const rest = pathname.slice(first.length + 1);
    return { store: prefixed, resolvedBy: 'path-prefix', pathPrefix: `/${prefixed.storeCode}`, pathname: rest || '/' };
  }
  // Named fields, not a spread plus fields: V8 (Node 20) adds properties to a spread copy slowly
  // (about 1 µs each), and this runs for every request.
  const { store, resolvedBy } = resolveStoreFromHost(request.host, file);
  return { store, resolvedBy, pathPrefix: '', pathname };
}

/** A path inside a store: `/menu` becomes `/eastside/menu` for a store that appends its code. */
export function storePath(store: Pick<Store, 'storeCode' | 'appendStoreCode'>, path: string): string {
  const p = path.startsWith('/') ? path : `/${path}`;
  if (!store.appendStoreCode) return p;
  return p === '/' ? `/${store.storeCode}` : `/${store.storeCode}${p}`;
}
