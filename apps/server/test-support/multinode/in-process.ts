/**
 * Two nodes of a deployment in one test process: two apps over one (seeded) database and one Redis,
 * each run on its own Redis prefix so parallel runs never hear each other, and an owner signed in on
 * both. For tests of what one node's change does on the other (a tax-line save, a restock's alerts);
 * tests that kill or restart a node use separate processes (harness.ts).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { DEMO_STORES_FILE } from '../../src/config.ts';
import { readStoresFile, seedDemo } from '../../src/seed/index.ts';
import { REFERENCE_DATE, registry } from '../cart/testing.ts';
import type { TestDatabase } from '../databases.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../staff/testing.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TwoNodes {
  a: FastifyInstance;
  b: FastifyInstance;
  /** The same owner, signed in on each node. */
  ownerA: StaffTestSession;
  ownerB: StaffTestSession;
  close(): Promise<void>;
}

export async function twoSeededNodes(t: TestDatabase, name: string, options: { clock?: () => Date } = {}): Promise<TwoNodes> {
  await seedDemo(t.db, readStoresFile(DEMO_STORES_FILE), { dataDir: t.dataDir, referenceDate: REFERENCE_DATE });
  const redisPrefix = `verdant-${name}-${process.pid}-${randomUUID().slice(0, 8)}:`;
  const node = () =>
    buildApp({
      config: { dataDir: t.dataDir, demoMode: true, production: true, logLevel: 'silent', redisUrl: REDIS_URL, redisPrefix },
      registry,
      db: t.db,
      logger: false,
      ...(options.clock ? { clock: options.clock } : {}),
    });
  const a = await node();
  const b = await node();
  await Promise.all([a.ready(), b.ready()]);
  const email = `owner-${process.pid}-${randomUUID().slice(0, 8)}@${name}.test`;
  await addStaff(t.db, { email, role: 'owner', name: 'Olga Owner' });
  return {
    a,
    b,
    ownerA: await loginStaff(a, email),
    ownerB: await loginStaff(b, email),
    async close() {
      await a.close();
      await b.close();
    },
  };
}
