/**
 * Test support (not a test file): a real webhook receiver on loopback that verifies every request
 * with `standardwebhooks` the way an integrator's server would, and answers as the test tells it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { DEMO_STORES_FILE } from '../../src/config.ts';
import { syncStores } from '../../src/db/index.ts';
import type { Database } from '../../src/db/schema.ts';
import { appendOutboxEvent, type OutboxEventType } from '../../src/outbox/append.ts';
import { readStoresFile } from '../../src/seed/index.ts';

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  headers: IncomingHttpHeaders;
  /** Whether `Webhook.verify` accepted it with one of the receiver's secrets (and which). */
  verifiedWith: string | null;
  /** What the receiver answered. */
  status: number;
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (the sender's timeout must end it). */
  hang?: boolean;
}

export type Behaviour = (request: { id: string; nth: number; nthForId: number }) => Answer;

export class Receiver {
  readonly received: ReceivedWebhook[] = [];
  secrets: string[];
  behaviour: Behaviour;
  private server: Server | null = null;
  private hanging = new Set<import('node:http').ServerResponse>();
  port = 0;

  constructor(secrets: string[] = [], behaviour: Behaviour = () => ({ status: 200, body: 'ok' })) {
    this.secrets = secrets;
    this.behaviour = behaviour;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Listen on `port` (0: any free port; the same port again after stop() to come back up). */
  async start(port = this.port): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const id = String(req.headers['webhook-id'] ?? '');
        let verifiedWith: string | null = null;
        for (const secret of this.secrets) {
          try {
            new Webhook(secret).verify(body, req.headers as Record<string, string>);
            verifiedWith = secret;
            break;
          } catch {
            // not this secret
          }
        }
        const nthForId = this.received.filter((r) => r.id === id).length + 1;
        // A receiver that cannot verify refuses, as integrators are told to.
        const answer = verifiedWith
          ? this.behaviour({ id, nth: this.received.length + 1, nthForId })
          : { status: 401, body: 'bad signature' };
        this.received.push({
          id,
          timestamp: String(req.headers['webhook-timestamp'] ?? ''),
          signature: String(req.headers['webhook-signature'] ?? ''),
          body,
          headers: req.headers,
          verifiedWith,
          status: answer.status,
          at: Date.now(),
        });
        if (answer.hang) {
          this.hanging.add(res);
          return;
        }
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    if (!server) return;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }

  /** Requests for `id` the receiver accepted (2xx). */
  accepted(id: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.id === id && r.status >= 200 && r.status < 300);
  }
}

/** Poll until `check` passes or fail after `ms` (no fixed sleeps standing in for a condition). */
export async function eventually(what: string, ms: number, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The demo stores (rows only: events and endpoints reference them). */
export async function syncDemoStores(db: Kysely<Database>): Promise<void> {
  await syncStores(db, readStoresFile(DEMO_STORES_FILE));
}

let orderSeq = 1000;

/** An order event written the way the order code writes it (in a transaction). */
export async function appendEvent(db: Kysely<Database>, storeId: number, type: OutboxEventType = 'order.created'): Promise<string> {
  const orderId = ++orderSeq;
  return db.transaction().execute((trx) =>
    appendOutboxEvent(trx, {
      storeId,
      type,
      orderId,
      at: new Date().toISOString(),
      payload: {
        order_id: orderId,
        increment_id: `T${orderId}`,
        store_code: 'downtown',
        status: type === 'order.created' ? 'submitted' : 'confirmed',
        previous_status: type === 'order.created' ? null : 'submitted',
        order_type: 'pickup',
        version: 1,
      },
    }),
  );
}

/** Forget every endpoint, delivery and attempt; mark every event handled (tests of one suite share a database). */
export async function resetWebhooks(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('webhook_attempts').execute();
  await db.deleteFrom('webhook_deliveries').execute();
  await db.deleteFrom('webhook_endpoints').execute();
  await db.updateTable('outbox_events').set({ webhooks_at: new Date().toISOString() }).where('webhooks_at', 'is', null).execute();
}

export async function deliveriesOf(db: Kysely<Database>, endpointId: number) {
  return db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('id').execute();
}

export async function attemptsOf(db: Kysely<Database>, deliveryId: number) {
  return db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('id').execute();
}
