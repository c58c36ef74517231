/**
 * The real app for the staff suites (not a test file): the demo stores (small catalogue), the
 * accounts' outbox mailer to read links from, and a clock the test can move.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { DEMO_STORES_FILE } from '../../src/config.ts';
import { registry } from '../cart/testing.ts';
import type { OutboxMailer } from '../../src/mail/mailer.ts';
import { readStoresFile, seedDemo } from '../../src/seed/index.ts';
import type { TestDatabase } from '../databases.ts';

export const START = new Date('2026-06-15T12:00:00.000Z');

export interface StaffTestApp {
  app: FastifyInstance;
  mailer: OutboxMailer;
  clock: { now: Date; advance(ms: number): void };
}

export async function staffTestApp(t: TestDatabase, opts: { demoMode?: boolean } = {}): Promise<StaffTestApp> {
  await seedDemo(t.db, readStoresFile(DEMO_STORES_FILE), { dataDir: t.dataDir, referenceDate: START, productsPerStore: 10 });
  const clock = {
    now: START,
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms);
    },
  };
  const app = await buildApp({
    config: { dataDir: t.dataDir, demoMode: opts.demoMode ?? true, production: true, logLevel: 'silent' },
    registry,
    db: t.db,
    logger: false,
    clock: () => clock.now,
  });
  // In outbox mode (no MAIL_PROVIDER) the accounts' mailer keeps what it sent.
  return { app, mailer: app.accounts!.mailer as OutboxMailer, clock };
}
