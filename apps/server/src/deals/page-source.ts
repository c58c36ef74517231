/**
 * A store's deals as the pages read them (issue 28): the active deals through the repository's 1 s
 * cache, the display and floor settings through the settings' cache, made into a PageDealsSource once per list
 * the repository hands out (so a page view costs two cache lookups). Also the "deal state" the output
 * cache keys pages by (ssr/mount.ts): which deals are live now for each licence, the budgets spent,
 * the display setting and the records themselves — a deal starting, ending, leaving its hours or
 * running out of budget makes a new key, so a cached page never shows a deal that is not on (and a
 * change through the repository also drops the store's pages at once: app.invalidateStore).
 */
import { createHash } from 'node:crypto';
import { eligibilityReason, type DealContext, type DealFloorSettings, type Store } from '@verdant/domain';
import type { FastifyInstance } from 'fastify';
import { DEAL_DISPLAY_SECTION } from './display-section.ts';
import { DEAL_FLOOR_SECTION } from './floor-section.ts';
import type { PageDealsSource } from './page-deals.ts';
import type { StoredDeal } from './repository.ts';

const sources = new WeakMap<readonly StoredDeal[], { display: string; source: PageDealsSource; recordsHash: string }>();

function sourceOf(deals: readonly StoredDeal[], display: PageDealsSource['display'], floor: DealFloorSettings) {
  const key = JSON.stringify([display, floor]);
  const known = sources.get(deals);
  if (known && known.display === key) return known;
  const source: PageDealsSource = {
    records: deals.map((d) => d.record),
    redeemed: Object.fromEntries(deals.map((d) => [d.code, d.redeemed])),
    display,
    floor,
  };
  const recordsHash = createHash('sha1').update(JSON.stringify(source.records)).update(key).digest('base64url').slice(0, 16);
  const made = { display: key, source, recordsHash };
  sources.set(deals, made);
  return made;
}

async function read(app: FastifyInstance, store: Store) {
  const [deals, display, floor] = await Promise.all([
    app.deals.active(store.storeId),
    app.storeSettings.get(store.storeId, DEAL_DISPLAY_SECTION),
    app.storeSettings.get(store.storeId, DEAL_FLOOR_SECTION),
  ]);
  return sourceOf(deals, display.value, floor.value);
}

export async function pageDealsSourceOf(app: FastifyInstance, store: Store): Promise<PageDealsSource | null> {
  return (await read(app, store)).source;
}

/**
 * The store's deal state at `now` for the output cache's key: '' when it has no deal (keys stay as
 * they were), else the records' hash and, per deal and licence, whether it is live (budget included).
 */
export async function pageDealState(app: FastifyInstance, store: Store, now: Date): Promise<string> {
  const { source, recordsHash } = await read(app, store);
  if (source.records.length === 0) return '';
  const timeZone = store.dispensarySettings.place_info.timezone || 'UTC';
  const usage = Object.fromEntries(Object.entries(source.redeemed).map(([code, n]) => [code, { totalRedemptions: n }]));
  const live = (licence: 'medical' | 'recreational') => {
    const ctx: DealContext = { now, timeZone, customer: { licence, previousOrders: null }, usage };
    return source.records.map((d) => (eligibilityReason(d, ctx) === null ? '1' : '0')).join('');
  };
  return `${recordsHash}.${live('recreational')}.${live('medical')}`;
}
