/**
 * The Redis pub/sub the outbox dispatcher talks to the other nodes through: outbox kicks
 * (`{prefix}outbox-kick`) and console pushes (`{prefix}console-events`). One publishing and one
 * subscribed connection per node (a subscribed connection cannot publish), as the catalogue's
 * change bus (../catalog/change-bus.ts), and like it the subscription is sent on each 'ready'
 * (autoResubscribe off; see the reasons there).
 *
 * Redis down: publishing fails at once (no offline queue) and is reported, never thrown at the
 * caller; the consumers fall back to polling, so work is only delayed. `start()` waits for the
 * first subscription (a node that answers hears the others), as the catalogue does at start.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { trackRedis } from '../metrics/process.ts';

export interface PubSub {
  /** This node's id: messages carry it so a node can ignore its own. */
  readonly origin: string;
  /** Fire and forget; failures go to onError. */
  publish(channel: string, message: string): void;
  /** Register before start(). */
  on(channel: string, handler: (message: string) => void): void;
  /** Resolves once Redis confirmed the subscriptions (waits for Redis as long as it takes). */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface RedisPubSubOptions {
  url: string;
  name?: string;
  onError?: (err: Error) => void;
  /** After a reconnect (messages sent meanwhile were lost). */
  onResubscribed?: () => void;
}

export function redisPubSub({ url, name = 'verdant-outbox', onError, onResubscribed }: RedisPubSubOptions): PubSub {
  const origin = randomUUID();
  const publisher = new Redis(url, {
    connectionName: `${name}-pub`,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  });
  trackRedis(publisher, 'outbox-pub');
  const subscriber = new Redis(url, {
    connectionName: `${name}-sub`,
    lazyConnect: true,
    autoResubscribe: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: null,
  });
  trackRedis(subscriber, 'outbox-sub');
  const report = (err: Error) => onError?.(err);
  publisher.on('error', report);
  subscriber.on('error', report);
  const handlers = new Map<string, (message: string) => void>();
  let closed = false;
  subscriber.on('message', (channel: string, message: string) => {
    try {
      handlers.get(channel)?.(message);
    } catch (err) {
      report(err as Error);
    }
  });
  return {
    origin,
    publish(channel, message) {
      if (closed) return;
      if (publisher.status !== 'ready') {
        report(new Error(`Redis is not connected (${publisher.status}): ${channel} not published`));
        return;
      }
      publisher.publish(channel, message).catch(report);
    },
    on(channel, handler) {
      handlers.set(channel, handler);
    },
    async start() {
      const publisherReady = new Promise<void>((resolve) => publisher.once('ready', () => resolve()));
      publisher.connect().catch(() => undefined);
      const subscribed = new Promise<void>((resolve) => {
        let subscribedOnce = false;
        let missed = false;
        subscriber.on('close', () => {
          if (subscribedOnce) missed = true;
        });
        subscriber.on('ready', () => {
          subscriber.subscribe(...handlers.keys()).then(
            () => {
              if (!subscribedOnce) {
                subscribedOnce = true;
                resolve();
              } else if (missed) {
                missed = false;
                onResubscribed?.();
              }
            },
            (err: Error) => report(err),
          );
        });
        if (!closed) subscriber.connect().catch(() => undefined);
      });
      await Promise.all([publisherReady, subscribed]);
    },
    async close() {
      closed = true;
      const end = (r: Redis) => (r.status === 'ready' ? r.quit().then(() => undefined) : Promise.resolve(r.disconnect()));
      await Promise.allSettled([end(publisher), end(subscriber)]);
    },
  };
}
