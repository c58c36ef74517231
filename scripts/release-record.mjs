#!/usr/bin/env node
// `npm run release:record -- [commit]` (default HEAD): record a release as "the previous release"
// that the next one must stay compatible with during a rolling deploy (issue 32,
// docs/developers/migrations.md). Run it when a release is cut, on the release's commit, and commit
// what it writes:
//
//   releases/previous/release.json   the commit, its subject and date, its migrations by name (in
//                                    order), the sha256 of its package-lock.json, whether it starts
//                                    on a schema a newer release migrated
//   releases/previous/server.mjs.gz  its compiled server (its own scripts/build-server.mjs), no source map
//   releases/previous/main.mjs       the bundle's entry (sets NODE_ENV, loads server.mjs)
//
// The bundle is committed, not rebuilt by the tests, because CI's clone may have no history to
// check the release out from. Its npm imports stay imports: it runs against the node_modules of
// the checkout that tests it (the test says so when the lockfiles differ).
//
// How: `git archive <commit>` into a temporary directory, a node_modules there whose entries link
// to this checkout's (except our workspaces, @verdant/*, which link to the release's own sources),
// then the release's own build script.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const OUT = path.join(ROOT, 'releases/previous');

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).trim();

/** Migration names, in order, from a release's apps/server/src/db/migrations/index.ts. */
export function migrationNames(indexSource) {
  const block = /export const MIGRATIONS[^=]*=\s*\{([\s\S]*?)\n\};/.exec(indexSource);
  if (!block) throw new Error('migrations/index.ts: no MIGRATIONS object found');
  return [...block[1].matchAll(/^\s*'(\d{4}_[a-z0-9_]+)':/gm)].map((m) => m[1]);
}

function main() {
  const ref = process.argv[2] ?? 'HEAD';
  if (ref === '--help' || ref === '-h') {
    console.log('Usage: npm run release:record -- [commit]   (default HEAD: the release just cut)');
    return;
  }
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-release-'));
  try {
    execFileSync('sh', ['-c', `git archive --format=tar ${commit} | tar -x -C "${tmp}"`], { cwd: ROOT, stdio: 'inherit' });
    // node_modules: this checkout's packages, but our workspaces from the release's own tree.
    const modules = path.join(tmp, 'node_modules');
    fs.mkdirSync(modules);
    for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
      if (entry === '@verdant') continue;
      fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
    }
    fs.mkdirSync(path.join(modules, '@verdant'));
    for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules/@verdant'))) {
      const target = fs.readlinkSync(path.join(ROOT, 'node_modules/@verdant', entry));
      fs.symlinkSync(target, path.join(modules, '@verdant', entry));
    }
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: tmp, stdio: 'inherit' });
    const dist = path.join(tmp, 'apps/server/dist');
    // No source map: the line that points at it goes too.
    const server = fs.readFileSync(path.join(dist, 'server.mjs'), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
    const names = migrationNames(fs.readFileSync(path.join(tmp, 'apps/server/src/db/migrations/index.ts'), 'utf8'));
    const lock = fs.readFileSync(path.join(tmp, 'package-lock.json'));

    fs.mkdirSync(OUT, { recursive: true });
    // Gzip's header carries no time from Node: the same release gives the same bytes.
    fs.writeFileSync(path.join(OUT, 'server.mjs.gz'), zlib.gzipSync(server, { level: 9 }));
    fs.copyFileSync(path.join(dist, 'main.mjs'), path.join(OUT, 'main.mjs'));
    const release = {
      commit,
      subject: git('log', '-1', '--format=%s', commit),
      date: git('log', '-1', '--format=%cI', commit),
      serverSha256: createHash('sha256').update(server).digest('hex'),
      packageLockSha256: createHash('sha256').update(lock).digest('hex'),
      migrations: names,
      // Releases from issue 32 on start on a schema a newer release migrated (db/migrate.ts says
      // what it did with `newer`); earlier ones stop with Kysely's "corrupted migrations".
      toleratesNewerSchema: /\binterface MigrationReport\b/.test(fs.readFileSync(path.join(tmp, 'apps/server/src/db/migrate.ts'), 'utf8')),
    };
    fs.writeFileSync(path.join(OUT, 'release.json'), `${JSON.stringify(release, null, 2)}\n`);
    const size = fs.statSync(path.join(OUT, 'server.mjs.gz')).size;
    console.log(
      `recorded ${commit.slice(0, 7)} as the previous release: ${names.length} migrations (last ${names.at(-1)}), ` +
        `server bundle ${(server.length / 1024).toFixed(0)} KiB, ${(size / 1024).toFixed(0)} KiB gzipped, in releases/previous/`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${path.resolve(process.argv[1])}`).href) main();
