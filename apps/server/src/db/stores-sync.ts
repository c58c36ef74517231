import type { Kysely } from 'kysely';
import type { StoresFile } from '@verdant/domain';
import type { Database } from './schema.ts';

/**
 * Upsert every store of the stores file into `stores` (the file is the source of truth; the table
 * exists so catalogue and shopper rows can reference a store). Stores missing from the file are
 * kept: their orders and customers still point at them. `updated_at` moves only when the code,
 * name or settings changed. Returns the number of stores inserted or changed.
 */
export async function syncStores(
  db: Kysely<Database>,
  storesFile: StoresFile,
  now: Date = new Date(),
): Promise<number> {
  const existing = new Map(
    (await db.selectFrom('stores').select(['id', 'code', 'name', 'settings']).execute()).map((r) => [r.id, r]),
  );
  const at = now.toISOString();
  let changed = 0;
  for (const store of storesFile.stores) {
    const row = { code: store.storeCode, name: store.name, settings: JSON.stringify(store) };
    const old = existing.get(store.storeId);
    if (old && old.code === row.code && old.name === row.name && old.settings === row.settings) continue;
    // An upsert, so two server nodes starting at once cannot trip over the same new store.
    await db
      .insertInto('stores')
      .values({ id: store.storeId, ...row, created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('id').doUpdateSet({ ...row, updated_at: at }))
      .execute();
    changed++;
  }
  return changed;
}
