/**
 * The shopper funnel (issue 31): store visits, product views, add-to-cart and checkout started,
 * counted on the server where it already sees them (the page or `.data` request of a page, the
 * cart API), per store and store-local day. No third-party tracker, no cookie, no IP, no id: only
 * `(store, day, step) → count`. The last step, orders placed, is the rollups' `placed` count.
 *
 * Counts are added up in memory and written every `flushMs` (and when the app closes) as one
 * upsert per cell (`count = count + n`), so a page view costs a Map increment, not a database
 * write (bench/suites/analytics.ts measures both); several nodes add to the same rows. A crash
 * loses at most the last `flushMs` of counts: acceptable for a funnel, said in the docs.
 *
 * What is a visit: a page (HTML, not `.data`) asked for without a Referer from the same host — the
 * shopper arrived from elsewhere or typed the address. Bots (crawlers, link previews, headless
 * browsers, HTTP tools) are not counted.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { localParts } from './cells.ts';

export const FUNNEL_STEPS = ['visit', 'product_view', 'add_to_cart', 'checkout_started'] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

const BOT = /bot\b|bot\/|crawl|spider|slurp|bingpreview|facebookexternalhit|embedly|whatsapp|telegram|slackbot|discordbot|headless|lighthouse|pagespeed|curl\/|wget|python-|go-http|okhttp|java\/|libwww|httpclient|axios|node-fetch|undici|^$/i;

export function isBot(userAgent: string | undefined): boolean {
  return BOT.test(userAgent ?? '');
}

export interface PageRequest {
  method: string;
  /** Path without the query and without the store-code prefix. */
  path: string;
  /** The answer's status and content type. */
  status: number;
  contentType: string;
  host: string;
  referer?: string;
  userAgent?: string;
  /** The parsed JSON body of a cart update, when it is one. */
  body?: unknown;
}

/** Which funnel steps one answered request makes (usually none). */
export function stepsOf(r: PageRequest): FunnelStep[] {
  // Cheap checks first: most answers (APIs, assets) are none of the steps.
  if (r.status !== 200) return [];
  if (r.method === 'POST') {
    // A cart line added (the cart API's "add" form: one `cartItem`; a full `cartItems` list is a sync).
    if (r.path === '/api/cart/update' && typeof r.body === 'object' && r.body !== null && 'cartItem' in r.body && !isBot(r.userAgent)) return ['add_to_cart'];
    return [];
  }
  if (r.method !== 'GET' || r.path.startsWith('/api/')) return [];
  const isData = r.path.endsWith('.data');
  const isHtml = r.contentType.startsWith('text/html');
  if ((!isData && !isHtml) || isBot(r.userAgent)) return [];
  const page = isData ? r.path.slice(0, -'.data'.length).replace(/\/_root$/, '/') || '/' : r.path;
  const steps: FunnelStep[] = [];
  if (isHtml && !sameHost(r.referer, r.host)) steps.push('visit');
  if (/^\/p\/[^/]+\/[^/]+/.test(page)) steps.push('product_view');
  else if (page === '/checkout') steps.push('checkout_started');
  return steps;
}

function sameHost(referer: string | undefined, host: string): boolean {
  if (!referer) return false;
  try {
    return new URL(referer).host === host;
  } catch {
    return false;
  }
}

export interface FunnelCounter {
  count(storeId: number, timeZone: string, step: FunnelStep, at?: Date): void;
  /** Write what is counted so far (called every flushMs and on close). */
  flush(): Promise<void>;
  /** Counts not yet written. */
  pending(): number;
  stop(): Promise<void>;
}

export function createFunnelCounter(db: Kysely<Database>, opts: { flushMs?: number; onError?: (err: unknown) => void } = {}): FunnelCounter {
  let counts = new Map<string, number>();
  let flushing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => void counter.flush(), opts.flushMs ?? 5000);
  timer.unref();

  async function write(batch: Map<string, number>): Promise<void> {
    const rows = [...batch.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, n]) => {
        const [store, day, step] = k.split('|');
        return { store_id: Number(store), day, step, count: n };
      });
    for (let i = 0; i < rows.length; i += 200)
      await db
        .insertInto('analytics_funnel')
        .values(rows.slice(i, i + 200))
        .onConflict((oc) => oc.columns(['store_id', 'day', 'step']).doUpdateSet({ count: sql`analytics_funnel.count + excluded.count` }))
        .execute();
  }

  const counter: FunnelCounter = {
    count(storeId, timeZone, step, at = new Date()) {
      const k = `${storeId}|${localParts(at.toISOString(), timeZone).day}|${step}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    },
    flush() {
      flushing = flushing.then(async () => {
        if (!counts.size) return;
        const batch = counts;
        counts = new Map();
        try {
          await write(batch);
        } catch (err) {
          // Put them back: the next flush tries again.
          for (const [k, n] of batch) counts.set(k, (counts.get(k) ?? 0) + n);
          opts.onError?.(err);
        }
      });
      return flushing;
    },
    pending: () => [...counts.values()].reduce((a, b) => a + b, 0),
    async stop() {
      clearInterval(timer);
      await counter.flush();
    },
  };
  return counter;
}
