/**
 * How a catalogue change reaches every server node (ARCHITECTURE "Search"): the node that made
 * the change applies it itself first, then publishes it; the others reindex when the notice
 * arrives. With REDIS_URL a Redis channel carries the notices; without it there is one node, and
 * the in-process bus only delivers to local subscribers (there is nobody else to tell).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { z } from 'zod';

export interface CatalogChange {
  storeId: number;
  /** The products that changed; absent means "the whole store". */
  productIds?: number[];
}

export interface ChangeBus {
  /** Tell the other nodes. Never delivered back to this node's own handler. */
  publish(change: CatalogChange): Promise<void>;
  /** Receive other nodes' changes; `resync` runs when notices may have been missed (reconnect). */
  subscribe(handler: (change: CatalogChange) => void, resync: () => void): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_CHANNEL = 'verdant:catalog-changed';

const message = z.object({
  origin: z.string(),
  storeId: z.number().int().positive(),
  productIds: z.array(z.number().int()).max(100_000).optional(),
});

/** One node: nothing to publish to. */
export function inProcessBus(): ChangeBus {
  return {
    publish: async () => undefined,
    subscribe: async () => undefined,
    close: async () => undefined,
  };
}

export interface RedisBusOptions {
  url: string;
  /** Tests use their own channel, so parallel runs on one Redis do not hear each other. */
  channel?: string;
  /** Connection names (`{name}-pub`, `{name}-sub`), so CLIENT LIST shows whose connections these are. */
  name?: string;
  onError?: (error: Error) => void;
}

/**
 * Two connections (a subscribed Redis connection cannot publish). Notices carry the publishing
 * node's id so a node ignores its own. After a reconnect the subscriber may have missed notices,
 * so `resync` (a full rebuild) runs once the subscription is back.
 */
export function redisBus({
  url,
  channel = DEFAULT_CHANNEL,
  name = 'verdant-catalog',
  onError,
}: RedisBusOptions): ChangeBus {
  const origin = randomUUID();
  const options = { maxRetriesPerRequest: 3, enableOfflineQueue: true };
  const publisher = new Redis(url, { ...options, connectionName: `${name}-pub` });
  const subscriber = new Redis(url, { ...options, connectionName: `${name}-sub` });
  const report = (error: Error) => onError?.(error);
  publisher.on('error', report);
  subscriber.on('error', report);
  return {
    async publish(change) {
      await publisher.publish(channel, JSON.stringify({ origin, ...change }));
    },
    async subscribe(handler, resync) {
      subscriber.on('message', (ch: string, raw: string) => {
        if (ch !== channel) return;
        let parsed;
        try {
          parsed = message.safeParse(JSON.parse(raw));
        } catch {
          return report(new Error(`Ignored a malformed catalogue notice: ${raw.slice(0, 200)}`));
        }
        if (!parsed.success) return report(new Error(`Ignored a malformed catalogue notice: ${raw.slice(0, 200)}`));
        if (parsed.data.origin === origin) return;
        handler({ storeId: parsed.data.storeId, productIds: parsed.data.productIds });
      });
      // Only a connection that was lost can have missed notices. ('ready' alone is no sign: the
      // first one may even arrive after the subscription was confirmed.)
      let lost = false;
      subscriber.on('close', () => {
        lost = true;
      });
      subscriber.on('ready', () => {
        if (!lost) return;
        lost = false;
        resync();
      });
      await subscriber.subscribe(channel);
    },
    async close() {
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
