/** Integration: per-store web app manifest and icons (issue 6: each store installs as its own app). */
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostOf, seed, testApp } from '../../test-support/catalog/test-app.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { initials } from './routes.ts';

describe('initials', () => {
  it('takes the first letters of two words, or two letters of one', () => {
    expect(initials('Verdant Downtown')).toBe('VD');
    expect(initials('Harbor')).toBe('HA');
    expect(initials('  green & leaf co ')).toBe('GL');
  });
});

describeEachDatabase('web app manifest per store', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    await seed(getDb());
    app = await testApp(getDb());
  });
  afterAll(async () => app?.close());

  it("names each store's own app, with its theme colour, scope and icons", async () => {
    const down = await app.inject({ url: '/manifest.webmanifest', headers: { host: hostOf('downtown') } });
    const east = await app.inject({ url: '/manifest.webmanifest', headers: { host: hostOf('eastside') } });
    expect(down.statusCode).toBe(200);
    expect(down.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const d = down.json();
    const e = east.json();
    expect(d).toMatchObject({ id: '/', name: 'Verdant Downtown', start_url: '/', scope: '/', display: 'standalone', theme_color: '#166534' });
    expect(e).toMatchObject({ name: 'Verdant Eastside', theme_color: '#7c2d12' });
    expect(d.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes}/${i.purpose}`)).toEqual(['192x192/any', '512x512/any', '512x512/maskable']);
  });

  it('behind a store-code prefix, the app is scoped to that prefix', async () => {
    const res = await app.inject({ url: '/eastside/manifest.webmanifest', headers: { host: 'localhost:3000' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Verdant Eastside', id: '/eastside/', start_url: '/eastside/', scope: '/eastside/' });
    expect(res.json().icons[0].src).toBe('/eastside/pwa-icons/192.png');
    const icon = await app.inject({ url: '/eastside/pwa-icons/192.png', headers: { host: 'localhost:3000' } });
    expect(icon.statusCode).toBe(200);
  });

  it('serves real PNG icons of the stated sizes, in the store colour; unknown names are 404', async () => {
    for (const [name, size] of [['192.png', 192], ['512.png', 512], ['maskable-512.png', 512]] as const) {
      const res = await app.inject({ url: `/pwa-icons/${name}`, headers: { host: hostOf('eastside') } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', size, size]);
      // A corner pixel of the maskable icon is the store's theme colour #7c2d12.
      if (name.startsWith('maskable')) {
        const { data } = await sharp(res.rawPayload).extract({ left: 2, top: 2, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
        expect([...data.subarray(0, 3)]).toEqual([0x7c, 0x2d, 0x12]);
      }
    }
    expect((await app.inject({ url: '/pwa-icons/64.png', headers: { host: hostOf('eastside') } })).statusCode).toBe(404);
  });
});
