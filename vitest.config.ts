import { defineConfig } from 'vitest/config';

// One runner for unit and integration tests of every workspace. Browser journeys live in e2e/
// and run with Playwright; benchmarks live in bench/ and never run as tests.
export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      'apps/web/app/**/*.test.{ts,tsx}',
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
