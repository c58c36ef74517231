/**
 * Fixed-window counters for login-code sends. One interface, two backends: Redis when REDIS_URL
 * is set (so every node counts the same sends; INCR + PEXPIRE in one MULTI), in-process otherwise
 * (a single node). Fixed windows allow up to 2× the limit across a window edge, which is fine for
 * "a handful of SMS per hour".
 */
import { Redis } from 'ioredis';

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

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;
  constructor(url: string, private readonly prefix = 'verdant:rl:') {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, connectionName: 'verdant-ratelimit' });
  }

  async hit(key: string, limit: number, windowMs: number): Promise<boolean> {
    const k = this.prefix + key;
    // NX: the window starts at the first hit and is not extended by later ones.
    const res = await this.redis.multi().incr(k).pexpire(k, windowMs, 'NX').exec();
    const count = Number(res?.[0]?.[1] ?? 0);
    return count <= limit;
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
