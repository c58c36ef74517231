/**
 * Migration 0035 (issue 30) adds the provider's id and receipt, the customer and the fallback
 * columns to `message_deliveries`. Proven on both databases: rows written before it keep every
 * value and read as "no receipt expected" (receipt null, no fallback); down drops the columns and
 * keeps the rows; up again takes the new columns.
 */
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test-support/databases.ts';
import { syncStores } from '../index.ts';
import { DEMO_STORES_FILE } from '../../config.ts';
import { readStoresFile } from '../../seed/index.ts';
import { migration0035 } from './0035_message_receipts.ts';
import { MIGRATIONS } from './index.ts';

const LATER = Object.keys(MIGRATIONS).filter((name) => name > '0035_message_receipts').sort();

describeEachDatabase('migration 0035: message receipts and fallbacks', (getDb) => {
  it('keeps the rows through down and up; old rows expect no receipt', async () => {
    const t = getDb();
    const db = t.db;
    await syncStores(db, readStoresFile(DEMO_STORES_FILE));
    for (const name of [...LATER].reverse()) await db.transaction().execute((trx) => MIGRATIONS[name]!.down(trx, t.dialect));
    await db.transaction().execute((trx) => migration0035.down(trx, t.dialect));
    const old = db as unknown as import('kysely').Kysely<any>;
    const at = '2026-06-15T12:00:00.000Z';
    await old
      .insertInto('message_deliveries')
      .values({ event_id: 'evt_old', store_id: 1, order_id: null, channel: 'sms', recipient: '+19165550100', template: 'order_confirmed', subject: null, body: 'Old', status: 'sent', attempts: 1, sent_at: at, created_at: at, updated_at: at })
      .execute();
    await db.transaction().execute((trx) => migration0035.up(trx, t.dialect));
    for (const name of LATER) await db.transaction().execute((trx) => MIGRATIONS[name]!.up(trx, t.dialect));

    const row = await db.selectFrom('message_deliveries').selectAll().where('event_id', '=', 'evt_old').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ channel: 'sms', recipient: '+19165550100', status: 'sent', body: 'Old', sent_at: at, provider: null, provider_id: null, receipt: null, fallback_of: null, fallback_channel: null, customer_id: null });
    await db
      .updateTable('message_deliveries')
      .set({ provider: 'http', provider_id: 'gw-1', receipt: 'awaiting', fallback_channel: 'email', fallback_recipient: 'a@example.com', fallback_body: 'Old' })
      .where('id', '=', row.id)
      .execute();
    const found = await db.selectFrom('message_deliveries').select(['id', 'receipt']).where('channel', '=', 'sms').where('provider_id', '=', 'gw-1').execute();
    expect(found).toEqual([{ id: row.id, receipt: 'awaiting' }]);
  });
});
