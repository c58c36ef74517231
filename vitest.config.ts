import os from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner for unit and integration tests of every workspace. Browser journeys live in e2e/
// and run with Playwright; benchmarks live in bench/ and never run as tests.
export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      'apps/web/app/**/*.test.{ts,tsx}',
      'apps/console/src/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    environment: 'node',
    // The server and CLIs compiled once per run for the tests that start them (test-support/compiled.ts).
    globalSetup: ['scripts/vitest-build-server.ts'],
    // Two test files at once even on 2 cores (Vitest's default there is one): most suites wait on
    // PostgreSQL, Redis or server processes they start, so a second worker overlaps those waits.
    // Every suite has its own database schema or SQLite file, Redis prefix or channel, and port.
    // Measured on this machine kind: unit + integration 628 s with one worker, 433 s with two.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
