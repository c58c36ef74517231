/**
 * Issue 32: what one Node process measures about itself, whatever apps it serves: the runtime
 * (prom-client's default set: CPU, resident memory, heap, event-loop lag, GC, handles), the deal
 * engine's evaluations and the state of every Redis connection it opened. One process is one node,
 * so these are registered once, on a registry of their own; each app's own figures (requests,
 * orders, caches, backlogs: ./app.ts) are merged with them when `/metrics` is read.
 */
import client from 'prom-client';
import type { Redis } from 'ioredis';
import { dealEvaluations, type DealEvaluationSite } from './deal-evaluations.ts';

export const processRegistry = new client.Registry();
// Event-loop lag sampled every 20 ms (prom-client's default is 10): a lagging loop is what makes
// every store on the node slow at once.
client.collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 20 });

// The deal engine's runs, counted in ./deal-evaluations.ts (no import there: it is in the browser's bundle too).
const dealsSeen: Record<DealEvaluationSite, number> = { cart: 0, page: 0, preview: 0, trace: 0 };
new client.Counter({
  name: 'verdant_deal_evaluations_total',
  help: 'Runs of the deal engine, by where it ran (cart = carts and orders, page = deals shown on pages, preview/trace = console)',
  labelNames: ['where'] as const,
  registers: [processRegistry],
  collect() {
    for (const where of Object.keys(dealEvaluations) as DealEvaluationSite[]) {
      const now = dealEvaluations[where];
      if (now > dealsSeen[where]) this.inc({ where }, now - dealsSeen[where]);
      else this.inc({ where }, 0);
      dealsSeen[where] = now;
    }
  },
});

/** The connections this process opened, by purpose; removed when closed for good. */
const redisClients = new Map<Redis, string>();

/** Count a Redis connection in `verdant_redis_clients` under a short purpose name (e.g. `catalogue-pub`). */
export function trackRedis<T extends Redis>(redis: T, purpose: string): T {
  redisClients.set(redis, purpose);
  redis.once('end', () => redisClients.delete(redis));
  return redis;
}

new client.Gauge({
  name: 'verdant_redis_clients',
  help: 'Redis connections of this process by purpose and ioredis status (ready = usable; alert on any other status that lasts)',
  labelNames: ['purpose', 'status'] as const,
  registers: [processRegistry],
  collect() {
    this.reset();
    for (const [redis, purpose] of redisClients) this.inc({ purpose, status: redis.status });
  },
});
