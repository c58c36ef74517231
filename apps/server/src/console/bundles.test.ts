/**
 * Shoppers never download staff code, and the console carries none of the storefront: the built
 * storefront (apps/web/build/client) holds no trace of the console (its marker string, its API
 * paths, its source files) and the console's build (apps/console/dist, module list written by its
 * vite config) holds no storefront module. Runs on the real builds: skipped when they are absent,
 * failing instead under CI=true (CI builds before testing).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CONSOLE_BUNDLE_MARKER } from '../../../console/src/marker.ts';
import { REPO_ROOT } from '../config.ts';
import { CONSOLE_DIST_DIR } from './serve.ts';

const WEB_CLIENT = path.join(REPO_ROOT, 'apps/web/build/client');
const built = fs.existsSync(path.join(WEB_CLIENT, 'assets')) && fs.existsSync(path.join(CONSOLE_DIST_DIR, 'modules.json'));
const ci = process.env.CI === 'true';

/** Every text file of a build (the .br/.gz copies are the same bytes compressed). */
function textFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(js|mjs|css|html|json|webmanifest|map)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

/** The console's entry script, as its index.html loads it (`assets/index-….js`). */
function consoleEntry(): string {
  const html = fs.readFileSync(path.join(CONSOLE_DIST_DIR, 'index.html'), 'utf8');
  const src = /<script type="module"[^>]* src="\/console\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(src, 'index.html names no module script').toBeTruthy();
  return src!;
}

describe.skipIf(!built && !ci)(`bundle separation${built ? '' : ' (skipped: run npm run build first)'}`, () => {
  it('the builds exist (CI builds before testing)', () => {
    expect(fs.existsSync(path.join(WEB_CLIENT, 'assets')), `${WEB_CLIENT} is missing: run npm run build`).toBe(true);
    expect(fs.existsSync(path.join(CONSOLE_DIST_DIR, 'modules.json')), `${CONSOLE_DIST_DIR} is missing: run npm run build`).toBe(true);
  });

  it('the console bundle carries its marker (so its absence elsewhere means something)', () => {
    const assets = textFiles(path.join(CONSOLE_DIST_DIR, 'assets')).filter((f) => f.endsWith('.js'));
    expect(assets.length).toBeGreaterThan(0);
    // In the entry the page loads (main.tsx sets it), not only in some lazy page's chunk.
    const entry = consoleEntry();
    expect(fs.readFileSync(path.join(CONSOLE_DIST_DIR, entry), 'utf8')).toContain(CONSOLE_BUNDLE_MARKER);
  });

  it('no shopper file is or names a console chunk (the lazy pages carry no marker of their own)', () => {
    const consoleChunks = fs.readdirSync(path.join(CONSOLE_DIST_DIR, 'assets')).filter((f) => f.endsWith('.js'));
    expect(consoleChunks.length).toBeGreaterThan(1);
    const digest = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
    const consoleDigests = new Set(consoleChunks.map((f) => digest(path.join(CONSOLE_DIST_DIR, 'assets', f))));
    const offending = textFiles(WEB_CLIENT).filter((f) => {
      if (consoleDigests.has(digest(f))) return true;
      const text = fs.readFileSync(f, 'utf8');
      return consoleChunks.some((chunk) => text.includes(chunk));
    });
    expect(offending.map((f) => path.relative(REPO_ROOT, f))).toEqual([]);
  });

  it('no shopper file holds console code: no marker, no console API path, no apps/console source', () => {
    const files = textFiles(WEB_CLIENT);
    expect(files.length).toBeGreaterThan(10);
    const offending = files.filter((f) => {
      const text = fs.readFileSync(f, 'utf8');
      return text.includes(CONSOLE_BUNDLE_MARKER) || text.includes('/api/console') || text.includes('apps/console/');
    });
    expect(offending.map((f) => path.relative(REPO_ROOT, f))).toEqual([]);
  });

  it('no shopper file loads zod: the settings schemas (domain */schema.ts) stay on the server and in the console', () => {
    // Issue 14 put schema and rules of hours, tax and age in one module each, and zod came into every page's chunk.
    const offending = textFiles(WEB_CLIENT).filter((f) => f.endsWith('.js') && fs.readFileSync(f, 'utf8').includes('ZodError'));
    expect(offending.map((f) => path.relative(REPO_ROOT, f))).toEqual([]);
  });

  it('the console bundle holds no storefront module (no apps/web source, so none of its route modules)', () => {
    const modules = JSON.parse(fs.readFileSync(path.join(CONSOLE_DIST_DIR, 'modules.json'), 'utf8')) as string[];
    expect(modules).toContain('apps/console/src/main.tsx');
    expect(modules.filter((m) => m.startsWith('apps/web/'))).toEqual([]);
    // And by content: no storefront route chunk's file name (React Router's route modules) appears in the console's files.
    const routeNames = fs.readdirSync(path.join(REPO_ROOT, 'apps/web/app/routes')).map((f) => f.replace(/\.tsx?$/, ''));
    const webChunks = fs
      .readdirSync(path.join(WEB_CLIENT, 'assets'))
      .filter((f) => routeNames.some((r) => f.startsWith(`${r}-`)) && f.endsWith('.js'));
    expect(webChunks.length).toBeGreaterThan(0);
    const consoleText = textFiles(CONSOLE_DIST_DIR)
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    expect(webChunks.filter((chunk) => consoleText.includes(chunk))).toEqual([]);
  });
});

