/**
 * Access tokens: JWT HS256 (jose), 1 hour, carrying what the cart needs without a lookup (store,
 * customer or guest, licence, order type, price group). Refresh tokens: 256 random bits, only
 * their sha256 is stored, 30 days, rotated on every use; a reused (already rotated) token means it
 * leaked, so its whole family is revoked (RFC 6819 §5.2.2.3 style).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Kysely } from 'kysely';
import { MESSAGES, type LicenseType } from '@verdant/domain';
import type { OrderType } from '../db/tables/commerce.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';

export const ACCESS_TTL_SECONDS = 60 * 60;
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const PENDING_TTL_SECONDS = 10 * 60;
const ISSUER = 'verdant';

export interface AccessClaims {
  storeId: number;
  /** Null for a guest session. */
  customerId: number | null;
  licenseType: LicenseType;
  orderType: OrderType;
  groupId: number;
  /** The customer's phone was proven when the token was signed (users/proof.ts). A token of a
   *  not-yet-proven account dies with the proof: authOf checks such tokens against the row. */
  phoneProven?: boolean;
}

export const AUTH_MESSAGES = {
  tokenRequired: MESSAGES.loginRequired,
  tokenInvalid: 'Your session has expired or is invalid. Please log in again.',
  refreshInvalid: 'Your session has expired. Please log in again.',
} as const;

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export async function signAccess(secret: Uint8Array, c: AccessClaims, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sid: c.storeId, lic: c.licenseType, ot: c.orderType, gid: c.groupId, typ: 'access', ...(c.phoneProven ? { pv: 1 } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setSubject(c.customerId == null ? 'guest' : String(c.customerId))
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TTL_SECONDS)
    .sign(secret);
}

/** The claims, or null when the token is malformed, forged, expired or not an access token. */
export async function verifyAccess(secret: Uint8Array, token: string, now: Date): Promise<AccessClaims | null> {
  try {
    const { payload: p } = await jwtVerify(token, secret, { algorithms: ['HS256'], issuer: ISSUER, currentDate: now });
    if (p.typ !== 'access' || typeof p.sid !== 'number' || typeof p.sub !== 'string') return null;
    const customerId = p.sub === 'guest' ? null : Number(p.sub);
    if (customerId !== null && !Number.isSafeInteger(customerId)) return null;
    return { storeId: p.sid, customerId, licenseType: p.lic as LicenseType, orderType: p.ot as OrderType, groupId: Number(p.gid ?? 0), phoneProven: p.pv === 1 };
  } catch {
    return null;
  }
}

/** A short-lived token proving "this phone passed the SMS code" until licence and birthday are given. */
export async function signPending(secret: Uint8Array, storeId: number, phone: string, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sid: storeId, phone, typ: 'pending' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + PENDING_TTL_SECONDS)
    .sign(secret);
}

export async function verifyPending(secret: Uint8Array, token: string, storeId: number, now: Date): Promise<string | null> {
  try {
    const { payload: p } = await jwtVerify(token, secret, { algorithms: ['HS256'], issuer: ISSUER, currentDate: now });
    return p.typ === 'pending' && p.sid === storeId && typeof p.phone === 'string' ? p.phone : null;
  } catch {
    return null;
  }
}

/** Signed newsletter links (an unsubscribe link in a mail): valid this long. */
export const NEWSLETTER_LINK_TTL_SECONDS = 60 * 24 * 60 * 60;

/**
 * A link token that lets its holder read and change one address's subscription in one store
 * without a session: HS256 over the address, the store and an expiry, so it can only have come
 * from a mail this server sent to that address.
 */
export async function signNewsletterLink(secret: Uint8Array, storeId: number, email: string, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sid: storeId, email, typ: 'newsletter' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + NEWSLETTER_LINK_TTL_SECONDS)
    .sign(secret);
}

/** The address of a valid newsletter link token of this store, or null. */
export async function verifyNewsletterLink(secret: Uint8Array, token: string, storeId: number, now: Date): Promise<string | null> {
  try {
    const { payload: p } = await jwtVerify(token, secret, { algorithms: ['HS256'], issuer: ISSUER, currentDate: now });
    return p.typ === 'newsletter' && p.sid === storeId && typeof p.email === 'string' ? p.email : null;
  } catch {
    return null;
  }
}

type Db = Kysely<Database>;

/** A new refresh token (plain text, returned once) in `familyId` (a new family when omitted). */
export async function issueRefresh(db: Db, storeId: number, customerId: number | null, now: Date, familyId: string = randomUUID()): Promise<{ token: string; id: number }> {
  const token = randomBytes(32).toString('base64url');
  const row = await db
    .insertInto('refresh_tokens')
    .values({
      family_id: familyId,
      store_id: storeId,
      customer_id: customerId,
      token_hash: sha256(token),
      expires_at: new Date(now.getTime() + REFRESH_TTL_MS).toISOString(),
      revoked_at: null,
      replaced_by: null,
      created_at: now.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, id: row.id };
}

/**
 * Swap a refresh token for a new one of the same family. Unknown, expired, other store → 401;
 * already revoked → the family is revoked too (someone replayed a rotated token) → 401.
 */
export async function rotateRefresh(db: Db, token: string, storeId: number, now: Date): Promise<{ token: string; customerId: number | null }> {
  const iso = now.toISOString();
  const row = await db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
  if (!row || row.store_id !== storeId) throw new ApiError(401, AUTH_MESSAGES.refreshInvalid);
  if (row.revoked_at) {
    // Outside the transaction below: throwing there would roll this revocation back.
    await db.updateTable('refresh_tokens').set({ revoked_at: iso }).where('family_id', '=', row.family_id).where('revoked_at', 'is', null).execute();
    throw new ApiError(401, AUTH_MESSAGES.refreshInvalid);
  }
  return db.transaction().execute(async (trx) => {
    if (new Date(row.expires_at).getTime() <= now.getTime()) throw new ApiError(401, AUTH_MESSAGES.refreshInvalid);
    // Conditional update: of two concurrent rotations of the same token only one wins.
    const done = await trx.updateTable('refresh_tokens').set({ revoked_at: iso }).where('id', '=', row.id).where('revoked_at', 'is', null).executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw new ApiError(401, AUTH_MESSAGES.refreshInvalid);
    const next = await issueRefresh(trx, storeId, row.customer_id, now, row.family_id);
    await trx.updateTable('refresh_tokens').set({ replaced_by: next.id }).where('id', '=', row.id).execute();
    return { token: next.token, customerId: row.customer_id };
  });
}
