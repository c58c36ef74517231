/**
 * Integration: GET /img/:width/:height/* through buildApp — the three sizes of spec §9 as WebP or
 * PNG, the placeholder for no image, refused sizes and paths, and the on-disk cache.
 */
import { existsSync, mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../test-support/catalog/test-app.ts';
import { createTestDatabase, type OwnedTestDatabase } from '../../test-support/databases.ts';

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600"><rect width="600" height="600" fill="#22c55e"/></svg>';

describe('product images', () => {
  let t: OwnedTestDatabase;
  let app: FastifyInstance;
  const get = (url: string, accept = 'image/avif,image/webp,*/*') => app.inject({ url, headers: { accept } });

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    const dir = path.join(t.dataDir, 'media', 'catalog', 'product');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'TEST.svg'), SVG);
    writeFileSync(path.join(t.dataDir, 'secret.txt'), 'not an image');
    app = await testApp(t);
  });
  afterAll(async () => {
    await app?.close();
    await t?.cleanup();
  });

  it.each([
    [310, 300],
    [600, 744],
    [150, 150],
  ])('renders %ix%i as WebP with long cache headers', async (width, height) => {
    const res = await get(`/img/${width}/${height}/catalog/product/TEST.svg`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=2592000');
    expect(res.headers.vary).toBe('Accept');
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', width, height]);
  });

  it('answers PNG to clients that do not take WebP', async () => {
    const res = await get('/img/150/150/catalog/product/TEST.svg', 'image/png,image/*');
    expect(res.headers['content-type']).toBe('image/png');
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 150, 150]);
  });

  it('serves the placeholder for no_selection and for missing files, briefly cached', async () => {
    for (const url of ['/img/310/300/no_selection', '/img/310/300/catalog/product/MISSING.svg']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 310, 300]);
    }
  });

  it('refuses other sizes and paths that leave the media directory', async () => {
    for (const url of [
      '/img/300/300/catalog/product/TEST.svg',
      '/img/310/301/x.svg',
      '/img/abc/300/x.svg',
      '/img/99999/300/x.svg',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ code: 400, result: 'Image size must be one of 310x300, 600x744, 150x150' });
    }
    // Encoded separators reach the route and are refused there.
    for (const url of [
      '/img/310/300/..%2Fsecret.txt',
      '/img/310/300/catalog%2F..%2F..%2Fsecret.txt',
      '/img/310/300/catalog%5C..%5C..%5Csecret.txt',
    ]) {
      const res = await get(url);
      expect(res.json(), url).toEqual({ code: 400, result: 'Invalid image path' });
    }
    // Dot segments are resolved by the router first, so these never name an image at all.
    for (const url of ['/img/310/300/%2e%2e/%2e%2e/secret.txt', '/img/310/300/catalog/../../../secret.txt']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('not an image');
    }
  });

  it('caches renders on disk and renders again when the source changes', async () => {
    const cached = path.join(t.dataDir, 'cache', 'img', '600x744', 'catalog', 'product', 'TEST.svg.webp');
    const first = await get('/img/600/744/catalog/product/TEST.svg');
    expect(existsSync(cached)).toBe(true);
    const written = statSync(cached).mtimeMs;
    const again = await get('/img/600/744/catalog/product/TEST.svg');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(statSync(cached).mtimeMs).toBe(written);
    const source = path.join(t.dataDir, 'media', 'catalog', 'product', 'TEST.svg');
    writeFileSync(source, SVG.replace('#22c55e', '#7c3aed'));
    const later = new Date(Date.now() + 5000);
    utimesSync(source, later, later);
    const changed = await get('/img/600/744/catalog/product/TEST.svg');
    expect(changed.rawPayload.equals(first.rawPayload)).toBe(false);
    expect(existsSync(path.join(t.dataDir, 'cache', 'img', '310x300', '__placeholder__.webp'))).toBe(true);
  });

  it('renders an image once for concurrent requests', async () => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => get('/img/150/150/catalog/product/TEST.svg', 'image/webp')),
    );
    expect(responses.every((r) => r.statusCode === 200 && r.rawPayload.equals(responses[0].rawPayload))).toBe(true);
  });
});
