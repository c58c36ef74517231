/**
 * Staff cookie sessions. The cookie carries 32 random bytes (base64url); the database keeps only
 * their sha256, so a leaked table opens no console. A session lives 12 hours after its last use
 * (sliding, `last_seen_at` written at most once a minute) and never more than 7 days after login.
 * Each session has its own CSRF token, sent back by the console in `x-csrf-token` on every write.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { stringifySetCookie } from 'cookie';
import type { Kysely } from 'kysely';
import type { Database, StaffRole } from '../db/schema.ts';

export const STAFF_COOKIE = 'verdant_staff';
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_MAX_MS = 7 * 24 * 60 * 60 * 1000;
/** `last_seen_at` (and the sliding expiry) is written at most this often per session. */
export const SEEN_WRITE_MS = 60 * 1000;

type Db = Kysely<Database>;

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time string comparison (different lengths are simply unequal). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `Set-Cookie` for a new session; the server decides expiry, the cookie lasts the absolute maximum. */
export function sessionCookie(token: string): string {
  return stringifySetCookie(STAFF_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: 'strict',
    path: '/',
    maxAge: SESSION_MAX_MS / 1000,
  });
}

export function clearedCookie(): string {
  return stringifySetCookie(STAFF_COOKIE, '', { httpOnly: true, secure: true, sameSite: 'strict', path: '/', maxAge: 0 });
}

export interface NewSession {
  token: string;
  csrfToken: string;
  id: number;
}

export async function createSession(db: Db, staffId: number, now: Date, opts: { userAgent?: string; mfa: boolean }): Promise<NewSession> {
  const token = randomToken();
  const csrfToken = randomToken();
  const iso = now.toISOString();
  const row = await db
    .insertInto('staff_sessions')
    .values({
      staff_id: staffId,
      token_hash: tokenHash(token),
      csrf_token: csrfToken,
      expires_at: new Date(now.getTime() + SESSION_IDLE_MS).toISOString(),
      last_seen_at: iso,
      revoked_at: null,
      user_agent: opts.userAgent ? opts.userAgent.slice(0, 300) : null,
      mfa_at: opts.mfa ? iso : null,
      created_at: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, csrfToken, id: row.id };
}

export interface LiveSession {
  sessionId: number;
  csrfToken: string;
  staffId: number;
  email: string;
  name: string;
  role: StaffRole;
}

/**
 * The live session of a cookie token, or null (unknown, revoked, expired, member disabled, or the
 * member has TOTP on and this session never gave a code). Slides the idle expiry.
 */
export async function findLiveSession(db: Db, token: string, now: Date): Promise<LiveSession | null> {
  const row = await db
    .selectFrom('staff_sessions as s')
    .innerJoin('staff as m', 'm.id', 's.staff_id')
    .select([
      's.id',
      's.csrf_token',
      's.expires_at',
      's.last_seen_at',
      's.revoked_at',
      's.mfa_at',
      's.created_at',
      'm.id as staff_id',
      'm.email',
      'm.name',
      'm.role',
      'm.disabled_at',
      'm.totp_enabled_at',
    ])
    .where('s.token_hash', '=', tokenHash(token))
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || row.disabled_at !== null) return null;
  const t = now.getTime();
  const hardEnd = Date.parse(row.created_at) + SESSION_MAX_MS;
  if (Date.parse(row.expires_at) <= t || hardEnd <= t) return null;
  if (row.totp_enabled_at !== null && row.mfa_at === null) return null;
  if (t - Date.parse(row.last_seen_at) >= SEEN_WRITE_MS) {
    await db
      .updateTable('staff_sessions')
      .set({ last_seen_at: now.toISOString(), expires_at: new Date(Math.min(t + SESSION_IDLE_MS, hardEnd)).toISOString() })
      .where('id', '=', row.id)
      .execute();
  }
  return { sessionId: row.id, csrfToken: row.csrf_token, staffId: row.staff_id, email: row.email, name: row.name, role: row.role };
}

export async function revokeSession(db: Db, sessionId: number, now: Date): Promise<void> {
  await db
    .updateTable('staff_sessions')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** End every session of a member (logout everywhere, password reset, disabling), but `keep`. */
export async function revokeAllSessions(db: Db, staffId: number, now: Date, keep?: number): Promise<void> {
  let q = db
    .updateTable('staff_sessions')
    .set({ revoked_at: now.toISOString() })
    .where('staff_id', '=', staffId)
    .where('revoked_at', 'is', null);
  if (keep !== undefined) q = q.where('id', '!=', keep);
  await q.execute();
}
