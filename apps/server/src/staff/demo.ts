/**
 * Demo staff (demo mode only, never otherwise): an owner, a manager, a budtender and a driver of
 * `downtown`, and a manager of `harbor` (whose menu the browser journeys import into, away from the menus the
 * shopper journeys count on), all with the password `verdant-demo-staff`, so anyone trying Verdant (and the browser journeys)
 * can open the console. Idempotent: a member that exists is left as it is.
 */
import type { Kysely } from 'kysely';
import type { Database, StaffRole } from '../db/schema.ts';
import { createMember, EmailTakenError } from './members.ts';

export const DEMO_STAFF_PASSWORD = 'verdant-demo-staff';

export const DEMO_STAFF: readonly { email: string; name: string; role: StaffRole; storeCodes: string[] }[] = [
  { email: 'owner@demo.verdant.test', name: 'Olivia Owner', role: 'owner', storeCodes: [] },
  { email: 'manager@demo.verdant.test', name: 'Marco Manager', role: 'manager', storeCodes: ['downtown'] },
  { email: 'budtender@demo.verdant.test', name: 'Bea Budtender', role: 'budtender', storeCodes: ['downtown'] },
  { email: 'harbor.manager@demo.verdant.test', name: 'Hana Harbor', role: 'manager', storeCodes: ['harbor'] },
  // Issue 29: downtown's driver Dana Whitfield logs in with this (linked by seed/demo-trip.ts).
  { email: 'driver@demo.verdant.test', name: 'Dana Whitfield', role: 'driver', storeCodes: ['downtown'] },
];

/** Create the demo members that are missing; returns the e-mails created. */
export async function ensureDemoStaff(db: Kysely<Database>, now: Date = new Date()): Promise<string[]> {
  const existing = new Set(
    (
      await db
        .selectFrom('staff')
        .select('email')
        .where(
          'email',
          'in',
          DEMO_STAFF.map((m) => m.email),
        )
        .execute()
    ).map((r) => r.email),
  );
  const stores = await db.selectFrom('stores').select(['id', 'code']).execute();
  const created: string[] = [];
  for (const m of DEMO_STAFF) {
    if (existing.has(m.email)) continue;
    const storeIds = stores.filter((s) => m.storeCodes.includes(s.code)).map((s) => s.id);
    if (m.role !== 'owner' && storeIds.length === 0) continue;
    try {
      await createMember(db, { email: m.email, name: m.name, role: m.role, storeIds, password: DEMO_STAFF_PASSWORD }, now);
      created.push(m.email);
    } catch (error) {
      // Another node starting at the same time made it.
      if (!(error instanceof EmailTakenError)) throw error;
    }
  }
  return created;
}