/** The console split by route (issue 27): what a tablet or phone at the counter loads before it shows the order queue. */
describe.skipIf(!built && !ci)(`console code splitting${built ? '' : ' (skipped: run npm run build first)'}`, () => {
  type Chunk = { file: string; entry: boolean; modules: string[] };
  const chunks = () => JSON.parse(fs.readFileSync(path.join(CONSOLE_DIST_DIR, 'chunks.json'), 'utf8')) as Chunk[];

  it('the entry holds the shell, sign-in and the order queue; every other page is a chunk loaded when needed', () => {
    const all = chunks();
    const entry = all.filter((c) => c.entry);
    expect(entry.map((c) => `assets/${path.basename(c.file)}`)).toEqual([consoleEntry()]);
    const eager = entry[0]!.modules;
    for (const m of ['main.tsx', 'routes/layout.tsx', 'routes/login.tsx', 'routes/queue.tsx'])
      expect(eager).toContain(`apps/console/src/${m}`);
    // index.html preloads nothing else: the queue needs one script.
    const html = fs.readFileSync(path.join(CONSOLE_DIST_DIR, 'index.html'), 'utf8');
    expect(html).not.toContain('modulepreload');
    // Each page main.tsx loads lazily is in a chunk of its own, none in the entry.
    const main = fs.readFileSync(path.join(REPO_ROOT, 'apps/console/src/main.tsx'), 'utf8');
    const pages = [...main.matchAll(/import\('\.\/(routes\/[\w-]+\.tsx)'\)/g)].map((m) => `apps/console/src/${m[1]}`);
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.filter((m) => eager.includes(m))).toEqual([]);
    const lazy = all.filter((c) => !c.entry).flatMap((c) => c.modules);
    expect(pages.filter((m) => !lazy.includes(m))).toEqual([]);
    // zod (the settings forms' schemas) never loads for the queue.
    expect(eager.filter((m) => m.includes('node_modules/zod/'))).toEqual([]);
  });

  it('the entry stays small: under 125 KiB gzip (the whole console was one 171 KiB file before the split)', () => {
    const gzip = zlib.gzipSync(fs.readFileSync(path.join(CONSOLE_DIST_DIR, consoleEntry())), { level: 9 }).length;
    expect(gzip / 1024).toBeLessThan(125);
  });
});
