/**
 * `GET /api/console/stores/:storeId/events`: the live order queue's Server-Sent Events stream.
 * `event: ready` at connect, `event: order` per outbox event of the store (`data: {event_id, type,
 * ...payload}`, `id:` the event id), a `: ping` comment every 15 s so proxies keep the connection.
 *
 * The staff guard checked the session and the store before the handler runs; since a stream lives
 * for hours, it checks again before each batch of order frames, at each ping, and at once when the
 * member's access changed (logout, disabled, stores or role changed, password reset: the hub
 * carries that to every node), and ends once the session was revoked, expired or the store taken
 * away (the browser's EventSource then reconnects and gets the guard's 401/403).
 * Answers go through Fastify's reply (security headers and hooks apply); nothing compresses or
 * caches /api answers, and `x-accel-buffering: no` tells nginx not to buffer either.
 *
 * Replay: a browser's EventSource that lost its connection reconnects with `Last-Event-ID` (the
 * last `id:` it read). When that id is an event of this store, the events of the store pushed since
 * then follow `ready` (at most REPLAY_MAX, of the last REPLAY_HOURS), so a console back from a
 * network drop still chimes and badges the orders that arrived meanwhile; the console reads its
 * lists again at every `ready` in any case, and drops an event it has seen (by `event_id`). An
 * unknown or foreign id replays nothing.
 */
import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { LiveOrderEvent, LiveReady, OutboxEventType } from '@verdant/domain/console-api';
import { z } from 'zod';
import { dbId } from '../http/ids.ts';
import type { Database } from '../db/schema.ts';
import { parseOr400 } from '../http/parse.ts';
import { sessionTokenOf, staffOf } from '../staff/guard.ts';
import { storeIdsOf } from '../staff/members.ts';
import { roleCan } from '../staff/permissions.ts';
import { findLiveSession } from '../staff/sessions.ts';
import type { ConsoleEvent, ConsoleHub } from './hub.ts';

export const PING_MS = 15_000;
/** A client that stopped reading is dropped once this much waits for it (it reconnects). */
const MAX_BUFFERED_BYTES = 1 << 20;
export const REPLAY_MAX = 200;
export const REPLAY_HOURS = 12;

export interface RealtimeRouteDeps {
  db: Kysely<Database>;
  hub: ConsoleHub;
  pingMs?: number;
  now?: () => Date;
}

const params = z.object({ storeId: dbId() });
const EVENT_ID = /^evt_[A-Za-z0-9_-]{1,100}$/;

/** The last frame of a stream ended by the node's shutdown: reconnect in 1–3 s (elsewhere). */
export function shutdownFrame(): string {
  return `retry: ${SHUTDOWN_RETRY_MS + Math.floor(Math.random() * SHUTDOWN_RETRY_SPREAD_MS)}\n: this node is shutting down; reconnect\n\n`;
}
export const SHUTDOWN_RETRY_MS = 1_000;
const SHUTDOWN_RETRY_SPREAD_MS = 2_000;

