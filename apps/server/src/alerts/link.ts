/**
 * The one-tap unsubscribe link of a back-in-stock message (issue 30): `{store url}/unsubscribe/{token}`,
 * no login, no JavaScript needed. The token is `{watchId}.{HMAC-SHA256 of "stock-alert:{storeId}:{watchId}"}`
 * under the server's auth secret, so it names one watch of one store and cannot be forged or moved.
 * It never expires: a shopper may tap it weeks later, and what it does (stop marketing on that
 * channel, drop the watch) is harmless to repeat. Opening the link shows one button; the POST does it
 * (mail scanners and carriers' link checkers follow GET links and must not unsubscribe anyone).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

function signature(secret: Uint8Array | string, storeId: number, watchId: number): string {
  return createHmac('sha256', secret).update(`stock-alert:${storeId}:${watchId}`).digest('base64url');
}

export function unsubscribeToken(secret: Uint8Array | string, storeId: number, watchId: number): string {
  return `${watchId}.${signature(secret, storeId, watchId)}`;
}

/** The watch a token names for this store, or null. */
export function readUnsubscribeToken(secret: Uint8Array | string, storeId: number, token: string): number | null {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const watchId = Number(m[1]);
  const given = Buffer.from(m[2]!);
  const wanted = Buffer.from(signature(secret, storeId, watchId));
  return given.length === wanted.length && timingSafeEqual(given, wanted) ? watchId : null;
}
