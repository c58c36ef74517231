/**
 * Reading and saving a store's settings sections (issue 14; registry.ts says where a value comes
 * from). Reads are on the hot path (every cart change, checkout and order reads hours, zones, tax
 * and limits), so each node keeps what it read for `ttlMs` (default 1 s): a save is seen at once on
 * the node that made it and within that time on the others. A save is one transaction: the new
 * value (only over the version the editor read: a concurrent save answers 409 with the current
 * value) and a history row with the value before and after.
 */
import type { Kysely } from 'kysely';
import type { Store } from '@verdant/domain';
import type { Database, Row } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { issueText } from '../http/parse.ts';
import type { SectionValue, SettingsHistoryEntry, SettingsSource } from '@verdant/domain/console-api';
import { allSections, type SettingsSection } from './registry.ts';
import { readSection, sectionValue } from './read.ts';
import './sections.ts';

export type { SectionValue, SettingsSource } from '@verdant/domain/console-api';

export interface SettingsActor {
  type: 'staff' | 'cli';
  id?: number | null;
  name: string;
}

export interface StoreSettingsOptions {
  db: Kysely<Database>;
  /** The deployment's stores (the stores file's entries). */
  stores: readonly Store[];
  ttlMs?: number;
  now?: () => Date;
}

/** Check every store's `settings` of the stores file against the section schemas; throws naming the field. */
export function checkStoresFileSettings(stores: readonly Store[]): void {
  for (const store of stores) {
    const given = store.settings ?? {};
    for (const key of Object.keys(given)) {
      const section = allSections().find((s) => s.name === key);
      if (!section)
        throw new Error(
          `stores file: ${store.storeCode}.settings.${key}: no such settings section (known: ${
            allSections()
              .map((s) => s.name)
              .join(', ') || 'none'
          })`,
        );
      const parsed = section.schema.safeParse(given[key]);
      if (!parsed.success) throw new Error(`stores file: ${store.storeCode}.settings.${key}: ${issueText(parsed.error)}`);
    }
  }
}

/** Told after a section's save is committed (e.g. tax lines: rebuild the store's catalogue views). */
export type SettingsSavedListener = (storeId: number, section: string) => Promise<void> | void;

export class StoreSettings {
  private readonly cache = new Map<string, { at: number; value: SectionValue<unknown> }>();
  private readonly savedListeners: SettingsSavedListener[] = [];
  private readonly byId: Map<number, Store>;
  private readonly ttlMs: number;
  private readonly now: () => Date;

  constructor(private readonly opts: StoreSettingsOptions) {
    checkStoresFileSettings(opts.stores);
    this.byId = new Map(opts.stores.map((s) => [s.storeId, s]));
    this.ttlMs = opts.ttlMs ?? 1000;
    this.now = opts.now ?? (() => new Date());
  }

  private store(storeId: number): Store {
    const store = this.byId.get(storeId);
    if (!store) throw new ApiError(404, 'No such store');
    return store;
  }

  /**
   * The section's value for a store, and where it came from: through the 1 s cache, or, given
   * `conn` other than the app's database (a transaction), read on it with no cache (readSection).
   */
  async get<T>(storeId: number, section: SettingsSection<T>, opts: { conn?: Kysely<Database> } = {}): Promise<SectionValue<T>> {
    if (opts.conn && opts.conn !== this.opts.db) return readSection(opts.conn, this.store(storeId), section);
    const key = `${storeId}:${section.name}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value as SectionValue<T>;
    const value = await readSection(this.opts.db, this.store(storeId), section);
    this.cache.set(key, { at: Date.now(), value });
    return value;
  }

  private valueOf<T>(storeId: number, section: SettingsSection<T>, row: Row<'store_settings'> | undefined): SectionValue<T> {
    return sectionValue(this.store(storeId), section, row);
  }

  /**
   * Validate and save a section. `version`: the one the editor read (0 before the first save);
   * another save in between answers 409 `stale_settings` with the current value.
   */
  async save<T>(
    storeId: number,
    section: SettingsSection<T>,
    input: unknown,
    version: number,
    actor: SettingsActor,
  ): Promise<SectionValue<T>> {
    this.store(storeId);
    const parsed = section.schema.safeParse(input);
    if (!parsed.success) throw new ApiError(400, issueText(parsed.error), { errorCode: 'invalid_settings' });
    const at = this.now().toISOString();
    const text = JSON.stringify(parsed.data);
    const saved = await this.opts.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('store_settings')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('section', '=', section.name)
        .executeTakeFirst();
      const before = this.valueOf(storeId, section, current);
      if (before.version !== version) return { stale: before };
      if (current) {
        const updated = await trx
          .updateTable('store_settings')
          .set({ value: text, version: version + 1, updated_at: at })
          .where('store_id', '=', storeId)
          .where('section', '=', section.name)
          .where('version', '=', version)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) return { stale: before };
      } else {
        // Two first saves at once: the primary key lets one in; the other is stale.
        const inserted = await trx
          .insertInto('store_settings')
          .values({ store_id: storeId, section: section.name, value: text, version: 1, updated_at: at })
          .onConflict((oc) => oc.columns(['store_id', 'section']).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return { stale: before };
      }
      await trx
        .insertInto('store_settings_history')
        .values({
          store_id: storeId,
          section: section.name,
          before: JSON.stringify(before.value),
          after: text,
          actor_type: actor.type,
          actor_id: actor.id ?? null,
          actor_name: actor.name,
          at,
        })
        .execute();
      return { value: { value: parsed.data, version: version + 1, source: 'saved' as const, updatedAt: at } };
    });
    this.cache.delete(`${storeId}:${section.name}`);
    if ('stale' in saved)
      throw new ApiError(409, 'These settings were changed meanwhile; here they are as they are now.', {
        errorCode: 'stale_settings',
        meta: { current: saved.stale },
      });
    await Promise.allSettled(this.savedListeners.map(async (listen) => listen(storeId, section.name)));
    return saved.value as SectionValue<T>;
  }

  /**
   * Run `listener` after every committed save (the save answers once the listeners are done; a
   * listener's failure does not undo the save, which is committed: the listener must log it).
   */
  onSaved(listener: SettingsSavedListener): void {
    this.savedListeners.push(listener);
  }

  /** A section's saves, newest first. */
  async history(storeId: number, section: SettingsSection, opts: { beforeId?: number; limit?: number } = {}): Promise<SettingsHistoryEntry[]> {
    let q = this.opts.db
      .selectFrom('store_settings_history')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('section', '=', section.name);
    if (opts.beforeId !== undefined) q = q.where('id', '<', opts.beforeId);
    const rows = await q
      .orderBy('id', 'desc')
      .limit(Math.min(Math.max(opts.limit ?? 20, 1), 100))
      .execute();
    return rows.map((r) => ({
      id: r.id,
      at: r.at,
      actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
      before: r.before === null ? null : (JSON.parse(r.before) as unknown),
      after: JSON.parse(r.after) as unknown,
    }));
  }
}
