/**
 * The previous release's compiled server (issue 32: rolling deploys), as `npm run release:record`
 * committed it in releases/previous/ (the bundle is committed because CI's clone may have no history
 * to build it from). `previousReleaseEntry()` unpacks it into apps/server/dist-prev/ (gitignored):
 * three directories under the repository root like every server bundle, since config.ts finds the
 * root by its own depth. Start it with the multi-node harness: `startNode(env, port, { entry })`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REPO_ROOT } from '../src/config.ts';

export interface PreviousRelease {
  commit: string;
  subject: string;
  date: string;
  serverSha256: string;
  packageLockSha256: string;
  /** Its migrations by name, in order. */
  migrations: string[];
  /** Whether that release starts on a schema a newer release migrated (db/migrate.ts, issue 32). */
  toleratesNewerSchema: boolean;
}

const RELEASE_DIR = path.join(REPO_ROOT, 'releases/previous');
const DIST = path.join(REPO_ROOT, 'apps/server/dist-prev');

export function previousRelease(): PreviousRelease {
  return JSON.parse(readFileSync(path.join(RELEASE_DIR, 'release.json'), 'utf8')) as PreviousRelease;
}

/** Whether this checkout's package-lock.json is the one the previous release was built with. */
export function sameLockfile(release = previousRelease()): boolean {
  return createHash('sha256').update(readFileSync(path.join(REPO_ROOT, 'package-lock.json'))).digest('hex') === release.packageLockSha256;
}

/** Unpack the bundle (once per content: parallel test files may race, each write is a rename) and return its entry. */
export function previousReleaseEntry(release = previousRelease()): string {
  const server = path.join(DIST, 'server.mjs');
  const main = path.join(DIST, 'main.mjs');
  const current = existsSync(server) ? createHash('sha256').update(readFileSync(server)).digest('hex') : null;
  if (current !== release.serverSha256 || !existsSync(main)) {
    mkdirSync(DIST, { recursive: true });
    const code = gunzipSync(readFileSync(path.join(RELEASE_DIR, 'server.mjs.gz')));
    const got = createHash('sha256').update(code).digest('hex');
    if (got !== release.serverSha256) throw new Error(`releases/previous/server.mjs.gz does not match release.json (sha256 ${got}): run npm run release:record`);
    const tmp = `${server}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, server);
    writeFileSync(`${main}.${process.pid}.tmp`, readFileSync(path.join(RELEASE_DIR, 'main.mjs')));
    renameSync(`${main}.${process.pid}.tmp`, main);
  }
  return main;
}

/** The previous release's server bundle as text (every query of that release names its tables and columns in it). */
export function previousReleaseBundle(release = previousRelease()): string {
  const code = gunzipSync(readFileSync(path.join(RELEASE_DIR, 'server.mjs.gz')));
  if (createHash('sha256').update(code).digest('hex') !== release.serverSha256) throw new Error('releases/previous/server.mjs.gz does not match release.json: run npm run release:record');
  return code.toString('utf8');
}
