#!/usr/bin/env node
// `npm test`: type-check, build (storefront and console), unit + integration tests (Vitest, SQLite and
// PostgreSQL; some read the builds, e.g. the shopper/console bundle separation), then the browser
// journeys (Playwright in Debian Chromium) on the same build. Every stage runs even if an earlier one failed, so one
// run shows everything that is broken; the last line sums up all stages.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-test-'));
const vitestJson = path.join(tmp, 'vitest.json');
const playwrightJson = path.join(tmp, 'playwright.json');

function run(title, cmd, args, env = {}) {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`=== ${title}: exit ${res.status} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return res.status === 0;
}

/** The first lines of an error (the message, the locator, expected and received), indented under its test. */
function errorHead(text, lines = 8) {
  // eslint-disable-next-line no-control-regex
  const all = String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').filter((l) => l.trim());
  return all.slice(0, lines).map((l) => l.slice(0, 240)).join('\n          ');
}

function collectPlaywrightFailures(suites, titles) {
  for (const suite of suites) {
    const here = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const results = test.results ?? [];
        const bad = results.filter((res) => res.status !== 'passed' && res.status !== 'skipped');
        if (test.status === 'unexpected' || test.status === 'flaky') {
          const error = bad[0]?.error;
          const at = error?.location ? ` at ${path.relative(root, error.location.file)}:${error.location.line}` : '';
          failures.push(`browser ${[...here, spec.title].join(' › ')} (${test.status})${at}\n          ${errorHead(error?.message)}`);
        }
      }
    }
    collectPlaywrightFailures(suite.suites ?? [], here);
  }
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const only = process.argv[2]; // optional: "unit" or "e2e"
const stages = [];
let passed = 0;
let failed = 0;
let skipped = 0;
// CI shows only the tail of the log, so the names of what failed are repeated at the very end.
const failures = [];

if (!only) stages.push(['typecheck', run('typecheck', 'npm', ['run', 'typecheck'])]);

// Built once, before the tests that read the bundles and the journeys that serve them.
let built = null;
if (!only || only === 'e2e') {
  built = run('build', 'npm', ['run', 'build']);
  stages.push(['build', built]);
}

if (!only || only === 'unit') {
  const ok = run('unit + integration', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
  const r = readJson(vitestJson);
  if (r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    for (const file of r.testResults ?? []) {
      const rel = path.relative(root, file.name);
      const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of failedTests) failures.push(`unit    ${rel} › ${t.fullName ?? t.title}\n          ${errorHead(t.failureMessages?.[0])}`);
      if (file.status === 'failed' && failedTests.length === 0) failures.push(`unit    ${rel} (the file failed: ${errorHead(file.message, 3)})`);
    }
  } else if (!ok) failed += 1;
  stages.push(['unit + integration', ok]);
}

if (!only || only === 'e2e') {
  const ok =
    built &&
    run('browser', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
    });
  const r = readJson(playwrightJson);
  if (r?.stats) {
    passed += r.stats.expected;
    failed += r.stats.unexpected + (r.stats.flaky ?? 0);
    skipped += r.stats.skipped;
    collectPlaywrightFailures(r.suites ?? [], []);
  } else if (!ok) failed += 1;
  stages.push(['browser', ok]);
}

if (failures.length) console.log('\nfailed:\n' + failures.map((f) => '  ' + f).join('\n'));
console.log('\n' + stages.map(([name, ok]) => `${ok ? 'ok  ' : 'FAIL'} ${name}`).join('\n'));
const allOk = stages.every(([, ok]) => ok);
if (!allOk && failed === 0) failed = stages.filter(([, ok]) => !ok).length;
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(allOk ? 0 : 1);
