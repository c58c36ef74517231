/**
 * The demo stores' delivery fleet (issue 29): each store of the stores file that delivers (a
 * delivery radius above 0) gets two drivers and two vehicles, once — a store that already has a
 * driver or a vehicle is left as it is, so a re-seed never undoes the console's work. Names, numbers
 * and plates are made up (plates use the store's state; licence numbers the California shape).
 */
import type { StoresFile } from '@verdant/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

const DRIVERS = [
  { name: 'Dana Whitfield', employee: 'D-101', licence: 'D4518023' },
  { name: 'Marco Ibarra', employee: 'D-102', licence: 'B7730146' },
] as const;

const VEHICLES = [
  { make: 'Toyota', model: 'Prius', plate: '8VDT101' },
  { make: 'Ford', model: 'Transit Connect', plate: '8VDT102' },
] as const;

export interface FleetWritten {
  drivers: number;
  vehicles: number;
}

export async function seedDemoFleet(trx: Kysely<Database>, storesFile: StoresFile, at: Date): Promise<FleetWritten> {
  const iso = at.toISOString();
  const written: FleetWritten = { drivers: 0, vehicles: 0 };
  for (const store of storesFile.stores) {
    if (!(store.dispensarySettings.place_info.delivery_radius_miles > 0)) continue;
    const id = store.storeId;
    const hasDriver = await trx.selectFrom('drivers').select('id').where('store_id', '=', id).limit(1).executeTakeFirst();
    if (!hasDriver)
      for (const d of DRIVERS) {
        await trx
          .insertInto('drivers')
          .values({ store_id: id, name: d.name, employee_number: d.employee, licence_number: d.licence, staff_id: null, active: 1, created_at: iso, updated_at: iso })
          .execute();
        written.drivers += 1;
      }
    const hasVehicle = await trx.selectFrom('vehicles').select('id').where('store_id', '=', id).limit(1).executeTakeFirst();
    if (!hasVehicle)
      for (const [i, v] of VEHICLES.entries()) {
        // Unique per store anyway; the store id keeps the demo plates apart between stores too.
        const plate = `${v.plate.slice(0, 4)}${String(id).padStart(2, '0')}${i + 1}`;
        await trx.insertInto('vehicles').values({ store_id: id, make: v.make, model: v.model, plate, active: 1, created_at: iso, updated_at: iso }).execute();
        written.vehicles += 1;
      }
  }
  return written;
}

/** Whether none of the file's stores has a driver or vehicle yet (a demo database from before issue 29). */
export async function noFleetYet(db: Kysely<Database>, storesFile: StoresFile): Promise<boolean> {
  const ids = storesFile.stores.map((s) => s.storeId);
  const driver = await db.selectFrom('drivers').select('id').where('store_id', 'in', ids).limit(1).executeTakeFirst();
  const vehicle = await db.selectFrom('vehicles').select('id').where('store_id', 'in', ids).limit(1).executeTakeFirst();
  return !driver && !vehicle;
}
