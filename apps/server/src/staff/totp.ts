/**
 * TOTP second factor (RFC 6238 with otpauth): SHA-1, 6 digits, 30 s steps, one step of clock drift
 * either way. A code is good once: the step it belongs to is claimed through the rate limiter
 * (limit 1 per member and step, shared by every node through Redis when REDIS_URL is set), so a
 * code read over a shoulder or replayed from a log is refused within its whole validity.
 */
import { Secret, TOTP } from 'otpauth';
import type { RateLimiter } from '../auth/rate-limit.ts';

export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;
const ISSUER = 'Verdant console';

function totp(secret: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

/** A new random secret (160 bits, base32) and the otpauth:// URI authenticator apps scan. */
export function newTotpSecret(email: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totp(secret, email).toString() };
}

/** The code for `at` (tests and the CLI's checks; the server never sends codes). */
export function totpCode(secret: string, at: Date): string {
  return totp(secret, '').generate({ timestamp: at.getTime() });
}

/** The time step a code belongs to, or null when it is not valid at `at` (±1 step). */
export function totpStep(secret: string, code: string, at: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret, '').validate({ token: code, timestamp: at.getTime(), window: TOTP_WINDOW });
  if (delta === null) return null;
  return TOTP.counter({ period: TOTP_PERIOD, timestamp: at.getTime() }) + delta;
}

/**
 * True when `code` is valid now and was not used before: the first use of a step claims it. The
 * claim lasts as long as the code can be valid (its step and the drift window on both sides).
 */
export async function useTotpCode(limiter: RateLimiter, staffId: number, secret: string, code: string, at: Date): Promise<boolean> {
  const step = totpStep(secret, code, at);
  if (step === null) return false;
  return limiter.hit(`staff-totp:${staffId}:${step}`, 1, (2 * TOTP_WINDOW + 2) * TOTP_PERIOD * 1000);
}
