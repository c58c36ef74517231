/**
 * A node with REDIS_URL needs Redis before it can serve: its catalogue must hear the other nodes'
 * changes, and login codes are counted there. Unreachable at start, the node says so in one line
 * and waits (retrying every second, quietly) instead of dying with ioredis's
 * MaxRetriesPerRequestError; it listens only once Redis answers, so a load balancer never sends it
 * shoppers before then. Ctrl-C / SIGTERM still stop it while it waits.
 */
import { Redis } from 'ioredis';
import { redact } from '../db/index.ts';

export interface WaitForRedisOptions {
  /** Where the one line goes (stderr by default). */
  say?: (line: string) => void;
  /** Pause between attempts. */
  retryMs?: number;
}

/** Resolves once a PING to `url` is answered. */
export async function waitForRedis(url: string, { say = (l) => console.error(l), retryMs = 1000 }: WaitForRedisOptions = {}): Promise<void> {
  let told = false;
  for (;;) {
    const error = await ping(url);
    if (!error) {
      if (told) say(`Redis at ${redact(url)} answers now; starting.`);
      return;
    }
    if (!told) {
      say(`Redis at ${redact(url)} (REDIS_URL) cannot be reached (${error}); waiting for it, the server starts once it answers.`);
      told = true;
    }
    await new Promise((r) => setTimeout(r, retryMs));
  }
}

/** One connection attempt, no retries; the error text, or null when Redis answered. */
async function ping(url: string): Promise<string | null> {
  const probe = new Redis(url, {
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    connectionName: 'verdant-probe',
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    probe.disconnect();
  }
}
