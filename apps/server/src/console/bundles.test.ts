/**
 * Shoppers never download staff code, and the console carries none of the storefront: the built
 * storefront (apps/web/build/client) holds no trace of the console (its marker string, its API
 * paths, its source files) and the console's build (apps/console/dist, module list written by its
 * vite config) holds no storefront module. Runs on the real builds: skipped when they are absent,
 * failing instead under CI=true (CI builds before testing).
 */
import fs from 'node:fs';
import path from 'node:path';
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

describe.skipIf(!built && !ci)(`bundle separation${built ? '' : ' (skipped: run npm run build first)'}`, () => {
  it('the builds exist (CI builds before testing)', () => {
    expect(fs.existsSync(path.join(WEB_CLIENT, 'assets')), `${WEB_CLIENT} is missing: run npm run build`).toBe(true);
    expect(fs.existsSync(path.join(CONSOLE_DIST_DIR, 'modules.json')), `${CONSOLE_DIST_DIR} is missing: run npm run build`).toBe(true);
  });

  it('the console bundle carries its marker (so its absence elsewhere means something)', () => {
    const assets = textFiles(path.join(CONSOLE_DIST_DIR, 'assets')).filter((f) => f.endsWith('.js'));
    expect(assets.length).toBeGreaterThan(0);
    expect(assets.some((f) => fs.readFileSync(f, 'utf8').includes(CONSOLE_BUNDLE_MARKER))).toBe(true);
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
