import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

/**
 * Browser journeys against the real server on a fresh demo database (SQLite in a temp DATA_DIR),
 * in Debian's Chromium (Playwright never downloads a browser here). Store hosts use
 * `<code>.localhost`, which Chromium resolves to the loopback address.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3187);
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
/** The deals journeys' server (below): the next port, its own data folder. */
export const DEALS_PORT = Number(process.env.E2E_DEALS_PORT ?? E2E_PORT + 1);
const dealsDataDir = process.env.E2E_DEALS_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-e2e-deals-'));
process.env.E2E_DEALS_DATA_DIR = dealsDataDir;
/**
 * The messages journey's server (issue 30): its texts and mails go to a loopback gateway the journey
 * runs (apps/server/test-support/messages/gateway.ts) on the port after it, which reports delivery
 * back. Its own database, so no other journey's shopper meets a failing gateway.
 */
export const MESSAGES_PORT = Number(process.env.E2E_MESSAGES_PORT ?? E2E_PORT + 2);
process.env.E2E_MESSAGES_PORT = String(MESSAGES_PORT);
const messagesDataDir = process.env.E2E_MESSAGES_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-e2e-messages-'));
process.env.E2E_MESSAGES_DATA_DIR = messagesDataDir;
const gatewayUrl = `http://127.0.0.1:${Number(process.env.E2E_MESSAGES_GATEWAY_PORT ?? MESSAGES_PORT + 1)}`;
// The server inherits REDIS_URL (CI sets it). Each run gets its own Redis namespace: the database is
// fresh every run, and rate-limit counters (login-code sends per address, password changes per
// customer id) left in Redis by an earlier run within the hour must not refuse this run's logins.
const redisPrefix = process.env.E2E_REDIS_PREFIX ?? `verdant-e2e:${path.basename(dataDir)}:`;
process.env.E2E_REDIS_PREFIX = redisPrefix;

export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  // One results folder per port: runs on other ports (other checkouts) never share trace files.
  outputDir: path.join(os.tmpdir(), `verdant-e2e-results-${E2E_PORT}`),
  use: {
    baseURL: `http://downtown.localhost:${E2E_PORT}`,
    // A trace records every action's DOM and a screencast: real CPU on a 2-core machine, and CI's
    // trace files are never seen (CI keeps only the log, whose tail names each failure with its
    // error). Local runs keep them for failures.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    // The service worker caches pages and answers; journeys that are not about it run without it
    // (e2e/tests/pwa.spec.ts allows it).
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: [
    {
      command: 'node --enable-source-maps apps/server/dist/main.mjs',
      cwd: path.resolve(import.meta.dirname, '..'),
      url: `http://127.0.0.1:${E2E_PORT}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      // TRUST_PROXY: the journeys act for many shoppers through one loopback connection and name each
      // shopper's address in X-Forwarded-For (fixtures/store.ts), as a proxy in front would.
      // DEMO_DEALS false: each journey's totals are about what it tests, whatever the day and hour.
      env: { PORT: String(E2E_PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_PREFIX: redisPrefix, TRUST_PROXY: '127.0.0.1', DEMO_DEALS: 'false' },
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      // The deals journeys' own server (issue 28): the demo stores with their demo deals, as
      // `npm start` ships them, on a database of its own, so no other journey meets a deal.
      command: 'node --enable-source-maps apps/server/dist/main.mjs',
      cwd: path.resolve(import.meta.dirname, '..'),
      url: `http://127.0.0.1:${DEALS_PORT}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      env: { PORT: String(DEALS_PORT), HOST: '127.0.0.1', DATA_DIR: dealsDataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_PREFIX: `${redisPrefix}deals:`, TRUST_PROXY: '127.0.0.1', DEMO_DEALS: 'true' },
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      command: 'node --enable-source-maps apps/server/dist/main.mjs',
      cwd: path.resolve(import.meta.dirname, '..'),
      url: `http://127.0.0.1:${MESSAGES_PORT}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      env: {
        PORT: String(MESSAGES_PORT),
        HOST: '127.0.0.1',
        DATA_DIR: messagesDataDir,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        REDIS_PREFIX: `${redisPrefix}messages:`,
        TRUST_PROXY: '127.0.0.1',
        DEMO_DEALS: 'false',
        SMS_PROVIDER: 'http',
        SMS_HTTP_URL: `${gatewayUrl}/sms`,
        MAIL_PROVIDER: 'http',
        MAIL_HTTP_URL: `${gatewayUrl}/mail`,
        SMS_RECEIPTS: 'true',
        MAIL_RECEIPTS: 'true',
        // Not a secret: the journey's gateway signs with it (e2e/fixtures/messages.ts).
        MESSAGE_STATUS_SECRET: 'e2e-message-status-secret-0123456789abcdef',
      },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  ],
});
