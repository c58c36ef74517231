/**
 * The browser's client for the catalogue API (`{code, result}` envelopes, spec §7). Used where a
 * page needs products without a navigation: the search panel and "Load more".
 */
import type { CatalogAttribute, ProductCard } from '@verdant/domain';
import { productsApiUrl, type ProductsApiParams } from '../lib/catalog-query.ts';
import { ApiError } from './envelope.ts';

export { ApiError };

export interface ProductsApiResult {
  items: ProductCard[];
  total: number;
  start: number;
  perPage: number;
  attributeMetadata?: CatalogAttribute[];
  suggestions?: string[];
}

/** Spec §9: the client gives a catalogue search 5 s. */
export const SEARCH_TIMEOUT_MS = 5000;

export async function fetchProducts(params: ProductsApiParams, signal?: AbortSignal): Promise<ProductsApiResult> {
  // The caller's signal and the timeout, combined by hand (AbortSignal.any is too new for some phones).
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SEARCH_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  if (signal?.aborted) controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await request(params, controller.signal);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

async function request(params: ProductsApiParams, signal: AbortSignal): Promise<ProductsApiResult> {
  const res = await fetch(productsApiUrl(params), { headers: { accept: 'application/json' }, signal, credentials: 'same-origin' });
  let body: { code?: number; result?: unknown } | null = null;
  try {
    body = (await res.json()) as { code?: number; result?: unknown };
  } catch {
    throw new ApiError(res.status, 'Unhandled error, wrong response format!');
  }
  if (!res.ok || (body?.code != null && body.code !== 200)) {
    throw new ApiError(body?.code ?? res.status, typeof body?.result === 'string' ? body.result : `HTTP ${res.status}`);
  }
  const result = body?.result as ProductsApiResult | undefined;
  if (!result || !Array.isArray(result.items)) throw new ApiError(res.status, 'Unhandled error, wrong response format!');
  return result;
}
