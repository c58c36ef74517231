import { gzipSync } from 'node:zlib';
import { TtlCache, storeKey } from '../cache/ttl-cache.ts';

/**
 * Output cache for server-rendered pages (spec §9 "output cache"). A route opts in by sending
 * `X-Output-Cache: <seconds>` (its `headers` export); the header never reaches the browser.
 * Only anonymous GETs with a 200 answer and no Set-Cookie are kept. The key carries the store,
 * the full URL and the whole Cookie header, because the page may depend on any cookie (age gate,
 * licence type): a shopper can never be served another shopper's variant. Entries keep a
 * gzipped copy once a client asked for one, so a repeat view costs a Map lookup and one write.
 */
export const OUTPUT_CACHE_HEADER = 'x-output-cache';
/** Upper bound on any route's TTL; the spec's 86400 s applies to a CDN, not to this process. */
const MAX_TTL_S = 300;

export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** Compressed on first use by a client that accepts gzip, then kept. */
  gzip?: Buffer;
  expires: number;
}

export function gzipped(page: CachedPage): Buffer {
  page.gzip ??= gzipSync(page.body, { level: 6 });
  return page.gzip;
}

export interface CacheableRequest {
  method: string;
  url: string;
  storeId: number;
  cookie: string | undefined;
  authorization: string | undefined;
}

export class OutputCache {
  // The TtlCache bounds size and evicts oldest; per-entry expiry is checked against `expires`.
  private readonly pages = new TtlCache<CachedPage>(MAX_TTL_S * 1000, 500);
  hits = 0;
  misses = 0;

  constructor(private readonly now: () => number = Date.now) {}

  private key(req: CacheableRequest): string | null {
    // URLs with a query string are not kept: anyone could otherwise fill the cache with
    // `?1`, `?2`, … (pages that need their query keyed will name the parameters that count).
    if (req.method !== 'GET' || req.authorization || req.url.includes('?')) return null;
    return storeKey(req.storeId, 'page', req.url, req.cookie ?? '');
  }

  /** The cached page for this request, or undefined (not cacheable, absent or expired). */
  async lookup(req: CacheableRequest): Promise<CachedPage | undefined> {
    const key = this.key(req);
    if (!key) return undefined;
    const page = await this.pages.peek(key);
    if (page && page.expires > this.now()) {
      this.hits++;
      return page;
    }
    this.misses++;
    return undefined;
  }

  /**
   * Store a rendered response if its route asked for it. Returns the headers to send (without
   * the opt-in header) and the body, buffered when kept, else undefined (stream it as is).
   */
  async admit(req: CacheableRequest, response: Response): Promise<CachedPage | undefined> {
    const ttl = Number(response.headers.get(OUTPUT_CACHE_HEADER));
    const key = this.key(req);
    if (!key || !(ttl > 0) || response.status !== 200 || response.headers.has('set-cookie') || !response.body) return undefined;
    const body = Buffer.from(await response.arrayBuffer());
    const headers = [...response.headers].filter(([name]) => name !== OUTPUT_CACHE_HEADER && name !== 'content-length');
    const page: CachedPage = {
      status: response.status,
      headers,
      body,
      expires: this.now() + Math.min(ttl, MAX_TTL_S) * 1000,
    };
    this.pages.set(key, page);
    return page;
  }

  invalidate(storeId?: number): void {
    this.pages.invalidate(storeId);
  }
}
