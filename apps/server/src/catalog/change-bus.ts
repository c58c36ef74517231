/**
 * How a catalogue change reaches every server node (ARCHITECTURE "Search"): the node that made
 * the change applies it itself first, then publishes it; the others reindex when the notice
 * arrives. With REDIS_URL a Redis channel carries the notices; without it there is one node, and
 * the in-process bus only delivers to local subscribers (there is nobody else to tell).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { trackRedis } from '../metrics/process.ts';

export interface CatalogChange {
  storeId: number;
  /** The products that changed; absent means "the whole store". */
  productIds?: number[];
  /**
   * Only the `stock` rows of `productIds` changed (orders, releases, no-shows): a node reads those
   * rows alone (./stock-patch.ts). A node that does not know the field treats the notice as a full
   * change of the products, which is always correct, so nodes of two versions can share a bus.
   */
  stockOnly?: true;
}

export interface ChangeBus {
  /**
   * Tell the other nodes. Never delivered back to this node's own handler. Rejects when the
   * notice cannot go out now; the bus then owes the others that change and sends it (merged with
   * others of its store) as soon as it can publish again.
   */
  publish(change: CatalogChange): Promise<void>;
  /** Receive other nodes' changes; `resync` runs when notices may have been missed (reconnect). */
  subscribe(handler: (change: CatalogChange) => void, resync: () => void): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_CHANNEL = 'verdant:catalog-changed';

/** Above this many owed product ids of one store, the owed notice becomes "the whole store". */
const MAX_OWED_IDS = 10_000;

const message = z.object({
  origin: z.string(),
  storeId: z.number().int().positive(),
  productIds: z.array(z.number().int()).max(100_000).optional(),
  stockOnly: z.literal(true).optional(),
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
 * node's id so a node ignores its own (it applied the change before publishing).
 *
 * The subscription is ours, not ioredis's: `autoResubscribe` is off and SUBSCRIBE is sent on each
 * 'ready', i.e. after ioredis's ready check. (Sent earlier, SUBSCRIBE — a command ioredis may write
 * before the check — puts the connection in subscriber mode, the check's INFO is refused, ioredis
 * reconnects, and the node silently ends up subscribed to nothing.) `subscribe()` resolves once
 * Redis confirmed the subscription and the publishing connection is ready too (the first change
 * goes out at once), waiting for Redis as long as it takes; after every later reconnect `resync`
 * runs once the subscription is confirmed again, since notices published while the connection was
 * down are lost.
 *
 * A notice this node could not publish (its own connection down, while the others may be fine and
 * never resync) is owed: per store, the product ids (or "the whole store") are kept and published
 * once the publishing connection is ready again (or the next publish gets through), so the others
 * reload what this node changed while it was cut off.
 */
export function redisBus({ url, channel = DEFAULT_CHANNEL, name = 'verdant-catalog', onError }: RedisBusOptions): ChangeBus {
  const origin = randomUUID();
  const publisher = new Redis(url, { maxRetriesPerRequest: 3, connectionName: `${name}-pub`, lazyConnect: true });
  trackRedis(publisher, 'catalogue-pub');
  const subscriber = new Redis(url, {
    connectionName: `${name}-sub`,
    lazyConnect: true,
    autoResubscribe: false,
    // Nothing but SUBSCRIBE is sent, and only when ready; never queue it across connections.
    enableOfflineQueue: false,
    maxRetriesPerRequest: null,
  });
  trackRedis(subscriber, 'catalogue-sub');
  const report = (error: Error) => onError?.(error);
  publisher.on('error', report);
  subscriber.on('error', report);
  let closed = false;
  const malformed = (raw: string) => report(new Error(`Ignored a malformed catalogue notice: ${raw.slice(0, 200)}`));
  const send = (change: CatalogChange) => publisher.publish(channel, JSON.stringify({ origin, ...change }));

  /** Per store, what the other nodes were not told: product ids, or null for the whole store. */
  const owed = new Map<number, Set<number> | null>();
  const owe = ({ storeId, productIds }: CatalogChange) => {
    const ids = owed.get(storeId);
    if (ids === null) return;
    if (!productIds?.length || (ids?.size ?? 0) + productIds.length > MAX_OWED_IDS) return void owed.set(storeId, null);
    const merged = ids ?? new Set<number>();
    for (const id of productIds) merged.add(id);
    owed.set(storeId, merged);
  };
  /** Publish what is owed, store by store; what fails stays owed for the next chance. */
  const payOwed = async () => {
    for (const [storeId, ids] of [...owed]) {
      if (closed) return;
      owed.delete(storeId);
      const change: CatalogChange = ids ? { storeId, productIds: [...ids] } : { storeId };
      try {
        await send(change);
      } catch (error) {
        owe(change);
        return report(error as Error);
      }
    }
  };
  let paying: Promise<void> | null = null;
  const payBack = () => {
    paying ??= payOwed().finally(() => {
      paying = null;
    });
    return paying;
  };
  publisher.on('ready', () => {
    if (owed.size > 0) void payBack();
  });

  return {
    async publish(change) {
      try {
        await send(change);
      } catch (error) {
        owe(change);
        throw error;
      }
      if (owed.size > 0) void payBack();
    },
    subscribe(handler, resync) {
      subscriber.on('message', (ch: string, raw: string) => {
        if (ch !== channel) return;
        let parsed;
        try {
          parsed = message.safeParse(JSON.parse(raw));
        } catch {
          return malformed(raw);
        }
        if (!parsed.success) return malformed(raw);
        if (parsed.data.origin === origin) return;
        const { storeId, productIds, stockOnly } = parsed.data;
        handler(stockOnly && productIds ? { storeId, productIds, stockOnly } : { storeId, productIds });
      });
      // The publishing connection is opened now too, not at the first change: that change would
      // wait for a connection set-up (several round trips to Redis) before the others hear it.
      const publishing =
        publisher.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => publisher.once('ready', () => resolve()));
      if (!closed && publisher.status === 'wait') publisher.connect().catch(() => undefined);
      const subscribed = new Promise<void>((resolve) => {
        let subscribedOnce = false;
        // Set when a connection that carried the subscription closed: notices may have been missed.
        let missed = false;
        subscriber.on('close', () => {
          if (subscribedOnce) missed = true;
        });
        subscriber.on('ready', () => {
          subscriber.subscribe(channel).then(
            () => {
              if (!subscribedOnce) {
                subscribedOnce = true;
                resolve();
              } else if (missed) {
                missed = false;
                resync();
              }
            },
            // The connection dropped again before the answer; the next 'ready' subscribes anew.
            (error: Error) => report(error),
          );
        });
        if (!closed) subscriber.connect().catch(() => undefined);
      });
      return Promise.all([subscribed, publishing]).then(() => undefined);
    },
    async close() {
      closed = true;
      const end = (r: Redis) => (r.status === 'ready' ? r.quit().then(() => undefined) : Promise.resolve(r.disconnect()));
      await Promise.allSettled([end(publisher), end(subscriber)]);
    },
  };
}
