/**
 * Phone identity (issue 10):
 *  - `customers.phone_verified_at`: when the phone's holder proved it with an SMS code. Every
 *    existing account starts unproven (null): before this migration `POST /api/user/create` made
 *    accounts for phones nobody confirmed, and nothing tells those apart from the others. What an
 *    unproven account may do is decided in users/proof.ts.
 *  - `customers.phone` in E.164 ("+19165550142", US default region), as the server now stores and
 *    compares it. Nothing is merged: when two rows of one store come to the same number, both are
 *    left as they are and reported (a warning line per number), so an operator decides which
 *    account is whose; the unique (store, phone) index holds throughout. Numbers that do not parse
 *    are left and reported too.
 *  - `auth_codes` is cleared: codes live 10 minutes and were keyed by the old spelling.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Kysely } from 'kysely';
import type { DialectMigration } from './helpers.ts';

export interface PhoneDuplicate {
  storeId: number;
  /** The E.164 number the rows share. */
  phone: string;
  ids: number[];
  /** The rows' stored spellings, in `ids` order. */
  stored: string[];
}

export interface PhoneNormalisation {
  /** Rows rewritten to E.164. */
  normalized: number;
  /** Numbers two or more rows of a store share once normalised; those rows are left unchanged. */
  duplicates: PhoneDuplicate[];
  /** Rows whose phone is not a valid number; left unchanged. */
  invalid: { id: number; storeId: number; stored: string }[];
}

/** Frozen here (not imported from the server code) so this migration keeps meaning what it meant. */
function e164(stored: string): string | null {
  const parsed = parsePhoneNumberFromString(stored.trim(), 'US');
  return parsed && parsed.isValid() ? parsed.number : null;
}

/** Rewrite every customer's phone to E.164 where that merges nothing; report the rest. */
export async function normalizeCustomerPhones(db: Kysely<any>): Promise<PhoneNormalisation> {
  const rows = (await db.selectFrom('customers').select(['id', 'store_id', 'phone']).orderBy('id').execute()) as { id: number; store_id: number; phone: string }[];
  const report: PhoneNormalisation = { normalized: 0, duplicates: [], invalid: [] };
  const groups = new Map<string, { id: number; store_id: number; phone: string }[]>();
  for (const row of rows) {
    const target = e164(row.phone);
    if (!target) {
      report.invalid.push({ id: row.id, storeId: row.store_id, stored: row.phone });
      continue;
    }
    const key = `${row.store_id}:${target}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  for (const [key, members] of groups) {
    const phone = key.slice(key.indexOf(':') + 1);
    if (members.length > 1) {
      report.duplicates.push({ storeId: members[0].store_id, phone, ids: members.map((m) => m.id), stored: members.map((m) => m.phone) });
      continue;
    }
    if (members[0].phone === phone) continue;
    await db.updateTable('customers').set({ phone }).where('id', '=', members[0].id).execute();
    report.normalized += 1;
  }
  return report;
}

async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('customers').addColumn('phone_verified_at', 'text').execute();
  const report = await normalizeCustomerPhones(db);
  // A migration has no logger of its own; these lines reach the server's output (start or `npm run migrate`).
  for (const d of report.duplicates) {
    console.warn(`migration 0009: store ${d.storeId}: customers ${d.ids.join(', ')} (${d.stored.join(' / ')}) are one number ${d.phone}; left unchanged, not merged — resolve by hand`);
  }
  for (const r of report.invalid) console.warn(`migration 0009: store ${r.storeId}: customer ${r.id} has no valid phone number (${r.stored}); left unchanged`);
  await db.deleteFrom('auth_codes').execute();
}

async function down(db: Kysely<any>): Promise<void> {
  // The E.164 spellings stay: the digits-only form they came from is not kept anywhere.
  await db.schema.alterTable('customers').dropColumn('phone_verified_at').execute();
}

export const migration0009: DialectMigration = { up, down };
