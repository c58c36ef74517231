/**
 * The messages between the page and the offline catalogue worker (issue 15). The page posts
 * `{ id, storeCode, op, … }`; the worker answers `{ id, ok: true, result }` or
 * `{ id, ok: false, error }`. Results are plain data (structured clone); an error keeps its name,
 * message and HTTP status (a CatalogNotFoundError offline is the same 404 the route loaders
 * expect online).
 *
 * `serveCatalog` is the worker's side and `connectCatalog` the page's, both over anything that
 * posts messages (a Worker, the worker's global scope, a MessagePort): the unit tests run the two
 * over a MessageChannel.
 */
import type { StorefrontServices } from '../lib/context.ts';
import type { CatalogEngine, RefreshOutcome, SnapshotMeta } from './catalog-engine.ts';

export type CatalogRequest =
  | { id: number; storeCode: string; op: 'refresh'; snapshotUrl: string; force?: boolean; now?: number }
  | { id: number; storeCode: string; op: 'meta' }
  | { id: number; storeCode: string; op: 'call'; method: keyof StorefrontServices; args: unknown[] };

export interface WireError {
  name: string;
  message: string;
  statusCode?: number;
}

export type CatalogResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: WireError };

export interface MessageEnd {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

export function toWireError(error: unknown): WireError {
  const e = (error ?? {}) as { name?: unknown; message?: unknown; statusCode?: unknown };
  const wire: WireError = {
    name: typeof e.name === 'string' ? e.name : 'Error',
    message: typeof e.message === 'string' ? e.message : String(error),
  };
  if (typeof e.statusCode === 'number') wire.statusCode = e.statusCode;
  return wire;
}

export function fromWireError(wire: WireError): Error {
  const error = new Error(wire.message) as Error & { statusCode?: number };
  error.name = wire.name;
  if (wire.statusCode !== undefined) error.statusCode = wire.statusCode;
  return error;
}

/** The worker's side: one engine per store code, made on its first message. */
export function serveCatalog(end: MessageEnd, engineFor: (storeCode: string) => CatalogEngine): void {
  const engines = new Map<string, CatalogEngine>();
  end.addEventListener('message', (event) => {
    const request = event.data as CatalogRequest;
    void (async () => {
      let engine = engines.get(request.storeCode);
      if (!engine) engines.set(request.storeCode, (engine = engineFor(request.storeCode)));
      switch (request.op) {
        case 'refresh':
          return engine.refresh(request.snapshotUrl, { force: request.force, now: request.now });
        case 'meta':
          return engine.meta();
        case 'call':
          return engine.call(request.method, request.args);
      }
    })().then(
      (result) => end.postMessage({ id: request.id, ok: true, result } satisfies CatalogResponse),
      (error: unknown) => end.postMessage({ id: request.id, ok: false, error: toWireError(error) } satisfies CatalogResponse),
    );
  });
}

type Ask =
  | { op: 'refresh'; snapshotUrl: string; force?: boolean; now?: number }
  | { op: 'meta' }
  | { op: 'call'; method: keyof StorefrontServices; args: unknown[] };

export interface CatalogConnection {
  refresh(storeCode: string, snapshotUrl: string, options?: { force?: boolean; now?: number }): Promise<RefreshOutcome>;
  meta(storeCode: string): Promise<SnapshotMeta | null>;
  /** The storefront services of a store, every call answered by the worker. */
  services(storeCode: string): StorefrontServices;
}

/**
 * Every storefront service, by name. A Record over `keyof StorefrontServices`, so a service added to
 * the interface does not compile until it is named here: issue 28 added productDeals and dealsOnNow
 * (and cartDeals) to the services and not to a hand-written proxy, so every offline page that lists
 * products failed with "Something went wrong" and the offline cart never estimated its deals.
 */
const SERVICE_NAMES: Record<keyof StorefrontServices, true> = {
  homeCollections: true,
  cmsPage: true,
  categoryTree: true,
  categoryByPath: true,
  searchProducts: true,
  product: true,
  productsBySku: true,
  mapUrl: true,
  productDeals: true,
  dealsOnNow: true,
  cartDeals: true,
};
const SERVICE_METHODS = Object.keys(SERVICE_NAMES) as (keyof StorefrontServices)[];

/** The page's side. */
export function connectCatalog(end: MessageEnd): CatalogConnection {
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  end.addEventListener('message', (event) => {
    const response = event.data as CatalogResponse;
    const waiting = pending.get(response.id);
    if (!waiting) return;
    pending.delete(response.id);
    if (response.ok) waiting.resolve(response.result);
    else waiting.reject(fromWireError(response.error));
  });
  const ask = <T>(storeCode: string, body: Ask): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      end.postMessage({ id, storeCode, ...body });
    });
  return {
    refresh: (storeCode, snapshotUrl, options = {}) => ask(storeCode, { op: 'refresh', snapshotUrl, ...options }),
    meta: (storeCode) => ask(storeCode, { op: 'meta' }),
    services(storeCode) {
      const call =
        (method: keyof StorefrontServices) =>
        (...args: unknown[]) =>
          ask(storeCode, { op: 'call', method, args });
      return Object.fromEntries(SERVICE_METHODS.map((method) => [method, call(method)])) as unknown as StorefrontServices;
    },
  };
}
