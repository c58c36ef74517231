/**
 * A store's loyalty programme read on any connection (inside a transaction: the order's move reads
 * the programme of that moment), from the store's row — the stores file's entry as synced
 * (db/stores-sync.ts) — so the lifecycle, which knows a store only by id, needs no registry.
 */
import type { LoyaltyProgramme, Store } from '@verdant/domain';
import type { Db } from './ledger.ts';
import { readSection } from '../store-settings/read.ts';
import { LOYALTY_SECTION } from './section.ts';

export interface StoreLoyalty {
  programme: LoyaltyProgramme;
  timeZone: string;
  storeName: string;
}

export async function storeLoyalty(conn: Db, storeId: number): Promise<StoreLoyalty | null> {
  const row = await conn.selectFrom('stores').select(['settings', 'name']).where('id', '=', storeId).executeTakeFirst();
  if (!row) return null;
  let store: Store;
  try {
    store = JSON.parse(row.settings) as Store;
  } catch {
    return null;
  }
  if (!store?.dispensarySettings?.place_info) return null;
  const { value } = await readSection(conn, { ...store, storeId }, LOYALTY_SECTION);
  return { programme: value, timeZone: store.dispensarySettings.place_info.timezone || 'UTC', storeName: row.name };
}
