/**
 * The "I'm here" link of a curbside order (issue 29): `{store url}/curbside/{token}`, no login
 * needed. The token is `{orderId}.{expires, unix seconds}.{HMAC-SHA256 of "curbside:{storeId}:{orderId}:{expires}"}`
 * under the server's auth secret (AUTH_SECRET or DATA_DIR/auth-secret), so it names one order of one
 * store, cannot be forged or moved to another order, and ends after CURBSIDE_LINK_TTL_MS. What it may
 * do is judged again at each use by the order's state (./arrival.ts): only while ready for pickup.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A ready order is usually collected the same day; a week covers a late shopper. */
export const CURBSIDE_LINK_TTL_MS = 7 * 24 * 3600_000;

function signature(secret: Uint8Array | string, storeId: number, orderId: number, expires: number): string {
  return createHmac('sha256', secret).update(`curbside:${storeId}:${orderId}:${expires}`).digest('base64url');
}

export function curbsideToken(secret: Uint8Array | string, storeId: number, orderId: number, now: Date, ttlMs = CURBSIDE_LINK_TTL_MS): string {
  const expires = Math.floor((now.getTime() + ttlMs) / 1000);
  return `${orderId}.${expires}.${signature(secret, storeId, orderId, expires)}`;
}

export type TokenCheck = { ok: true; orderId: number } | { ok: false; reason: 'bad' | 'expired' };

/** The order a token names for this store, or why not (a wrong signature is "bad" even when also expired). */
export function readCurbsideToken(secret: Uint8Array | string, storeId: number, token: string, now: Date): TokenCheck {
  const m = /^(\d{1,12})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return { ok: false, reason: 'bad' };
  const orderId = Number(m[1]);
  const expires = Number(m[2]);
  const given = Buffer.from(m[3]!);
  const wanted = Buffer.from(signature(secret, storeId, orderId, expires));
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return { ok: false, reason: 'bad' };
  if (expires * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, orderId };
}
