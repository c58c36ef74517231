/**
 * The environment-variable table of docs/operators/environment.md and what the server reads agree,
 * both ways: every key of the environment schema in apps/server/src/config.ts and every variable a
 * production module reads beside it (`env.X`, `process.env.X`, `env['X']`, a `whole(…'X'…)` reader)
 * is a row of the table, and every row is read by the server. Test support (test kits, harnesses,
 * *.test.ts) is left out: its variables (TEST_DATABASE_URL, CI) are described under the table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDoc, ROOT } from './docs.ts';

const TABLE = 'docs/operators/environment.md';

/** The variables of the table's first column. */
export function documentedVariables(markdown: string): string[] {
  return [...markdown.matchAll(/^\|\s*`([A-Z][A-Z0-9_]+)`\s*\|/gm)].map((m) => m[1]);
}

/** The keys of `const envSchema = z.object({ … })` in config.ts. */
export function schemaKeys(source: string): string[] {
  const start = source.indexOf('const envSchema = z.object({');
  if (start < 0) throw new Error('config.ts has no envSchema');
  const end = source.indexOf('\n});', start);
  return [...source.slice(start, end).matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
}

/** Environment variables a source text reads. */
export function variablesRead(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/(?<!meta\.)\b(?:process\.)?env(?:\.([A-Z][A-Z0-9_]{2,})\b|\[\s*['"]([A-Z][A-Z0-9_]{2,})['"]\s*\])/g))
    names.add(m[1] ?? m[2]);
  for (const m of source.matchAll(/\bwhole\(\s*(?:env\s*,\s*)?['"]([A-Z][A-Z0-9_]{2,})['"]/g)) names.add(m[1]);
  return [...names];
}

const TEST_SUPPORT = /(^|\/)(test|tests|test-support|testing)(\/|\.tsx?$)|\.test\.tsx?$|(^|\/)(test-app|app-for-tests|harness)\.tsx?$/;

function productionSources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || TEST_SUPPORT.test(`${rel}/`) ? [] : productionSources(rel);
    return /\.tsx?$/.test(e.name) && !TEST_SUPPORT.test(rel) ? [rel] : [];
  });
}

describe('environment table and the server agree', () => {
  const documented = documentedVariables(readDoc(TABLE));
  const config = readFileSync(path.join(ROOT, 'apps/server/src/config.ts'), 'utf8');
  const read = new Map<string, string>();
  for (const file of [...productionSources('apps/server/src'), ...productionSources('apps/web/app')])
    for (const name of variablesRead(readFileSync(path.join(ROOT, file), 'utf8'))) if (!read.has(name)) read.set(name, file);
  for (const key of schemaKeys(config)) read.set(key, 'apps/server/src/config.ts');

  it('reads a table and a schema', () => {
    expect(documented.length).toBeGreaterThan(20);
    expect(schemaKeys(config)).toContain('DATABASE_URL');
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('every key of config.ts is in the table', () => {
    expect(schemaKeys(config).filter((k) => !documented.includes(k))).toEqual([]);
  });

  it('every variable the server reads is in the table', () => {
    expect([...read].filter(([name]) => !documented.includes(name)).map(([name, file]) => `${name} (${file})`)).toEqual([]);
  });

  it('every variable in the table is read by the server', () => {
    expect(documented.filter((name) => !read.has(name))).toEqual([]);
  });

  it('finds the ways a variable is read', () => {
    const src = "const a = process.env.SSR_FRAGMENT_CACHE; env.WEBHOOK_POLL_MS; env['X_Y_Z']; whole(env, 'WRITE_RATE_LIMIT', 1, 0); whole('INTEGRATION_RATE_WINDOW', 60, 1); import.meta.env.DEV;";
    expect(variablesRead(src).sort()).toEqual(['INTEGRATION_RATE_WINDOW', 'SSR_FRAGMENT_CACHE', 'WEBHOOK_POLL_MS', 'WRITE_RATE_LIMIT', 'X_Y_Z']);
  });
});
