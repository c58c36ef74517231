/**
 * The compiled server and CLIs a test may start in a child process: built for this test run by
 * Vitest's global setup (scripts/vitest-build-server.ts) into apps/server/dist-test/.
 *
 *   spawnSync(process.execPath, [compiledEntry('staff'), 'list'], …)
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

const DIR = path.resolve(import.meta.dirname, '../dist-test');

export type CompiledEntry = 'main' | 'seed' | 'migrate' | 'backup' | 'restore' | 'staff' | 'analytics' | 'proxy-config' | 'import' | 'api-key';

export function compiledEntry(name: CompiledEntry): string {
  const file = path.join(DIR, `${name}.mjs`);
  if (!existsSync(file)) throw new Error(`${file} is missing: run the tests through Vitest (its global setup builds it)`);
  return file;
}
