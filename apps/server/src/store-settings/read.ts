/**
 * Reading a store's settings sections (issue 14), the part the section modules themselves need
 * (hours, zones, tax lines, limits read their own section): below both them and ./service.ts, which
 * saves and caches and knows every section (./sections.ts). Where a value comes from: ./registry.ts.
 */
import type { Kysely } from 'kysely';
import type { Store } from '@verdant/domain';
import type { Database, Row } from '../db/schema.ts';
import type { SettingsSection } from './registry.ts';

import type { SectionValue } from '@verdant/domain/console-api';
// The answer's shape is the console's contract (@verdant/domain/console-api).
export type { SectionValue, SettingsSource } from '@verdant/domain/console-api';

/**
 * A section's value for a store read on the given connection, with no cache: inside a transaction
 * (an order is checked against the settings of the moment it is saved) or on SQLite's group-commit
 * connection, where a read through the app's database would wait for the connection it holds.
 */
export async function readSection<T>(conn: Kysely<Database>, store: Store, section: SettingsSection<T>): Promise<SectionValue<T>> {
  const held = heldSettings.get(conn);
  if (held?.storeId === store.storeId) return sectionValue(store, section, held.rows.get(section.name));
  const row = await conn
    .selectFrom('store_settings')
    .selectAll()
    .where('store_id', '=', store.storeId)
    .where('section', '=', section.name)
    .executeTakeFirst();
  return sectionValue(store, section, row);
}

/** Every section row of one store, read once for the work running on a connection (withStoreSettings). */
const heldSettings = new WeakMap<Kysely<Database>, { storeId: number; rows: Map<string, Row<'store_settings'>> }>();

/**
 * Run `work` with every settings section of `store` read on `conn` in one query first: readSection
 * on that connection answers from those rows until `work` ends. An order's transaction reads its
 * store's hours, tax lines, limits (and zones, age check) this way: one query instead of one per
 * section, all as of the same moment of the transaction. Other stores' sections (a licence holder's
 * other stores) are read as usual.
 */
export async function withStoreSettings<T>(conn: Kysely<Database>, store: Store, work: () => Promise<T>): Promise<T> {
  const rows = await conn.selectFrom('store_settings').selectAll().where('store_id', '=', store.storeId).execute();
  heldSettings.set(conn, { storeId: store.storeId, rows: new Map(rows.map((r) => [r.section, r])) });
  try {
    return await work();
  } finally {
    heldSettings.delete(conn);
  }
}

export function sectionValue<T>(store: Store, section: SettingsSection<T>, row: Row<'store_settings'> | undefined): SectionValue<T> {
  if (row) return { value: section.schema.parse(JSON.parse(row.value)), version: row.version, source: 'saved', updatedAt: row.updated_at };
  const given = store.settings?.[section.name];
  if (given !== undefined) return { value: section.schema.parse(given), version: 0, source: 'stores-file', updatedAt: null };
  return { value: section.initial(store), version: 0, source: 'default', updatedAt: null };
}

/**
 * The app's settings service of each store (by the registry's store object, which requests carry),
 * bound once at start (app.ts), so code that is handed only a connection and a store — hours, limits,
 * tax lines — shares the service's 1 s cache. Unbound (a test without an app): read with no cache.
 */
/** What a bound settings service answers (service.ts StoreSettings). */
export interface CachedSettings {
  get<T>(storeId: number, section: SettingsSection<T>, opts?: { conn?: Kysely<Database> }): Promise<SectionValue<T>>;
}

const boundSettings = new WeakMap<Store, CachedSettings>();

export function bindStoreSettings(settings: CachedSettings, stores: readonly Store[]): void {
  for (const store of stores) boundSettings.set(store, settings);
}

/** The store's bound settings service, if any. */
export function boundSettingsOf(store: Store): CachedSettings | undefined {
  return boundSettings.get(store);
}

/**
 * A section's value for a store: through the bound service's 1 s cache on the app's database; read
 * with no cache on any other connection (a transaction: an order is checked against the settings of
 * the moment it is saved) or when no service is bound.
 */
export function sectionOf<T>(conn: Kysely<Database>, store: Store, section: SettingsSection<T>): Promise<SectionValue<T>> {
  const settings = boundSettings.get(store);
  return settings ? settings.get(store.storeId, section, { conn }) : readSection(conn, store, section);
}
