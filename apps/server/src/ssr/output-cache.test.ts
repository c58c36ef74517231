import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { OutputCache, pageBody, pageGzip, type CacheableRequest } from './output-cache.ts';

const req = (over: Partial<CacheableRequest> = {}): CacheableRequest => ({
  method: 'GET',
  url: '/',
  storeId: 1,
  cookie: 'verdant_age=1; verdant_license=recreational',
  authorization: undefined,
  ...over,
});

const page = (init: ResponseInit & { body?: string } = {}) =>
  new Response(init.body ?? '<html>downtown</html>', {
    status: init.status ?? 200,
    headers: { 'content-type': 'text/html', 'x-output-cache': '60', ...(init.headers as Record<string, string>) },
  });

describe('OutputCache', () => {
  it('keeps a page the route opted into and serves it again', async () => {
    const cache = new OutputCache();
    const admitted = await cache.admit(req(), page());
    expect(pageBody(admitted!, 'n').toString()).toBe('<html>downtown</html>');
    expect(admitted?.headers.map(([n]) => n)).not.toContain('x-output-cache');
    const hit = await cache.lookup(req());
    expect(pageBody(hit!, 'n').toString()).toBe('<html>downtown</html>');
    expect(gunzipSync(pageGzip(hit!, 'n')).toString()).toBe('<html>downtown</html>');
    expect(cache.hits).toBe(1);
  });

  it('never mixes stores, cookies (age gate, licence) or URLs', async () => {
    const cache = new OutputCache();
    await cache.admit(req(), page());
    expect(await cache.lookup(req({ storeId: 2 }))).toBeUndefined();
    expect(await cache.lookup(req({ cookie: 'verdant_age=1; verdant_license=medical' }))).toBeUndefined();
    expect(await cache.lookup(req({ cookie: undefined }))).toBeUndefined();
    expect(await cache.lookup(req({ url: '/terms' }))).toBeUndefined();
  });

  it('keeps nothing the route did not opt into, nor errors, cookies being set, or personal requests', async () => {
    const cache = new OutputCache();
    const plain = new Response('x', { status: 200 });
    expect(await cache.admit(req(), plain)).toBeUndefined();
    expect(await cache.admit(req(), page({ status: 404 }))).toBeUndefined();
    expect(await cache.admit(req(), page({ headers: { 'set-cookie': 'a=1' } }))).toBeUndefined();
    expect(await cache.admit(req({ authorization: 'Bearer t' }), page())).toBeUndefined();
    expect(await cache.admit(req({ method: 'POST' }), page())).toBeUndefined();
    expect(await cache.admit(req({ url: '/?utm=1' }), page())).toBeUndefined();
    expect(await cache.lookup(req())).toBeUndefined();
  });

  it('expires entries after the TTL the route gave', async () => {
    let now = 1_000_000;
    const cache = new OutputCache(() => now);
    await cache.admit(req(), page({ headers: { 'x-output-cache': '10' } }));
    now += 9_000;
    expect(await cache.lookup(req())).toBeDefined();
    now += 2_000;
    expect(await cache.lookup(req())).toBeUndefined();
  });

  it("drops one store's pages on invalidation and keeps the others", async () => {
    const cache = new OutputCache();
    await cache.admit(req({ storeId: 1 }), page());
    await cache.admit(req({ storeId: 2 }), page());
    cache.invalidate(1);
    expect(await cache.lookup(req({ storeId: 1 }))).toBeUndefined();
    expect(await cache.lookup(req({ storeId: 2 }))).toBeDefined();
  });

  it('stamps each answer of a cached page with that answer\'s nonce, plain and gzipped', async () => {
    const cache = new OutputCache();
    const first = randomBytes(16).toString('base64');
    // Nonces at the start, twice in a row, deep in a large body, and at the end.
    const filler = randomBytes(200_000).toString('hex');
    const html = (n: string) => `${n}<script nonce="${n}">a</script><script nonce="${n}"></script>${filler}<p>${n}`;
    await cache.admit(req(), page({ body: html(first) }), first);
    const hit = (await cache.lookup(req()))!;
    for (let i = 0; i < 3; i++) {
      const next = randomBytes(16).toString('base64');
      expect(pageBody(hit, next).toString()).toBe(html(next));
      expect(gunzipSync(pageGzip(hit, next)).toString()).toBe(html(next));
    }
    // Compressed once: the gzip answer is far smaller than the page.
    expect(pageGzip(hit, first).length).toBeLessThan(html(first).length * 0.6);
  });
});
