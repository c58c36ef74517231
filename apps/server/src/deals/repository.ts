/**
 * A store's deals in the database (issue 28; tables: db/migrations/0028_deals.ts). Every write —
 * create, update, pause, resume, end — is one transaction holding the change and its history row
 * (the record before and after, who, when, from where); an update or a status change names the
 * version it was made over, and a change in between answers 409 `stale_deal` with the deal as it is.
 * A record is validated by the model's zod schema (`dealSchema`, packages/domain/src/deals/model.ts)
 * before anything is written, and again when read (a row is never trusted to be valid by itself).
 *
 * The active deals of a store are read on every cart change, totals and order, so each node keeps them
 * for `ttlMs` (default 1 s), like store settings (store-settings/service.ts): a change is seen at once on
 * the node that made it (its cache entry is dropped after the commit) and within that time on the
 * others. An order reads them again, uncached, inside its own transaction (`activeDealsOn`).
 */
import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import { dealSchema, type Deal } from '@verdant/domain';
import type { Database, DealChangeAction, DealChangeSource, DealStatus, Row } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { issueText } from '../http/parse.ts';

type Db = Kysely<Database>;

export interface DealActor {
  type: 'staff' | 'api_key' | 'system';
  id?: number | null;
  name: string;
}

/** A deal as stored: the record plus its row's bookkeeping. */
export interface StoredDeal {
  id: number;
  storeId: number;
  /** The record's `id`. */
  code: string;
  externalId: string | null;
  kind: Deal['kind'];
  title: string;
  status: DealStatus;
  version: number;
  /** Orders holding a redemption not given back. */
  redeemed: number;
  record: Deal;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
}

export interface DealChange {
  id: number;
  dealId: number;
  action: DealChangeAction;
  before: Deal | null;
  after: Deal;
  source: DealChangeSource;
  actor: { type: string; id: number | null; name: string };
  at: string;
}

export interface DealWriteOptions {
  source: DealChangeSource;
  /** The store's own id for the deal (integration API). */
  externalId?: string | null;
}

/** Told after a change is committed (e.g. drop a store's cached pages that show deals). */
export type DealsChangedListener = (storeId: number) => Promise<void> | void;

/**
 * One parsed record per stored record text (a record is a value: nobody edits one in place), so the
 * active deals read again after the 1 s cache are the same objects while unchanged, and the engine's
 * preparation of them (deals/apply.ts `preparedDealsOf`, kept per store) holds.
 */
const parsedRecords = new Map<string, Deal>();
const PARSED_RECORDS_LIMIT = 20_000;

function recordOf(text: string): Deal {
  let record = parsedRecords.get(text);
  if (!record) {
    record = dealSchema.parse(JSON.parse(text));
    if (parsedRecords.size >= PARSED_RECORDS_LIMIT) parsedRecords.clear();
    parsedRecords.set(text, record);
  }
  return record;
}

export function storedDeal(row: Row<'deals'>): StoredDeal {
  return {
    id: row.id,
    storeId: row.store_id,
    code: row.code,
    externalId: row.external_id,
    kind: row.kind as Deal['kind'],
    title: row.title,
    status: row.status,
    version: row.version,
    redeemed: row.redeemed,
    record: recordOf(row.record),
    createdAt: row.created_at,
    createdBy: row.created_by,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
  };
}

/**
 * Validate a record from a manager or an integration: `status` defaults to active on create, and
 * `id` to a slug of the title (made unique in the store by the caller).
 */
export function parseDealInput(input: unknown, fill: { id?: string; status?: DealStatus }): Deal {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new ApiError(400, 'A deal is a JSON object', {
      errorCode: 'invalid_deal',
    });
  const given = input as Record<string, unknown>;
  const merged = {
    ...given,
    id: given.id ?? fill.id,
    status: fill.status ?? given.status ?? 'active',
  };
  const parsed = dealSchema.safeParse(merged);
  if (!parsed.success)
    throw new ApiError(400, issueText(parsed.error), {
      errorCode: 'invalid_deal',
    });
  return parsed.data;
}

export function slugOf(title: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'deal';
}

