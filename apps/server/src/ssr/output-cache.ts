import { constants, crc32, deflateRawSync } from 'node:zlib';
import { TtlCache, storeKey } from '../cache/ttl-cache.ts';

/**
 * Output cache for server-rendered pages (spec §9 "output cache"). A route opts in by sending
 * `X-Output-Cache: <seconds>` (its `headers` export); the header never reaches the browser.
 * Only anonymous GETs with a 200 answer and no Set-Cookie are kept. The key carries the store,
 * the full URL and the whole Cookie header, because the page may depend on any cookie (age gate,
 * licence type): a shopper can never be served another shopper's variant. Entries keep a
 * deflated copy once a client asked for gzip, so a repeat view costs a Map lookup, a CRC and one
 * write: the page's CSP nonce is swapped for the answer's own without compressing again.
 */
export const OUTPUT_CACHE_HEADER = 'x-output-cache';
/** Upper bound on any route's TTL; the spec's 86400 s applies to a CDN, not to this process. */
const MAX_TTL_S = 300;

export interface CachedPage {
  status: number;
  headers: [string, string][];
  /** The body cut at each occurrence of the nonce it was rendered with (one part without one). */
  parts: Buffer[];
  /** Each part deflated on its own (raw, sync-flushed), made on first use by a gzip client. */
  deflated?: Buffer[];
  expires: number;
}

/**
 * A cached page carries the CSP nonce of whoever's request rendered it; each answer gets its own
 * (the header's), so the page is re-stamped on the way out: the parts joined with the new nonce.
 */
export function pageBody(page: CachedPage, nonce: string): Buffer {
  return page.parts.length === 1 ? page.parts[0] : Buffer.concat(joinWith(page.parts, Buffer.from(nonce)));
}

function joinWith(parts: Buffer[], between: Buffer): Buffer[] {
  const out: Buffer[] = [];
  parts.forEach((part, i) => {
    if (i > 0) out.push(between);
    out.push(part);
  });
  return out;
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty final stored block: ends the deflate stream. */
const FINAL_BLOCK = Buffer.from([1, 0, 0, 0xff, 0xff]);

/**
 * The gzip answer for this nonce without compressing the page again: the parts were deflated
 * once, each ending byte-aligned (sync flush), so the nonce goes between them as a stored
 * (uncompressed) block; only the CRC is computed per answer (native, ~GB/s).
 */
export function pageGzip(page: CachedPage, nonce: string): Buffer {
  page.deflated ??= page.parts.map((part) => deflateRawSync(part, { level: 6, finishFlush: constants.Z_SYNC_FLUSH }));
  const n = Buffer.from(nonce);
  const stored = Buffer.alloc(5);
  stored.writeUInt16LE(n.length, 1);
  stored.writeUInt16LE(~n.length & 0xffff, 3);
  let crc = 0;
  let size = 0;
  page.parts.forEach((part, i) => {
    if (i > 0) {
      crc = crc32(n, crc);
      size += n.length;
    }
    crc = crc32(part, crc);
    size += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  return Buffer.concat([GZIP_HEADER, ...joinWith(page.deflated, Buffer.concat([stored, n])), FINAL_BLOCK, trailer]);
}

function split(body: Buffer, nonce: string | undefined): Buffer[] {
  if (!nonce) return [body];
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(nonce, from); at !== -1; at = body.indexOf(nonce, from)) {
    parts.push(body.subarray(from, at));
    from = at + nonce.length;
  }
  parts.push(body.subarray(from));
  return parts;
}

export interface CacheableRequest {
  method: string;
  url: string;
  storeId: number;
  cookie: string | undefined;
  authorization: string | undefined;
  /**
   * What else the page's HTML depends on at this moment (issue 28: the store's deal state,
   * deals/page-source.ts): a different variant is a different page.
   */
  variant?: string;
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
    return storeKey(req.storeId, 'page', req.url, req.cookie ?? '', req.variant ?? '');
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
   * `nonce`: the CSP nonce the page was rendered with, replaced by each answer's own.
   */
  async admit(req: CacheableRequest, response: Response, nonce?: string): Promise<CachedPage | undefined> {
    const ttl = Number(response.headers.get(OUTPUT_CACHE_HEADER));
    const key = this.key(req);
    if (!key || !(ttl > 0) || response.status !== 200 || response.headers.has('set-cookie') || !response.body) return undefined;
    const body = Buffer.from(await response.arrayBuffer());
    const headers = [...response.headers].filter(([name]) => name !== OUTPUT_CACHE_HEADER && name !== 'content-length');
    const page: CachedPage = {
      status: response.status,
      headers,
      parts: split(body, nonce),
      expires: this.now() + Math.min(ttl, MAX_TTL_S) * 1000,
    };
    this.pages.set(key, page);
    return page;
  }

  invalidate(storeId?: number): void {
    this.pages.invalidate(storeId);
  }
}
