/**
 * TOTP codes: ±1 step accepted, further refused, and a code good once across nodes: two limiters
 * on the real Redis (two server nodes) claim the same step, only the first wins.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter, RedisRateLimiter } from '../auth/rate-limit.ts';
import { newTotpSecret, totpCode, totpStep, useTotpCode } from './totp.ts';

const AT = new Date('2026-06-15T12:00:10.000Z');
const redisUrl = process.env.REDIS_URL;

describe('TOTP', () => {
  const { secret } = newTotpSecret('t@staff.test');

  it('accepts the current code and one step either way, nothing further', () => {
    const step = totpStep(secret, totpCode(secret, AT), AT)!;
    expect(step).toBe(Math.floor(AT.getTime() / 30_000));
    expect(totpStep(secret, totpCode(secret, new Date(AT.getTime() - 30_000)), AT)).toBe(step - 1);
    expect(totpStep(secret, totpCode(secret, new Date(AT.getTime() + 30_000)), AT)).toBe(step + 1);
    expect(totpStep(secret, totpCode(secret, new Date(AT.getTime() - 60_000)), AT)).toBeNull();
    expect(totpStep(secret, totpCode(secret, new Date(AT.getTime() + 60_000)), AT)).toBeNull();
    expect(totpStep(secret, 'abcdef', AT)).toBeNull();
  });

  it('takes a code once per member (in one process)', async () => {
    const limiter = new MemoryRateLimiter();
    const code = totpCode(secret, AT);
    expect(await useTotpCode(limiter, 1, secret, code, AT)).toBe(true);
    expect(await useTotpCode(limiter, 1, secret, code, new Date(AT.getTime() + 20_000))).toBe(false);
    // Another member with the same secret (never in practice) is counted apart.
    expect(await useTotpCode(limiter, 2, secret, code, AT)).toBe(true);
  });

  describe.skipIf(!redisUrl && process.env.CI !== 'true')('across nodes (real Redis)', () => {
    const prefix = `verdant-test:${randomBytes(4).toString('hex')}:rl:`;
    const nodeA = new RedisRateLimiter(redisUrl ?? 'redis://127.0.0.1:6379', prefix);
    const nodeB = new RedisRateLimiter(redisUrl ?? 'redis://127.0.0.1:6379', prefix);
    afterAll(async () => {
      await nodeA.close();
      await nodeB.close();
    });

    it('refuses on one node a code used on another, also when both try at once', async () => {
      const code = totpCode(secret, AT);
      expect(await useTotpCode(nodeA, 7, secret, code, AT)).toBe(true);
      expect(await useTotpCode(nodeB, 7, secret, code, AT)).toBe(false);
      const next = new Date(AT.getTime() + 30_000);
      const nextCode = totpCode(secret, next);
      const both = await Promise.all([useTotpCode(nodeA, 7, secret, nextCode, next), useTotpCode(nodeB, 7, secret, nextCode, next)]);
      expect(both.filter(Boolean)).toHaveLength(1);
    });
  });
});
