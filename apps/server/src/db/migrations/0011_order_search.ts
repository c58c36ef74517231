/**
 * Indexed search for the console's order queue (issue 12): the queue searched a customer's name
 * or phone with `LIKE '%…%'` over every order's contact JSON, which reads every order of the
 * store. Orders now carry their search keys, written when placed (orders/console/search-keys.ts
 * describes them and the matching rule) and filled here for the orders placed before:
 *  - `search_phone` (E.164 digits), `search_phone_rev` (the same reversed: "ends with" as a prefix),
 *    `search_name` ("first last"), `search_surname` ("last first"), lower-cased and accent-folded;
 *  - an index `(store_id, key)` on each and on `increment_id` (order numbers by their beginning), so
 *    a search is a few index range scans (`key >= 'abc' and key < 'abd'`). On PostgreSQL the columns are `collate "C"`: bytewise order,
 *    as SQLite's BINARY, so a range is a prefix whatever the database's collation.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { sql, type Kysely } from 'kysely';
import type { DialectMigration, SqlDialect } from './helpers.ts';

const COLUMNS = ['search_phone', 'search_phone_rev', 'search_name', 'search_surname'] as const;

/** Frozen here (not imported from the server code) so this migration keeps meaning what it meant. */
const FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

function foldName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => FOLDS[c] ?? c)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function phoneDigits(phone: string): string {
  const parsed = parsePhoneNumberFromString(phone.trim(), 'US');
  return (parsed && parsed.isValid() ? parsed.number : phone).replace(/\D/g, '');
}

export function searchKeysOf(personalDetails: string): Record<(typeof COLUMNS)[number], string> {
  let p: { firstName?: unknown; lastName?: unknown; phone?: unknown } = {};
  try {
    p = (JSON.parse(personalDetails) as typeof p) ?? {};
  } catch {
    // Unreadable contact details: nothing to search by.
  }
  const first = foldName(typeof p.firstName === 'string' ? p.firstName : '');
  const last = foldName(typeof p.lastName === 'string' ? p.lastName : '');
  const digits = phoneDigits(typeof p.phone === 'string' ? p.phone : '');
  return {
    search_phone: digits,
    search_phone_rev: [...digits].reverse().join(''),
    search_name: [first, last].filter(Boolean).join(' '),
    search_surname: [last, first].filter(Boolean).join(' '),
  };
}

async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const type = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  for (const col of COLUMNS)
    await db.schema
      .alterTable('orders')
      .addColumn(col, type, (c) => c.notNull().defaultTo(''))
      .execute();
  let after = 0;
  for (;;) {
    const rows = (await db
      .selectFrom('orders')
      .select(['id', 'personal_details'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute()) as { id: number; personal_details: string }[];
    if (!rows.length) break;
    for (const r of rows) await db.updateTable('orders').set(searchKeysOf(r.personal_details)).where('id', '=', r.id).execute();
    after = rows.at(-1)!.id;
  }
  for (const col of COLUMNS) await db.schema.createIndex(`orders_store_id_${col}_idx`).on('orders').columns(['store_id', col]).execute();
  // Order numbers by their beginning, within the store (the unique index has no store in front).
  await db.schema.createIndex('orders_store_id_increment_id_idx').on('orders').columns(['store_id', 'increment_id']).execute();
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_store_id_increment_id_idx').execute();
  for (const col of COLUMNS) await db.schema.dropIndex(`orders_store_id_${col}_idx`).execute();
  for (const col of COLUMNS) await db.schema.alterTable('orders').dropColumn(col).execute();
}

export const migration0011: DialectMigration = { up, down };
