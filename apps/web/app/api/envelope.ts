/**
 * One way to call the `{code, result}` API (spec §7) from the browser. Two kinds of failure, kept
 * apart on purpose because the cart treats them differently:
 *  - ApiError: the server answered and refused (4xx) or failed (5xx); `message` is its `result`
 *    text, shown to the shopper as is (the server words it per spec §8);
 *  - NetworkError: no answer at all (offline, DNS, timeout). Nothing is known about the outcome,
 *    so nothing may be rolled back or re-created on it.
 * ApiError lives here (not with the catalogue client) so that calling the API does not bring the
 * catalogue query code into every page's JavaScript.
 */
import { apiStoreCodeParam } from './store-scope.ts';

export { setApiStoreCode } from './store-scope.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class NetworkError extends Error {
  constructor(message = 'The store could not be reached.') {
    super(message);
    this.name = 'NetworkError';
  }
}

/** Spec §9: the client gives the server 5 s, as for search. */
export const API_TIMEOUT_MS = 5000;

export interface CallOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  query?: Record<string, string | number | null | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export function apiUrl(path: string, query: CallOptions['query'] = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v != null && v !== '') params.set(k, String(v));
  const storeCode = apiStoreCodeParam();
  if (storeCode && !params.has('storeCode')) params.set('storeCode', storeCode);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The `result` of a 200 envelope; throws ApiError or NetworkError otherwise. */
export async function callApi<T>(path: string, options: CallOptions = {}): Promise<T> {
  return (await callApiEnvelope<T>(path, options)).result;
}

/** The whole 200 envelope (`result` and `meta`: login answers carry their tokens in `meta`). */
export async function callApiEnvelope<T, M = Record<string, unknown>>(
  path: string,
  { method = 'GET', query, body, headers = {}, timeoutMs = API_TIMEOUT_MS }: CallOptions = {},
): Promise<{ result: T; meta: Partial<M> }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let res: Response;
  try {
    res = await fetch(apiUrl(path, query), {
      method,
      credentials: 'same-origin',
      signal: controller.signal,
      headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new NetworkError();
  } finally {
    clearTimeout(timer);
  }
  let envelope: { code?: number; result?: unknown; meta?: unknown } | null = null;
  try {
    envelope = (await res.json()) as { code?: number; result?: unknown; meta?: unknown };
  } catch {
    if (res.status >= 500 || res.status === 0) throw new ApiError(res.status, 'Something went wrong. Try again in a few seconds.');
    throw new ApiError(res.status, 'Unhandled error, wrong response format!');
  }
  const code = envelope?.code ?? res.status;
  if (!res.ok || code !== 200) {
    throw new ApiError(code, typeof envelope?.result === 'string' ? envelope.result : `HTTP ${res.status}`);
  }
  const meta = envelope?.meta && typeof envelope.meta === 'object' ? (envelope.meta as Partial<M>) : {};
  return { result: envelope?.result as T, meta };
}

/** A refusal the shopper should read (4xx), as opposed to a server fault or no answer. */
export function isRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}
