/**
 * Vitest's global setup: the server and its CLIs compiled once per test run into apps/server/dist-test/
 * (about a second), so the tests that start a node or run a CLI in a child process start compiled
 * JavaScript — what production runs (issue 32) — instead of paying tsx's compile in every child
 * (a node ready in about half the time; the staff CLI test went from minutes to seconds on a loaded
 * machine). Built from the sources of this very run: never stale. Paths: test-support/compiled.ts.
 */
import path from 'node:path';
// @ts-expect-error: a plain .mjs script without types (scripts/build-server.mjs).
import { buildServer, ROOT } from './build-server.mjs';

export default async function setup(): Promise<void> {
  await buildServer(path.join(ROOT as string, 'apps/server/dist-test'));
}