/** Active deals of a store read on `conn` with no cache (an order's transaction). */
export async function activeDealsOn(conn: Db, storeId: number): Promise<StoredDeal[]> {
  const rows = await conn.selectFrom('deals').selectAll().where('store_id', '=', storeId).where('status', '=', 'active').orderBy('id').execute();
  return rows.map(storedDeal);
}

/** The app's repository of each database (bound by its constructor), so cart code handed only a connection shares its cache. */
const boundRepositories = new WeakMap<Db, DealsRepository>();

/**
 * A store's active deals for a cart read: through the repository bound to `db` (its 1 s cache), or
 * read with no cache on any other connection (a transaction) or when none is bound (a test without an app).
 */
export function activeDealsFor(db: Db, storeId: number): Promise<StoredDeal[]> {
  const repo = boundRepositories.get(db);
  return repo ? repo.active(storeId) : activeDealsOn(db, storeId);
}

const ACTION_STATUS: Record<'pause' | 'resume' | 'end', { from: DealStatus[]; to: DealStatus }> = {
  pause: { from: ['active'], to: 'paused' },
  resume: { from: ['paused'], to: 'active' },
  end: { from: ['active', 'paused'], to: 'ended' },
};

export interface DealsRepositoryOptions {
  db: Db;
  ttlMs?: number;
  now?: () => Date;
}

export class DealsRepository {
  private readonly cache = new Map<number, { at: number; deals: Promise<StoredDeal[]> }>();
  private readonly listeners: DealsChangedListener[] = [];
  private readonly ttlMs: number;
  private readonly now: () => Date;

  constructor(private readonly opts: DealsRepositoryOptions) {
    this.ttlMs = opts.ttlMs ?? 1000;
    this.now = opts.now ?? (() => new Date());
    boundRepositories.set(opts.db, this);
  }

  get db(): Db {
    return this.opts.db;
  }

  /** The store's deals, newest first; `status` narrows them. */
  async list(storeId: number, opts: { status?: DealStatus } = {}): Promise<StoredDeal[]> {
    let q = this.opts.db.selectFrom('deals').selectAll().where('store_id', '=', storeId);
    if (opts.status) q = q.where('status', '=', opts.status);
    const rows = await q.orderBy('id', 'desc').execute();
    return rows.map(storedDeal);
  }

  async get(storeId: number, id: number, conn: Db = this.opts.db): Promise<StoredDeal | undefined> {
    const row = await conn.selectFrom('deals').selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return row ? storedDeal(row) : undefined;
  }

  async getByCode(storeId: number, code: string): Promise<StoredDeal | undefined> {
    const row = await this.opts.db.selectFrom('deals').selectAll().where('store_id', '=', storeId).where('code', '=', code).executeTakeFirst();
    return row ? storedDeal(row) : undefined;
  }

  async getByExternalId(storeId: number, externalId: string): Promise<StoredDeal | undefined> {
    const row = await this.opts.db.selectFrom('deals').selectAll().where('store_id', '=', storeId).where('external_id', '=', externalId).executeTakeFirst();
    return row ? storedDeal(row) : undefined;
  }

