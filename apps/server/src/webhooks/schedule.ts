/**
 * When a failed webhook delivery is tried again: the Standard Webhooks schedule (first attempt at
 * once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h — about three days), each delay
 * spread by ±10 % so a receiver that comes back is not hit by every retry in the same second.
 * Tests pass a shrunk schedule instead of waiting.
 */

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

/** Delays before the 2nd, 3rd, … attempt (ms). Its length + 1 is the number of attempts. */
export const STANDARD_RETRY_SCHEDULE_MS: readonly number[] = [5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H];

/** A receiver's Retry-After is followed up to this (a longer one is a broken or hostile header). */
export const MAX_RETRY_AFTER_MS = 24 * H;

/**
 * The delay before the next attempt after `attempts` attempts failed, or null when the schedule
 * is spent (the delivery has failed). `random` in [0, 1) picks the jitter.
 */
export function nextRetryDelay(attempts: number, schedule: readonly number[], random: () => number = Math.random): number | null {
  const base = schedule[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.9 + 0.2 * random()));
}

/**
 * A Retry-After header as a delay in ms: delta-seconds or an HTTP date. Null when absent or
 * unreadable; clamped to [0, MAX_RETRY_AFTER_MS].
 */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    // An HTTP date has a weekday and month name; anything else (a negative number) is unreadable.
    if (!/[A-Za-z]/.test(text)) return null;
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}
