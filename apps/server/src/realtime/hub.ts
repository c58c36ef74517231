/**
 * Where console pushes meet the open streams: each node keeps its own SSE clients per store; the
 * node whose push consumer took an event (outbox/consumer.ts, at most once across nodes) publishes
 * it once: to its own clients and, with Redis, on `{prefix}console-events` to every other node's
 * hub, which forwards it to its own clients. Messages from this node itself are ignored (they were
 * delivered locally already).
 *
 * Access changes travel the same way on `{prefix}console-access` (`{origin, staff_id}`): when a
 * member's session ends or their access changes (staff/access-signal.ts), every node re-checks
 * that member's open streams at once and ends those no longer allowed.
 */
import { z } from 'zod';
import type { OrderEventPayload } from '../outbox/append.ts';
import type { PubSub } from '../outbox/redis-pubsub.ts';

/** What a console stream sends as `event: order`: `{event_id, type, ...payload}`. */
export interface ConsoleEvent {
  event_id: string;
  type: string;
  store_id: number;
  payload: OrderEventPayload;
}

export type ConsoleListener = (event: ConsoleEvent) => void;

export interface ConsoleHub {
  /** Listen to one store's events; returns the unsubscribe. */
  subscribe(storeId: number, listener: ConsoleListener): () => void;
  /** To this node's listeners and the other nodes'. */
  publish(event: ConsoleEvent): void;
  /** How many streams are open here (for one store, or all). */
  listeners(storeId?: number): number;
  /** Called when the member's access may have changed (on any node); returns the unsubscribe. */
  onAccessChange(staffId: number, listener: () => void): () => void;
  /** To this node's access listeners of the member and the other nodes'. */
  accessChanged(staffId: number): void;
}

const accessWire = z.object({ origin: z.string(), staff_id: z.number().int().positive() });

const wire = z.object({
  origin: z.string(),
  event: z.object({
    event_id: z.string().max(100),
    type: z.string().max(100),
    store_id: z.number().int().positive(),
    payload: z.record(z.string(), z.unknown()),
  }),
});

export function createConsoleHub(
  options: { pubsub?: PubSub | null; channel?: string; accessChannel?: string; onError?: (err: Error) => void } = {},
): ConsoleHub {
  const { pubsub, channel = 'verdant:console-events', accessChannel = `${channel.replace(/console-events$/, '')}console-access` } = options;
  const byStore = new Map<number, Set<ConsoleListener>>();
  const byStaff = new Map<number, Set<() => void>>();

  function accessLocal(staffId: number): void {
    for (const listener of [...(byStaff.get(staffId) ?? [])]) {
      try {
        listener();
      } catch (err) {
        options.onError?.(err as Error);
      }
    }
  }

  pubsub?.on(accessChannel, (raw) => {
    let parsed;
    try {
      parsed = accessWire.safeParse(JSON.parse(raw));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) return options.onError?.(new Error(`Ignored a malformed access change: ${raw.slice(0, 200)}`));
    if (parsed.data.origin === pubsub.origin) return;
    accessLocal(parsed.data.staff_id);
  });

  function deliverLocal(event: ConsoleEvent): void {
    const set = byStore.get(event.store_id);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(event);
      } catch (err) {
        // One broken stream must not keep the event from the others.
        options.onError?.(err as Error);
      }
    }
  }

  pubsub?.on(channel, (raw) => {
    let parsed;
    try {
      parsed = wire.safeParse(JSON.parse(raw));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) return options.onError?.(new Error(`Ignored a malformed console event: ${raw.slice(0, 200)}`));
    if (parsed.data.origin === pubsub.origin) return;
    deliverLocal(parsed.data.event as unknown as ConsoleEvent);
  });

  return {
    subscribe(storeId, listener) {
      let set = byStore.get(storeId);
      if (!set) byStore.set(storeId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (!set.size && byStore.get(storeId) === set) byStore.delete(storeId);
      };
    },
    publish(event) {
      deliverLocal(event);
      pubsub?.publish(channel, JSON.stringify({ origin: pubsub.origin, event }));
    },
    onAccessChange(staffId, listener) {
      let set = byStaff.get(staffId);
      if (!set) byStaff.set(staffId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (!set.size && byStaff.get(staffId) === set) byStaff.delete(staffId);
      };
    },
    accessChanged(staffId) {
      accessLocal(staffId);
      pubsub?.publish(accessChannel, JSON.stringify({ origin: pubsub.origin, staff_id: staffId }));
    },
    listeners(storeId) {
      if (storeId !== undefined) return byStore.get(storeId)?.size ?? 0;
      let n = 0;
      for (const set of byStore.values()) n += set.size;
      return n;
    },
  };
}
