/**
 * The outbox dispatcher of this node (ARCHITECTURE "The store's side", "Events"): after a commit,
 * the events written in it go out as
 *  - console pushes (`pushed_at`, at most once across nodes): the node that claims an event
 *    publishes it on the console hub, which reaches this node's open streams and, through Redis,
 *    every other node's;
 *  - shopper and store messages (`messages_at`, at least once; rows behind a unique key): the
 *    notifications planner writes `message_deliveries`, the sender sends them with retries.
 * Webhooks run their own consumer on `webhooks_at` (../webhooks/). Back-in-stock alerts (issue 30)
 * run their own planner on the watches a restock marked (../alerts/planner.ts), woken by the kicks.
 *
 * With REDIS_URL, `app.outbox.kick()` also reaches the other nodes (`{prefix}outbox-kick`), so
 * their consumers start at once too; when Redis is away every consumer still polls each second.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AccountsContext } from '../auth/context.ts';
import type { Database } from '../db/schema.ts';
import { recordMessages, type StoreInfo } from '../notifications/plan.ts';
import { createMessageSender, type MessageSender } from '../notifications/sender.ts';
import { createConsoleHub, type ConsoleHub } from '../realtime/hub.ts';
import { staffAccessOf } from '../staff/access-signal.ts';
import type { StoreRegistry } from '../stores/registry.ts';
import { createOutboxConsumer, type OutboxConsumer } from './consumer.ts';
import { redisPubSub, type PubSub } from './redis-pubsub.ts';
import { curbsideToken } from '../orders/curbside/link.ts';
import { CURBSIDE_SECTION } from '../orders/curbside/section.ts';
import { sectionOf } from '../store-settings/read.ts';
import { storeSiteUrl } from '../users/password-reset.ts';
import { createAlertPlanner, type AlertPlanner } from '../alerts/planner.ts';

export interface OutboxDispatcherDeps {
  db: Kysely<Database>;
  registry: StoreRegistry;
  config: { redisUrl?: string; redisPrefix?: string; messageReceiptWaitSeconds?: number };
  /** The app's clock (staff sessions are judged by it); the outbox itself runs on the wall clock. */
  clock?: () => Date;
  /** Default: the accounts' providers (app.accounts). */
  sms?: AccountsContext['sms'];
  mailer?: AccountsContext['mailer'];
}

export interface OutboxDispatcher {
  hub: ConsoleHub;
  push: OutboxConsumer;
  messages: OutboxConsumer;
  sender: MessageSender;
  /** Issue 30: back-in-stock watches marked by a restock → one message each (alerts/planner.ts). */
  alerts: AlertPlanner;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The outbox dispatcher of this node (outbox/dispatcher.ts). */
    outboxDispatcher: OutboxDispatcher;
  }
}

/**
 * Call after registerAccountRoutes (it uses the accounts' SMS provider and mailer) and registerStaff;
 * buildApp then registers the console's stream (realtime/console-routes.ts, on `hub`) and message routes.
 */
export async function registerOutboxDispatcher(app: FastifyInstance, deps: OutboxDispatcherDeps): Promise<OutboxDispatcher> {
  const prefix = deps.config.redisPrefix ?? 'verdant:';
  const warn = (what: string) => (err: unknown) => app.log.warn({ err }, what);
  const accounts = (app as { accounts?: AccountsContext }).accounts;
  const sms = deps.sms ?? accounts?.sms;
  const mailer = deps.mailer ?? accounts?.mailer;
  if (!sms || !mailer)
    throw new Error('registerOutboxDispatcher needs the accounts (SMS provider, mailer): call it after registerAccountRoutes');

  const pubsub: PubSub | null = deps.config.redisUrl
    ? redisPubSub({ url: deps.config.redisUrl, onError: warn('redis (outbox)'), onResubscribed: () => app.outbox.kickLocal() })
    : null;
  const hub = createConsoleHub({
    pubsub,
    channel: `${prefix}console-events`,
    accessChannel: `${prefix}console-access`,
    onError: warn('console hub'),
  });
  // A member's sessions or access changed here: their streams end at once, here and on every node.
  const stopAccess = staffAccessOf(app).on((staffId) => hub.accessChanged(staffId));
  if (pubsub) {
    const kickChannel = `${prefix}outbox-kick`;
    pubsub.on(kickChannel, (origin) => {
      if (origin !== pubsub.origin) app.outbox.kickLocal();
    });
    app.outbox.setRelay(() => pubsub.publish(kickChannel, pubsub.origin));
    await pubsub.start();
  }

  const stores = new Map<number, StoreInfo>(
    deps.registry.stores.map((s) => [s.storeId, { name: s.name, timezone: s.dispensarySettings.place_info.timezone }]),
  );
  // Issue 29: the "I'm here" link of a ready pickup order, when its store offers curbside (signed with the accounts' secret).
  const byId = new Map(deps.registry.stores.map((s) => [s.storeId, s]));
  const curbsideLink = async (storeId: number, orderId: number): Promise<string | null> => {
    const store = byId.get(storeId);
    if (!store || !accounts?.secret || !(await sectionOf(deps.db, store, CURBSIDE_SECTION)).value.offered) return null;
    return storeSiteUrl(store, '', `/curbside/${curbsideToken(accounts.secret, storeId, orderId, (deps.clock ?? (() => new Date()))())}`);
  };
  const sender = createMessageSender({
    db: deps.db,
    sms,
    mailer,
    onError: warn('message sender'),
    log: app.log,
    timeZoneOf: (id) => stores.get(id)?.timezone,
    ...(deps.config.messageReceiptWaitSeconds ? { receiptWaitMs: deps.config.messageReceiptWaitSeconds * 1000 } : {}),
  });
  const push = createOutboxConsumer({
    name: 'push',
    db: deps.db,
    signal: app.outbox,
    column: 'pushed_at',
    claim: 'before',
    handle: async (event) => hub.publish({ event_id: event.event_id, type: event.type, store_id: event.store_id, payload: event.payload }),
    onError: warn('outbox consumer push'),
  });
  const messages = createOutboxConsumer({
    name: 'messages',
    db: deps.db,
    signal: app.outbox,
    column: 'messages_at',
    handle: async (event) => {
      if (await recordMessages({ db: deps.db, storeInfo: (id) => stores.get(id), curbsideLink, smsReceipts: !!sms.receipts }, event)) sender.wake();
    },
    onError: warn('outbox consumer messages'),
  });

  const alerts = createAlertPlanner({
    db: deps.db,
    stores: deps.registry.stores,
    secret: accounts?.secret ?? '',
    signal: app.outbox,
    onQueued: () => sender.wake(),
    onError: warn('back-in-stock alerts'),
  });

  const dispatcher: OutboxDispatcher = { hub, push, messages, sender, alerts };
  app.decorate('outboxDispatcher', dispatcher);
  app.addHook('onReady', async () => {
    push.start();
    messages.start();
    sender.start();
    alerts.start();
  });
  app.addHook('onClose', async () => {
    app.outbox.setRelay(null);
    stopAccess();
    await Promise.all([push.stop(), messages.stop(), sender.stop(), alerts.stop()]);
    await pubsub?.close();
  });
  return dispatcher;
}