/** One SSE frame. */
export function sseFrame(event: string, data: unknown, id?: string): string {
  return `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function orderFrame(event: ConsoleEvent): string {
  // The hub carries outbox events, whose type is one of OUTBOX_EVENT_TYPES (outbox/append.ts).
  const data: LiveOrderEvent = { event_id: event.event_id, type: event.type as OutboxEventType, ...event.payload };
  return sseFrame('order', data, event.event_id);
}

export function registerRealtimeRoutes(app: FastifyInstance, deps: RealtimeRouteDeps): void {
  const pingMs = deps.pingMs ?? PING_MS;
  const now = deps.now ?? (() => new Date());
  // Every stream's connection until it closed: on shutdown (http/graceful-shutdown.ts) each stream
  // gets a `retry:` hint (1–3 s, spread so a node's consoles do not all come back in the same
  // instant) and ends cleanly; once its last bytes are out, its socket is destroyed (a client that
  // stopped reading would otherwise hold server.close() until its own timeout). The browser's
  // EventSource reconnects after the hint, with Last-Event-ID, through the proxy to another node,
  // which replays what it missed (below); the console reads its lists again at `ready`.
  const open = new Map<PassThrough, ServerResponse>();
  app.addHook('preClose', async () => {
    for (const [stream, res] of open) {
      res.once('finish', () => res.socket?.destroy());
      if (!stream.destroyed && !stream.writableEnded) stream.write(shutdownFrame());
      stream.end();
      if (res.writableFinished || stream.destroyed) res.socket?.destroy();
    }
  });

  app.get('/api/console/stores/:storeId/events', { config: { console: { permission: 'orders:read' } } }, async (request, reply) => {
    const me = staffOf(request);
    const { storeId } = parseOr400(params, request.params);
    const token = sessionTokenOf(request);
    const stream = new PassThrough();
    open.set(stream, reply.raw);
    reply.raw.once('close', () => open.delete(stream));
    const send = (chunk: string) => {
      if (stream.destroyed || stream.writableEnded) return;
      if (stream.writableLength > MAX_BUFFERED_BYTES) return void stream.destroy();
      stream.write(chunk);
    };
    // Every order frame waits for a fresh check of the session and the store (one check per
    // batch, in order): nothing is delivered once the member was disabled, logged out or lost
    // the store, even when the access change's message never arrived. An access change of the
    // member (this node or another, through the hub) and each ping check at once.
    let pending: string[] = [];
    let checking = false;
    let recheck = false;
    const pump = () => {
      if (checking || stream.destroyed || stream.writableEnded) return;
      if (!pending.length && !recheck) return;
      checking = true;
      recheck = false;
      const batch = pending;
      pending = [];
      (token ? stillAllowed(deps.db, token, storeId, now()) : Promise.resolve(false))
        .then((ok) => {
          if (!ok) return void stream.end();
          for (const frame of batch) send(frame);
        })
        .catch((err: unknown) => {
          // Fail closed: the console reconnects and the guard judges it afresh.
          request.log.warn({ err }, 'console stream: session check failed');
          stream.end();
        })
        .finally(() => {
          checking = false;
          pump();
        });
    };
    const deliver = (frame: string) => {
      pending.push(frame);
      pump();
    };
    const check = () => {
      recheck = true;
      pump();
    };
    const unsubscribe = deps.hub.subscribe(storeId, (event) => deliver(orderFrame(event)));
    const stopAccess = deps.hub.onAccessChange(me.id, check);
    const ping = setInterval(() => {
      send(': ping\n\n');
      check();
    }, pingMs);
    ping.unref();
    const cleanup = () => {
      clearInterval(ping);
      unsubscribe();
      stopAccess();
      // A stream that did not end (client gone, buffer overflow): drop its connection too, or a
      // half-open socket would hold server.close() on shutdown.
      if (!reply.raw.writableEnded) reply.raw.destroy();
    };
    stream.once('close', cleanup);
    reply.raw.once('close', () => {
      cleanup();
      stream.destroy();
    });

    // Reconnect after 3 s when the connection drops (EventSource's default varies by browser).
    stream.write(`retry: 3000\n${sseFrame('ready', { store_id: storeId } satisfies LiveReady)}`);
    const lastEventId = request.headers['last-event-id'];
    if (typeof lastEventId === 'string' && EVENT_ID.test(lastEventId)) {
      // Subscribed above first: an event pushed while this reads is sent live (perhaps twice; the
      // console drops repeats by event_id).
      replaySince(deps.db, storeId, lastEventId, now())
        .then((events) => events.forEach((event) => deliver(orderFrame(event))))
        .catch((err: unknown) => request.log.warn({ err }, 'console stream: replay failed'));
    }
    reply
      .header('content-type', 'text/event-stream')
      .header('cache-control', 'no-store')
      .header('x-accel-buffering', 'no')
      .header('x-content-type-options', 'nosniff')
      // The connection ends with the stream: an ended stream's socket left idle for keep-alive
      // would hold server.close() (on shutdown) until the keep-alive timeout.
      .header('connection', 'close');
    return reply.send(stream);
  });
}

/** The store's events pushed after `lastEventId` (an event of the same store), oldest first. */
export async function replaySince(db: Kysely<Database>, storeId: number, lastEventId: string, at: Date): Promise<ConsoleEvent[]> {
  const last = await db
    .selectFrom('outbox_events')
    .select('id')
    .where('event_id', '=', lastEventId)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  if (!last) return [];
  const rows = await db
    .selectFrom('outbox_events')
    .select(['event_id', 'type', 'store_id', 'payload'])
    .where('store_id', '=', storeId)
    .where('id', '>', last.id)
    .where('pushed_at', 'is not', null)
    .where('created_at', '>=', new Date(at.getTime() - REPLAY_HOURS * 3600_000).toISOString())
    .orderBy('id')
    .limit(REPLAY_MAX)
    .execute();
  return rows.map((row) => ({ event_id: row.event_id, type: row.type, store_id: row.store_id, payload: JSON.parse(row.payload) }));
}

async function stillAllowed(db: Kysely<Database>, token: string, storeId: number, at: Date): Promise<boolean> {
  const session = await findLiveSession(db, token, at);
  if (!session || !roleCan(session.role, 'orders:read')) return false;
  return (await storeIdsOf(db, session.staffId, session.role)).includes(storeId);
}