  /**
   * The store's active deals (status active; the engine itself judges dates, days and hours), through
   * the node's `ttlMs` cache. Concurrent readers of a cold store share one query.
   */
  async active(storeId: number): Promise<StoredDeal[]> {
    const hit = this.cache.get(storeId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.deals;
    const deals = activeDealsOn(this.opts.db, storeId);
    this.cache.set(storeId, { at: Date.now(), deals });
    deals.catch(() => this.cache.delete(storeId));
    return deals;
  }

  /** Drop a store's cached active deals (after a change; also callable when another node announced one). */
  forget(storeId: number): void {
    this.cache.delete(storeId);
  }

  onChanged(listener: DealsChangedListener): void {
    this.listeners.push(listener);
  }

  private async changed(storeId: number): Promise<void> {
    this.forget(storeId);
    await Promise.allSettled(this.listeners.map(async (l) => l(storeId)));
  }

  /**
   * Create a deal from a record. Its `id` (the code) is the record's, or a slug of the title made
   * unique in the store; a record naming a code or external id the store already has is a 409.
   */
  async create(storeId: number, input: unknown, actor: DealActor, opts: DealWriteOptions): Promise<StoredDeal> {
    const given = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
    const explicitId = typeof given?.id === 'string';
    const draft = parseDealInput(input, {
      id: explicitId ? undefined : slugOf(typeof given?.title === 'string' ? given.title : 'deal'),
      status: given?.status === undefined ? 'active' : undefined,
    });
    const at = this.now().toISOString();
    const created = await this.opts.db
      .transaction()
      .execute(async (trx) => {
        let record = draft;
        if (!explicitId) record = { ...draft, id: await freeCode(trx, storeId, draft.id) };
        const clash = await trx
          .selectFrom('deals')
          .select(['id', 'code', 'external_id'])
          .where('store_id', '=', storeId)
          .where((eb) => (opts.externalId ? eb.or([eb('code', '=', record.id), eb('external_id', '=', opts.externalId)]) : eb('code', '=', record.id)))
          .executeTakeFirst();
        if (clash)
          throw new ApiError(
            409,
            clash.code === record.id
              ? `The store already has a deal with the id "${record.id}"`
              : `The store already has a deal with the external id "${opts.externalId}"`,
            {
              errorCode: 'deal_exists',
              meta: { dealId: clash.id },
            },
          );
        const text = JSON.stringify(record);
        const row = await trx
          .insertInto('deals')
          .values({
            store_id: storeId,
            code: record.id,
            external_id: opts.externalId ?? null,
            kind: record.kind,
            title: record.title,
            status: record.status,
            record: text,
            version: 1,
            created_at: at,
            created_by: actor.name,
            updated_at: at,
            updated_by: actor.name,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeChange(trx, row, 'create', null, text, actor, opts.source, at);
        return storedDeal(row);
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new ApiError(409, 'The store already has a deal with this id or external id', { errorCode: 'deal_exists' });
        throw error;
      });
    await this.changed(storeId);
    return created;
  }

  /**
   * Replace a deal's record over `version` (the one the editor read). The code and the status stay
   * (status changes are pause / resume / end); an ended deal cannot be edited.
   */
  async update(storeId: number, id: number, input: unknown, version: number, actor: DealActor, opts: DealWriteOptions): Promise<StoredDeal> {
    const saved = await this.opts.db.transaction().execute(async (trx) => {
      const current = await this.lockedRow(trx, storeId, id);
      if (current.version !== version) throw stale(storedDeal(current));
      if (current.status === 'ended') throw new ApiError(409, 'This deal has ended; create a new one instead.', { errorCode: 'deal_ended' });
      const given = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
      if (given.id !== undefined && given.id !== current.code)
        throw new ApiError(400, `id: a deal's id cannot change (it is "${current.code}")`, { errorCode: 'invalid_deal' });
      const record = parseDealInput(input, {
        id: current.code,
        status: current.status,
      });
      return this.write(trx, current, record, 'update', actor, opts);
    }).catch((error: unknown) => {
      if (isUniqueViolation(error)) throw new ApiError(409, 'The store already has a deal with this external id', { errorCode: 'deal_exists' });
      throw error;
    });
    await this.changed(storeId);
    return saved;
  }

  /** Pause (active → paused), resume (paused → active) or end (active or paused → ended; final). */
  async setStatus(
    storeId: number,
    id: number,
    action: 'pause' | 'resume' | 'end',
    version: number | null,
    actor: DealActor,
    opts: DealWriteOptions,
  ): Promise<StoredDeal> {
    const move = ACTION_STATUS[action];
    const saved = await this.opts.db.transaction().execute(async (trx) => {
      const current = await this.lockedRow(trx, storeId, id);
      if (version !== null && current.version !== version) throw stale(storedDeal(current));
      // Ending an ended deal again is the same answer (an integration's retried DELETE).
      if (current.status === move.to) return storedDeal(current);
      if (!move.from.includes(current.status))
        throw new ApiError(409, `A deal that is ${current.status} cannot be ${action === 'end' ? 'ended' : action === 'pause' ? 'paused' : 'resumed'}`, {
          errorCode: 'deal_status',
          meta: { status: current.status },
        });
      const record = { ...storedDeal(current).record, status: move.to };
      return this.write(trx, current, record, action, actor, opts);
    });
    await this.changed(storeId);
    return saved;
  }

  /** A deal's changes, newest first. */
  async history(storeId: number, dealId: number, opts: { beforeId?: number; limit?: number } = {}): Promise<DealChange[]> {
    let q = this.opts.db.selectFrom('deal_changes').selectAll().where('store_id', '=', storeId).where('deal_id', '=', dealId);
    if (opts.beforeId !== undefined) q = q.where('id', '<', opts.beforeId);
    const rows = await q
      .orderBy('id', 'desc')
      .limit(Math.min(Math.max(opts.limit ?? 50, 1), 200))
      .execute();
    return rows.map((r) => ({
      id: r.id,
      dealId: r.deal_id,
      action: r.action,
      before: r.before === null ? null : dealSchema.parse(JSON.parse(r.before)),
      after: dealSchema.parse(JSON.parse(r.after)),
      source: r.source,
      actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
      at: r.at,
    }));
  }

  /** The deal's row for a change: locked on PostgreSQL (SQLite runs one writer at a time); 404 when not the store's. */
  private async lockedRow(trx: Transaction<Database>, storeId: number, id: number): Promise<Row<'deals'>> {
    let q = trx.selectFrom('deals').selectAll().where('store_id', '=', storeId).where('id', '=', id);
    if (isPostgres(trx)) q = q.forUpdate();
    const row = await q.executeTakeFirst();
    if (!row) throw new ApiError(404, 'No such deal', { errorCode: 'deal_not_found' });
    return row;
  }

  private async write(
    trx: Transaction<Database>,
    current: Row<'deals'>,
    record: Deal,
    action: DealChangeAction,
    actor: DealActor,
    opts: DealWriteOptions,
  ): Promise<StoredDeal> {
    const at = this.now().toISOString();
    const text = JSON.stringify(record);
    const row = await trx
      .updateTable('deals')
      .set({
        kind: record.kind,
        title: record.title,
        status: record.status,
        record: text,
        version: current.version + 1,
        updated_at: at,
        updated_by: actor.name,
        ...(opts.externalId !== undefined ? { external_id: opts.externalId } : {}),
        // The budget's counter is kept while the deal has a budget (redemptions.ts): counted again
        // from the redemption rows whenever the record (re)states one.
        ...(record.limits.budget != null
          ? {
              redeemed: (eb) =>
                eb
                  .selectFrom('deal_redemptions')
                  .select((e) => e.fn.countAll<number>().as('n'))
                  .where('deal_id', '=', current.id)
                  .where('released_at', 'is', null),
            }
          : {}),
      })
      .where('id', '=', current.id)
      .where('version', '=', current.version)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw stale(storedDeal(current));
    await writeChange(trx, row, action, current.record, text, actor, opts.source, at);
    return storedDeal(row);
  }
}

function stale(current: StoredDeal): ApiError {
  return new ApiError(409, 'This deal was changed meanwhile; here it is as it is now.', { errorCode: 'stale_deal', meta: { current } });
}

async function writeChange(
  trx: Transaction<Database>,
  row: Row<'deals'>,
  action: DealChangeAction,
  before: string | null,
  after: string,
  actor: DealActor,
  source: DealChangeSource,
  at: string,
): Promise<void> {
  await trx
    .insertInto('deal_changes')
    .values({
      deal_id: row.id,
      store_id: row.store_id,
      action,
      before,
      after,
      source,
      actor_type: actor.type,
      actor_id: actor.id ?? null,
      actor_name: actor.name,
      at,
    })
    .execute();
}

/** `base`, or `base-2`, `base-3`, … : the first code the store does not have yet. */
async function freeCode(trx: Transaction<Database>, storeId: number, base: string): Promise<string> {
  const taken = new Set(
    (
      await trx
        .selectFrom('deals')
        .select('code')
        .where('store_id', '=', storeId)
        .where((eb) => eb.or([eb('code', '=', base), eb('code', 'like', `${base}-%`)]))
        .execute()
    ).map((r) => r.code),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A unique index refused the row (two creates of the same code at once on PostgreSQL). */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '23505' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}
