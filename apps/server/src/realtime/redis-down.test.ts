/**
 * Redis goes away under a running node (both databases; the node reaches the real Redis through a
 * TCP proxy the test cuts): orders still save and still reach the node's own console streams
 * within 2 s (the hub delivers locally; publishing to the other nodes fails and is logged, the
 * consumers keep polling); once Redis is back, events flow as before; closing the app does not hang.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { NOW, registry, seed } from '../../test-support/catalog/test-app.ts';
import { RedisProxy } from '../../test-support/multinode/harness.ts';
import { addStaff, loginStaff } from '../../test-support/staff/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { openSse, type SseStream } from '../../test-support/realtime/sse-client.ts';

describeEachDatabase('console stream while Redis is down', (getDb) => {
  let app: FastifyInstance;
  let proxy: RedisProxy;
  let base: string;
  let stream: SseStream;
  const warnings: string[] = [];

  beforeAll(async () => {
    const t = getDb();
    await seed(t);
    proxy = await RedisProxy.start();
    app = await buildApp({
      config: {
        dataDir: t.dataDir,
        demoMode: true,
        production: true,
        logLevel: 'warn',
        redisUrl: proxy.url,
        redisPrefix: `verdant-test-${process.pid}-${Math.random().toString(36).slice(2)}:`,
      },
      registry,
      db: t.db,
      logger: { level: 'warn', stream: { write: (line: string) => void warnings.push(line) } },
      clock: () => NOW,
    });
    await addStaff(t.db, { email: 'bud@redis-down.test', role: 'budtender', storeIds: [1] });
    const bud = await loginStaff(app, 'bud@redis-down.test');
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    stream = await openSse(`${base}/api/console/stores/1/events`, { cookie: bud.cookie });
    await stream.waitFor((f) => f.event === 'ready', 2000);
  });
  afterAll(async () => {
    stream?.close();
    const started = performance.now();
    await app?.close();
    expect(performance.now() - started).toBeLessThan(5000);
    await proxy?.cut();
  });

  const placeAndSee = async () => {
    const res = await fetch(`${base}/api/order/save`, {
      method: 'POST',
      headers: { host: 'downtown.localhost', 'content-type': 'application/json' },
      body: JSON.stringify({
        idempotency_key: randomUUID(),
        products: [{ sku: 'AC-BLACK-CERAMIC-STASH-JAR', qty: 1 }],
        order_type: 'pickup',
        personal_details: { firstName: 'Ana', lastName: 'Reyes', emailAddress: 'ana@example.com', phone: '(916) 555-0101' },
        // Age on every order (issue 14): a guest gives a date of birth.
        birthday: '1990-01-01',
        payment_method: 'cashondelivery',
      }),
    });
    expect(res.status).toBe(200);
    const saved = performance.now();
    const { order_id } = ((await res.json()) as { result: { order_id: number } }).result;
    const frame = await stream.waitFor((f) => f.event === 'order' && f.data.order_id === order_id, 2000);
    return frame.at - saved;
  };

  it('orders reach the local stream within 2 s with Redis down, the failure is logged, and after it is back', async () => {
    expect(await placeAndSee()).toBeLessThan(2000);
    await proxy.cut();
    expect(await placeAndSee()).toBeLessThan(2000);
    expect(warnings.some((l) => l.includes('redis (outbox)'))).toBe(true);
    await proxy.restore();
    expect(await placeAndSee()).toBeLessThan(2000);
  });
});
