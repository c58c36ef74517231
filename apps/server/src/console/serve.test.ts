/**
 * The console is served at /console: its index.html for every page path (never cached), hashed
 * assets immutable, the page security headers, noindex; a clear 503 before it is built.
 * Real Fastify with the real security-headers hook; the build is a temp directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSecurityHeaders } from '../http/security-headers.ts';
import { acceptedEncodings, registerConsole } from './serve.ts';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/console/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';

const CHUNK = `export const menu = ${JSON.stringify('x'.repeat(4000))};`;

async function server(dir: string): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await registerSecurityHeaders(app);
  registerConsole(app, { dir });
  // What the storefront's page handler would answer for anything else.
  app.get('/*', async () => 'storefront');
  return app;
}

describe('console serving', () => {
  let dir: string;
  let built: FastifyInstance;
  let missing: FastifyInstance;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdant-console-dist-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
    fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("console")');
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'not an asset');
    // A chunk with the build's compressed copies beside it (scripts/compress-assets.mjs).
    fs.writeFileSync(path.join(dir, 'assets', 'menu-abc123.js'), CHUNK);
    fs.writeFileSync(path.join(dir, 'assets', 'menu-abc123.js.br'), zlib.brotliCompressSync(CHUNK));
    fs.writeFileSync(path.join(dir, 'assets', 'menu-abc123.js.gz'), zlib.gzipSync(CHUNK));
    built = await server(dir);
    missing = await server(path.join(dir, 'nowhere'));
  });
  afterAll(async () => {
    await built?.close();
    await missing?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(['/console', '/console/', '/console/login', '/console/stores/1/orders/42?tab=all'])(
    'answers index.html for %s, no-store, noindex, page CSP',
    async (url) => {
      const res = await built.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'/);
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    },
  );

  it('serves hashed assets immutable with their type', async () => {
    const res = await built.inject({ method: 'GET', url: '/console/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log("console")');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
  });

  it('sends the brotli or gzip copy the browser accepts, the file itself otherwise (Vary: Accept-Encoding)', async () => {
    const cases: Array<[string | undefined, string | undefined]> = [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
      ['*', 'br'],
      ['identity', undefined],
      [undefined, undefined],
    ];
    for (const [accept, encoding] of cases) {
      const res = await built.inject({
        method: 'GET',
        url: '/console/assets/menu-abc123.js',
        headers: accept === undefined ? {} : { 'accept-encoding': accept },
      });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers.vary, accept).toBe('Accept-Encoding');
      expect(res.headers['content-type'], accept).toBe('text/javascript; charset=utf-8');
      expect(res.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
      const body = res.rawPayload;
      expect(Number(res.headers['content-length']), accept).toBe(body.length);
      const plain = encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;
      expect(plain.toString(), accept).toBe(CHUNK);
      if (encoding) expect(body.length, accept).toBeLessThan(CHUNK.length / 10);
    }
    // A file without compressed copies goes as it is, whatever the browser accepts.
    const plain = await built.inject({ method: 'GET', url: '/console/assets/index-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("console")');
  });

  it('reads Accept-Encoding with its weights', () => {
    expect([...acceptedEncodings('gzip, deflate, br')]).toEqual(['gzip', 'deflate', 'br']);
    expect([...acceptedEncodings('br;q=0, gzip;q=0.001')]).toEqual(['gzip']);
    expect([...acceptedEncodings(' BR ; q=1 ')]).toEqual(['br']);
    expect([...acceptedEncodings('*;q=0')]).toEqual([]);
    expect([...acceptedEncodings('')]).toEqual([]);
    expect([...acceptedEncodings(undefined)]).toEqual([]);
  });

  it('answers 404 (not the app) for a missing asset, and never serves files outside assets', async () => {
    for (const url of [
      '/console/assets/nope.js',
      '/console/assets/..%2Fsecret.txt',
      '/console/assets/.hidden',
      '/console/assets/%2e%2e%2fsecret.txt',
    ]) {
      const res = await built.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('not an asset');
      expect(res.body, url).not.toContain('<div id="root">');
    }
  });

  it('serves the service worker and the web app manifest from the build root, revalidated; nothing else there (issue 29)', async () => {
    fs.writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    fs.writeFileSync(path.join(dir, 'manifest.webmanifest'), '{"name":"Verdant console","scope":"/console/"}');
    const sw = await built.inject({ method: 'GET', url: '/console/sw.js' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.body).toContain('addEventListener');
    const manifest = await built.inject({ method: 'GET', url: '/console/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(JSON.parse(manifest.body)).toEqual({ name: 'Verdant console', scope: '/console/' });
    // A root file the build lacks answers 404, not the app; other root files are not served.
    expect((await built.inject({ method: 'GET', url: '/console/icon-512.png' })).statusCode).toBe(404);
    expect((await built.inject({ method: 'GET', url: '/console/secret.txt' })).body).not.toContain('not an asset');
  });

  it('leaves other paths to the storefront', async () => {
    const res = await built.inject({ method: 'GET', url: '/consoles' });
    expect(res.body).toBe('storefront');
  });

  it('serves a rebuilt index.html without a restart', async () => {
    const rebuilt = INDEX.replace('index-abc123.js', 'index-def456.js');
    const file = path.join(dir, 'index.html');
    fs.writeFileSync(file, rebuilt);
    // A different mtime, even on file systems with coarse timestamps.
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    try {
      expect((await built.inject({ method: 'GET', url: '/console/login' })).body).toBe(rebuilt);
    } finally {
      fs.writeFileSync(file, INDEX);
      fs.utimesSync(file, new Date(), new Date(Date.now() + 10_000));
    }
    expect((await built.inject({ method: 'GET', url: '/console/login' })).body).toBe(INDEX);
  });

  it('answers 503 with a clear message before the console is built', async () => {
    const res = await missing.inject({ method: 'GET', url: '/console/stores/1/orders' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('The store console is not built');
    expect(res.body).toContain('npm run build');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
