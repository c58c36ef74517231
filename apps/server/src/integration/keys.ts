/**
 * Per-store API keys of the integration API (issue 13). A key reads `vdk_<prefix>_<secret>`:
 * `prefix` (8 random base32-ish characters) is public — shown in the console's list and used to
 * find the row — and `secret` is 32 random bytes in base64url. Only the SHA-256 of the whole key is
 * stored: for 256 random bits a slow password hash buys nothing (there is nothing to guess), and a
 * fast one keeps every API call cheap. The comparison is constant-time all the same.
 *
 * The key is shown once, in the answer to its creation; it cannot be read back, only revoked.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { API_SCOPES, type ApiKeyCreated, type ApiKeyView } from '@verdant/domain/console-api';
import type { ApiScope, Database, Row } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { sameSecret } from '../staff/sessions.ts';

export const KEY_PATTERN = /^vdk_([a-z0-9]{8})_([A-Za-z0-9_-]{43})$/;
/** How often last_used_at is written at most, per key (a busy POS calls many times a second). */
export const LAST_USED_EVERY_MS = 60_000;
/** Keys per store at most (live and revoked; a revoked key's row stays for the record). */
export const MAX_KEYS_PER_STORE = 50;

export { API_SCOPES, keyNameSchema, scopesSchema, type ApiKeyView } from '@verdant/domain/console-api';

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function scopesOf(row: Pick<Row<'api_keys'>, 'scopes'>): ApiScope[] {
  return row.scopes.split(',').filter((s): s is ApiScope => (API_SCOPES as readonly string[]).includes(s));
}

export function keyView(row: Row<'api_keys'>): ApiKeyView {
  return {
    id: row.id,
    store_id: row.store_id,
    name: row.name,
    hint: `vdk_${row.prefix}_…`,
    scopes: scopesOf(row),
    created_by: row.created_by,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  };
}

const PREFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
function newPrefix(): string {
  const bytes = randomBytes(8);
  return [...bytes].map((b) => PREFIX_ALPHABET[b % PREFIX_ALPHABET.length]).join('');
}

export interface NewKey {
  name: string;
  scopes: ApiScope[];
  createdBy: string;
}

/** Create a key; the answer's `key` is the only time the secret exists outside the caller. */
export async function createApiKey(db: Kysely<Database>, storeId: number, input: NewKey, now: Date): Promise<ApiKeyCreated> {
  return db.transaction().execute(async (trx) => {
    const { n } = await trx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('store_id', '=', storeId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_KEYS_PER_STORE)
      throw new ApiError(409, `A store can have at most ${MAX_KEYS_PER_STORE} live API keys; revoke one first.`, {
        errorCode: 'api_key_limit',
      });
    const prefix = newPrefix();
    const key = `vdk_${prefix}_${randomBytes(32).toString('base64url')}`;
    const row = await trx
      .insertInto('api_keys')
      .values({
        store_id: storeId,
        name: input.name,
        prefix,
        secret_hash: hashKey(key),
        scopes: input.scopes.join(','),
        created_by: input.createdBy,
        created_at: now.toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...keyView(row), key };
  });
}

export async function listApiKeys(db: Kysely<Database>, storeId: number): Promise<ApiKeyView[]> {
  const rows = await db.selectFrom('api_keys').selectAll().where('store_id', '=', storeId).orderBy('id', 'desc').execute();
  return rows.map(keyView);
}

/** Revoke a key of the store (or of any store when storeId is null: the CLI by id). Revoking twice keeps the first time. */
export async function revokeApiKey(db: Kysely<Database>, storeId: number | null, keyId: number, now: Date): Promise<ApiKeyView> {
  let q = db.updateTable('api_keys').set({ revoked_at: now.toISOString() }).where('id', '=', keyId).where('revoked_at', 'is', null);
  if (storeId !== null) q = q.where('store_id', '=', storeId);
  await q.execute();
  let read = db.selectFrom('api_keys').selectAll().where('id', '=', keyId);
  if (storeId !== null) read = read.where('store_id', '=', storeId);
  const row = await read.executeTakeFirst();
  if (!row) throw new ApiError(404, 'No such API key.', { errorCode: 'api_key_not_found' });
  return keyView(row);
}

/** A live key, found by its prefix and checked against its hash in constant time; null otherwise. */
export async function findLiveKey(db: Kysely<Database>, key: string): Promise<Row<'api_keys'> | null> {
  const m = KEY_PATTERN.exec(key);
  if (!m) return null;
  const row = await db.selectFrom('api_keys').selectAll().where('prefix', '=', m[1]).executeTakeFirst();
  if (!row || row.revoked_at !== null) return null;
  return sameSecret(hashKey(key), row.secret_hash) ? row : null;
}

/**
 * Refresh last_used_at when it is older than LAST_USED_EVERY_MS: one conditional UPDATE, so many
 * nodes and concurrent calls write it at most about once a minute per key.
 */
export async function touchKey(db: Kysely<Database>, row: Row<'api_keys'>, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - LAST_USED_EVERY_MS).toISOString();
  if (row.last_used_at !== null && row.last_used_at > cutoff) return;
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now.toISOString() })
    .where('id', '=', row.id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', cutoff)]))
    .execute();
}
