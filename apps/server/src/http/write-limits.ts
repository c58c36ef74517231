/**
 * Per-IP limit on every write of the personal areas (cart, order, user incl. uploads,
 * newsletter, reviews and their helpful votes): one counter per client address across all those routes, WRITE_RATE_LIMIT writes
 * per WRITE_RATE_WINDOW seconds, answered 429 with Retry-After in the envelope. With REDIS_URL
 * the counter is shared by every node (keys under REDIS_PREFIX). Reads are never counted.
 * The login-code and password limits (auth/rate-limit.ts) are separate and stricter.
 *
 * Redis down: the write limits fail open (skipOnError, logged once per outage). Refusing every
 * cart change while Redis is away would stop the shop over a guard rail; the client talks to
 * Redis without an offline queue, so a write never waits for it either.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions, onRequestHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import { ApiError } from './envelope.ts';
import { trackRedis } from '../metrics/process.ts';

export interface WriteLimitConfig {
  /** Writes per client address and window; 0 turns the limit off. */
  max: number;
  windowSeconds: number;
}

/** Generous: a shopper makes a few writes a minute; a shop's Wi-Fi (one address) many shoppers. */
export const WRITE_LIMIT_DEFAULTS: WriteLimitConfig = { max: 600, windowSeconds: 60 };
export const WRITE_LIMIT_MESSAGE = 'Too many requests. Please try again in a moment.';

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min) throw new Error(`${name} must be a whole number ≥ ${min} (got "${raw}")`);
  return Number(raw);
}

/** WRITE_RATE_LIMIT (writes, 0 = off) and WRITE_RATE_WINDOW (seconds). */
export function writeLimitFromEnv(env: NodeJS.ProcessEnv = process.env): WriteLimitConfig {
  return {
    max: whole(env, 'WRITE_RATE_LIMIT', WRITE_LIMIT_DEFAULTS.max, 0),
    windowSeconds: whole(env, 'WRITE_RATE_WINDOW', WRITE_LIMIT_DEFAULTS.windowSeconds, 1),
  };
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PERSONAL_AREAS = /^\/api\/(?:cart|order|user|newsletter|reviews)(?:\/|$)/;

export function isLimitedWrite(method: string, url: string): boolean {
  return WRITE_METHODS.has(method) && PERSONAL_AREAS.test(url);
}

export interface WriteLimitOptions {
  limit: WriteLimitConfig;
  redisUrl?: string;
  redisPrefix?: string;
}

/** Call before the routes are registered: the onRoute hook puts the limit on the write routes. */
export async function registerWriteLimits(app: FastifyInstance, opts: WriteLimitOptions): Promise<void> {
  if (opts.limit.max === 0) return;
  let redis: Redis | undefined;
  if (opts.redisUrl) {
    redis = new Redis(opts.redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 500,
      connectTimeout: 2000,
      connectionName: 'verdant-write-limits',
    });
    trackRedis(redis, 'write-limit');
    let down = false;
    redis.on('error', (err: Error) => {
      if (down) return;
      down = true;
      app.log.warn({ err: err.message }, 'redis unreachable: write rate limits are not enforced until it is back');
    });
    redis.on('ready', () => {
      if (down) app.log.info('redis is back: write rate limits enforced again');
      down = false;
    });
    const client = redis;
    app.addHook('onClose', async () => {
      await client.quit().catch(() => client.disconnect());
    });
  }
  await app.register(rateLimit, {
    global: false,
    max: opts.limit.max,
    timeWindow: opts.limit.windowSeconds * 1000,
    redis,
    nameSpace: `${opts.redisPrefix ?? 'verdant:'}write-rl:`,
    skipOnError: true,
    // Thrown, so the app's error handler answers it in the envelope (Retry-After is already set).
    errorResponseBuilder: () => new ApiError(429, WRITE_LIMIT_MESSAGE),
  });
  // One shared counter per address (a per-route config would count each route apart).
  const limiter = app.rateLimit();
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => isLimitedWrite(m, route.url))) return;
    // A route that also answers reads (GET and DELETE on one path) counts only its writes.
    const hook: onRequestHookHandler = methods.every((m) => WRITE_METHODS.has(m))
      ? limiter
      : function (request, reply, done) {
          if (!WRITE_METHODS.has(request.method)) return done();
          (limiter as (req: FastifyRequest, rep: FastifyReply) => Promise<void>)(request, reply).then(() => done(), done);
        };
    const existing = route.onRequest;
    route.onRequest = [...(existing ? (Array.isArray(existing) ? existing : [existing]) : []), hook];
  });
}
