/**
 * Every benchmark knob is written down: each `BENCH_…` variable named in bench/ (and each
 * `envNum('X', …)` of the 4/20 suite, read as `BENCH_420_X`) appears in
 * docs/developers/benchmarks.md or bench/SCALE.md. A knob nobody can find is a knob nobody uses.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDoc, ROOT } from './docs.ts';

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'results' || e.name === 'node_modules' ? [] : sources(rel);
    return /\.(ts|mts|mjs|js)$/.test(e.name) ? [rel] : [];
  });
}

/** The knobs a source names: `BENCH_X` literals (a name ending in `_` is a prefix: `BENCH_X_<n>`) and the 4/20 suite's envNum keys. */
export function benchKnobs(file: string, source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/\bBENCH_[A-Z0-9_]*[A-Z0-9]_?/g)) {
    if (m[0] === 'BENCH_USAGE') continue; // bench/run.ts's help text constant, not a variable
    if (m[0] === 'BENCH_420_') continue; // the 4/20 suite's envNum reader: its keys are taken below
    names.add(m[0].endsWith('_') ? `${m[0]}<` : m[0]);
  }
  if (file.endsWith('four-twenty.ts')) for (const m of source.matchAll(/\benvNum\(\s*'([A-Z0-9_]+)'/g)) names.add(`BENCH_420_${m[1]}`);
  return [...names];
}

describe('benchmark knobs', () => {
  it('finds the knobs of a source, prefixes and composed names included', () => {
    expect(benchKnobs('bench/suites/four-twenty.ts', "envNum('LATE_MS', 250); process.env[`BENCH_OFFLINE_DATA_${n}`]; BENCH_SECONDS").sort()).toEqual([
      'BENCH_420_LATE_MS',
      'BENCH_OFFLINE_DATA_<',
      'BENCH_SECONDS',
    ]);
  });

  it('every knob read under bench/ is documented', () => {
    const docs = readDoc('docs/developers/benchmarks.md') + readDoc('bench/SCALE.md');
    const missing = sources('bench').flatMap((file) =>
      benchKnobs(file, readFileSync(path.join(ROOT, file), 'utf8'))
        .filter((name) => !docs.includes(name))
        .map((name) => `${name} (${file})`),
    );
    expect(missing).toEqual([]);
  });
});
