/**
 * Migration 0009 on a database as 0008 left it (both databases): phones become E.164, rows of one
 * store that come to the same number are left as they are and reported (nothing merged), numbers
 * that do not parse are reported, old codes are cleared, and the unique (store, phone) index holds.
 */
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { DEMO_STORES_FILE } from '../config.ts';
import { syncStores } from '../db/index.ts';
import { MIGRATIONS } from '../db/migrations/index.ts';
import { normalizeCustomerPhones } from '../db/migrations/0009_phone_identity.ts';
import { readStoresFile } from '../seed/stores-file.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';

const AT = '2026-06-15T12:00:00.000Z';

describeEachDatabase(
  'migration 0009: phone identity',
  (getDb) => {
    beforeAll(async () => {
      const { db, dialect } = getDb();
      for (const [name, m] of Object.entries(MIGRATIONS)) if (name < '0009') await m.up(db, dialect);
      await syncStores(db, readStoresFile(DEMO_STORES_FILE), new Date(AT));
    });
    afterEach(() => vi.restoreAllMocks());

    const customer = (storeId: number, phone: string, email: string | null = null) => ({
      store_id: storeId,
      phone,
      email,
      firstname: null,
      lastname: null,
      license_type: 'recreational' as const,
      birthday: '1990-01-01',
      medcard_number: null,
      medcard_expiry: null,
      created_from: 'portal_online',
      password_hash: null,
      created_at: AT,
      updated_at: AT,
    });

    it('normalises what it can, merges nothing, reports duplicates and non-numbers, keeps the unique index', async () => {
      const { db, dialect } = getDb();
      const insert = async (storeId: number, phone: string) =>
        ((await db.insertInto('customers').values(customer(storeId, phone)).returning('id').executeTakeFirstOrThrow()) as { id: number }).id;
      const plain = await insert(1, '9165550101');
      const withCountry = await insert(1, '19165550102');
      // One number, two spellings, one store: the old digits-only key told them apart.
      const dupA = await insert(1, '9166427197');
      const dupB = await insert(1, '19166427197');
      // The same number in another store is another customer: normalised.
      const otherStore = await insert(2, '9166427197');
      const junk = await insert(1, '1234567');
      await db.insertInto('auth_codes').values({ store_id: 1, phone: '9165550101', code_hash: 'x', expires_at: AT, consumed_at: null, created_at: AT }).execute();

      const warnings: string[] = [];
      vi.spyOn(console, 'warn').mockImplementation((line: unknown) => void warnings.push(String(line)));
      await MIGRATIONS['0009_phone_identity'].up(db, dialect);

      const phones = Object.fromEntries((await db.selectFrom('customers').select(['id', 'phone', 'phone_verified_at']).execute()).map((r) => [r.id, r]));
      expect(phones[plain]).toEqual({ id: plain, phone: '+19165550101', phone_verified_at: null });
      expect(phones[withCountry].phone).toBe('+19165550102');
      expect(phones[dupA].phone).toBe('9166427197');
      expect(phones[dupB].phone).toBe('19166427197');
      expect(phones[otherStore].phone).toBe('+19166427197');
      expect(phones[junk].phone).toBe('1234567');
      expect(warnings).toEqual([
        `migration 0009: store 1: customers ${dupA}, ${dupB} (9166427197 / 19166427197) are one number +19166427197; left unchanged, not merged — resolve by hand`,
        `migration 0009: store 1: customer ${junk} has no valid phone number (1234567); left unchanged`,
      ]);
      expect(await db.selectFrom('auth_codes').selectAll().execute()).toEqual([]);
      // The unique (store, phone) index still refuses a second row of one number.
      await expect(db.insertInto('customers').values(customer(1, '+19165550101')).execute()).rejects.toThrow(/unique|duplicate/i);

      // Run again (say, after an operator fixed one duplicate by hand): only the rest is reported.
      await db.updateTable('customers').set({ phone: '+19166427100' }).where('id', '=', dupB).execute();
      const report = await normalizeCustomerPhones(db);
      expect(report).toEqual({ normalized: 1, duplicates: [], invalid: [{ id: junk, storeId: 1, stored: '1234567' }] });
      expect((await db.selectFrom('customers').select('phone').where('id', '=', dupA).executeTakeFirstOrThrow()).phone).toBe('+19166427197');
    });
  },
  { migrate: false },
);
