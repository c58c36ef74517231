/**
 * The demo stores' deals (issue 28): the engine's demo deals (packages/domain/src/deals/demo-deals.ts,
 * a few realistic ones of each kind) for every store of the stores file, leaving out a deal only for
 * medical patients at a store without a medical licence (and the other way round). A store gets
 * them once: a deal whose id the store already has is left as it is (a manager may have changed,
 * paused or ended it), so a re-seed never undoes the console's work. Each new deal gets its
 * `create` history row (source `seed`, actor "Demo seed").
 */
import { DEMO_DEALS, type StoresFile } from '@verdant/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export async function seedDemoDeals(trx: Kysely<Database>, storesFile: StoresFile, at: Date): Promise<number> {
  const iso = at.toISOString();
  let written = 0;
  for (const store of storesFile.stores) {
    const s = store.dispensarySettings;
    const have = new Set((await trx.selectFrom('deals').select('code').where('store_id', '=', store.storeId).execute()).map((r) => r.code));
    for (const deal of DEMO_DEALS) {
      if (have.has(deal.id)) continue;
      const licence = deal.eligibility.licence;
      if ((licence === 'medical' && !s.license_medical) || (licence === 'recreational' && !s.license_recreational)) continue;
      const record = JSON.stringify(deal);
      const row = await trx
        .insertInto('deals')
        .values({
          store_id: store.storeId,
          code: deal.id,
          external_id: null,
          kind: deal.kind,
          title: deal.title,
          status: deal.status,
          record,
          version: 1,
          created_at: iso,
          created_by: 'Demo seed',
          updated_at: iso,
          updated_by: 'Demo seed',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('deal_changes')
        .values({ deal_id: row.id, store_id: store.storeId, action: 'create', before: null, after: record, source: 'seed', actor_type: 'system', actor_id: null, actor_name: 'Demo seed', at: iso })
        .execute();
      written += 1;
    }
  }
  return written;
}

/** Whether none of the file's stores has a deal row yet (a demo database from before deals). */
export async function noDealsYet(db: Kysely<Database>, storesFile: StoresFile): Promise<boolean> {
  const row = await db
    .selectFrom('deals')
    .select('id')
    .where(
      'store_id',
      'in',
      storesFile.stores.map((s) => s.storeId),
    )
    .limit(1)
    .executeTakeFirst();
  return row === undefined;
}
