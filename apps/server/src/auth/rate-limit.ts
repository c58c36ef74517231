/**
 * Fixed-window counters for login-code sends. One interface, two backends: Redis when REDIS_URL
 * is set (so every node counts the same sends; INCR + PEXPIRE in one MULTI), in-process otherwise
 * (a single node). Fixed windows allow up to 2× the limit across a window edge, which is fine for
 * "a handful of SMS per hour".
 */
import { Redis } from 'ioredis';
import { ApiError } from '../http/envelope.ts';
import { trackRedis } from '../metrics/process.ts';

export interface RateLimiter {
  /** Count one hit on `key`; false when this hit goes over `limit` within `windowMs`. */
  hit(key: string, limit: number, windowMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, limit: number, windowMs: number): Promise<boolean> {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    // Keep the map small: drop windows that are over (cheap enough at login traffic).
    if (this.windows.size > 10_000) for (const [k, v] of this.windows) if (v.resetAt <= t) this.windows.delete(k);
    return w.count <= limit;
  }

  async close(): Promise<void> {}
}

/** What a caller hears when the shared counters cannot be reached (mapped to 503 by the app). */
export const LIMITER_UNAVAILABLE =
  'Temporarily unavailable: the service that counts login attempts cannot be reached, so nothing was sent. Please try again in a minute.';

/** How long a hit waits for Redis before the request is answered 503 (a shopper is waiting). */
const REDIS_ANSWER_MS = 500;
/** A connection still being opened (a new limiter) gets longer; a refused one fails at once. */
const REDIS_CONNECT_MS = 2000;

/**
 * Redis down must not mean "count nothing" (anyone could then send unlimited codes) nor a 500
 * after ioredis's retry queue gives up: a hit that Redis cannot answer within REDIS_ANSWER_MS
 * throws ApiError(503) before anything is sent. No offline queue: while the connection is down a
 * command fails at once instead of waiting for a reconnect (and running late, counting a send that
 * never happened).
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;
  constructor(url: string, private readonly prefix = 'verdant:rl:') {
    this.redis = new Redis(url, {
      connectionName: 'verdant-ratelimit',
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: REDIS_CONNECT_MS,
    });
    trackRedis(this.redis, 'rate-limit');
    // Failures surface as 503 answers; without a listener ioredis prints every reconnect error.
    this.redis.on('error', () => undefined);
  }

  async hit(key: string, limit: number, windowMs: number): Promise<boolean> {
    const k = this.prefix + key;
    try {
      await this.connected();
      // NX: the window starts at the first hit and is not extended by later ones.
      const res = await withinAnswerTime(this.redis.multi().incr(k).pexpire(k, windowMs, 'NX').exec());
      const [err, count] = res?.[0] ?? [new Error('no answer to INCR'), 0];
      if (err) throw err;
      return Number(count) <= limit;
    } catch {
      throw new ApiError(503, LIMITER_UNAVAILABLE);
    }
  }

  /** Right after start the connection may still be opening: wait for it briefly, not for a dead one. */
  private async connected(): Promise<void> {
    const status = this.redis.status;
    if (status === 'ready') return;
    if (status !== 'connecting' && status !== 'connect' && status !== 'wait') throw new Error(`Redis connection is ${status}`);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => setImmediate(() => done(new Error('Redis did not connect in time'))), REDIS_CONNECT_MS);
      const onReady = () => done();
      const onEnd = () => done(new Error('Redis connection closed'));
      const done = (error?: Error) => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        this.redis.off('close', onEnd);
        if (error) reject(error);
        else resolve();
      };
      this.redis.once('ready', onReady);
      this.redis.once('close', onEnd);
      if (status === 'wait') this.redis.connect().catch(() => undefined);
    });
  }

  async close(): Promise<void> {
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => undefined);
    else this.redis.disconnect();
  }
}

/** Redis that accepts the connection but never answers is as down as one that refuses it. */
function withinAnswerTime<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    // Rejected from the check phase, after pending I/O: when the event loop was only stalled (a
    // busy process), an answer that arrived meanwhile still wins over the deadline.
    timer = setTimeout(() => setImmediate(() => reject(new Error('Redis did not answer in time'))), REDIS_ANSWER_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
