/**
 * Integration: the header's and footer's parts from the server's fragment cache (lib/fragment-cache.ts,
 * `layoutFragments`) are the same bytes as the header and footer React renders in full, for every
 * seeded store (both databases, own host and store-code prefix), on every kind of page (each
 * navigation link current or not, NavLink's own rule), and anything the key covers — the open-now
 * line and exceptions (the clock), the hours, the licence, the store's name, the demo flag — renders
 * anew instead of coming back stale.
 */
import type { FastifyInstance } from 'fastify';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { NOW, registry, seed, testApp } from '../../../../server/test-support/catalog/test-app.ts';
import { storefrontHours } from '../../../../server/src/hours/storefront.ts';
import { storefrontOptions } from '../../../../server/src/store-settings/storefront.ts';
import { describeEachDatabase } from '../../../../server/test-support/databases.ts';
import { layoutFragments } from '../../lib/fragment-cache.ts';
import type { RootData } from '../../lib/root-data.ts';
import { toPublicStore } from '../../lib/store-view.ts';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';

/** The page's header and footer as the server renders them: inside React Router, with the root loader's data. */
function renderChrome(root: RootData, path: string): string {
  const router = createMemoryRouter(
    [
      {
        id: 'root',
        path: '*',
        Component: () => (
          <>
            <Header />
            <main />
            <Footer />
          </>
        ),
      },
    ],
    { initialEntries: [path], hydrationData: { loaderData: { root } } },
  );
  return renderToString(<RouterProvider router={router} />);
}

/**
 * Full render, first render with the cache, render from the cache: the three strings, and how many
 * parts the last one took from the cache. `empty`: the cache starts empty (else it keeps what earlier
 * pages put in it, as a server's does).
 */
function threeRenders(root: RootData, path: string, empty = false): { full: string; first: string; fromCache: string; hits: number } {
  layoutFragments.setRenderer(undefined);
  if (empty) layoutFragments.clear();
  const full = renderChrome(root, path);
  layoutFragments.setRenderer(renderToString);
  const first = renderChrome(root, path);
  layoutFragments.flush();
  const hitsBefore = layoutFragments.hits;
  const fromCache = renderChrome(root, path);
  const hits = layoutFragments.hits - hitsBefore;
  layoutFragments.setRenderer(undefined);
  return { full, first, fromCache, hits };
}

// Every navigation link current (and below it), none current, NavLink's edge cases: another case,
// a trailing slash, a path that only starts with a link's letters.
const PATHS = [
  '/',
  '/menu',
  '/menu/flower',
  '/MENU/Flower',
  '/menus',
  '/sale',
  '/sale/',
  '/contact',
  '/p/FL-BLUE-DREAM/blue-dream',
  '/terms',
];

afterEach(() => {
  layoutFragments.setRenderer(undefined);
  layoutFragments.clear();
});

describeEachDatabase('header and footer from the fragment cache', (getDb) => {
  let app: FastifyInstance;
  const roots = new Map<string, RootData>();
  beforeAll(async () => {
    await seed(getDb());
    app = await testApp(getDb());
    for (const store of registry.stores) {
      const publicStore = toPublicStore(
        store,
        await storefrontHours(app.storeSettings, store.storeId, NOW),
        await storefrontOptions(app.storeSettings, store.storeId),
      );
      roots.set(store.storeCode, {
        store: publicStore,
        basePath: '',
        stores: [],
        shopper: { ageConfirmed: true, licenseType: publicStore.licenseTypes[0], licenseChosen: true },
        demoMode: true,
        renderedAt: NOW.toISOString(),
      });
    }
  });
  afterAll(async () => app?.close());

  it('writes every store’s header and footer byte for byte as React renders them in full, on every kind of page', () => {
    let activePages = 0;
    for (const store of registry.stores) {
      for (const basePath of ['', `/${store.storeCode}`]) {
        const root = { ...roots.get(store.storeCode)!, basePath };
        for (const [path, empty] of PATHS.flatMap((p) => [[p, true] as const, [p, false] as const])) {
          const url = basePath && path === '/' ? basePath : `${basePath}${path}`;
          const { full, first, fromCache, hits } = threeRenders(root, url, empty);
          // The real header and footer: the licence, the navigation under the prefix, the open-now line, the footer's links.
          expect(full).toContain(`License <!-- -->${root.store.placeInfo.license_number}`);
          expect(full).toContain(`href="${basePath}/sale" data-discover="true">Sale</a>`);
          expect(full).toContain('data-testid="hours-status-pickup"');
          expect(full).toContain(`href="${basePath}/contact" data-discover="true">Contact us</a>`);
          if (empty && full.includes('aria-current="page"')) activePages++;
          const where = `${store.storeCode} ${url}${empty ? ' (empty cache)' : ''}`;
          expect(first, `${where}: first render`).toBe(full);
          expect(fromCache, `${where}: from the cache`).toBe(full);
          // All three parts (compliance bar, header row, footer) came from the cache.
          expect(hits, where).toBe(3);
        }
      }
    }
    // /menu, /menu/flower, /MENU/Flower, /sale, /sale/, /contact: a current link, in each store and base path.
    expect(activePages).toBe(registry.stores.length * 2 * 6);
  });

  it('renders anew what the key covers: the open-now line and exceptions, hours, licence, name, demo flag', () => {
    const root = roots.get('downtown')!;
    const path = '/menu';
    const { fromCache: before } = threeRenders(root, path);
    const evening = new Date(NOW.getTime() + 10 * 3_600_000).toISOString();
    const holiday = { date: '2026-06-20', label: 'Solstice', order_types: ['pickup' as const], closed: true };
    const changed: { what: string; root: RootData; expect: string }[] = [
      { what: 'another hour', root: { ...root, renderedAt: evening }, expect: 'data-open=' },
      {
        what: 'an exception',
        root: { ...root, store: { ...root.store, hours: { ...root.store.hours, exceptions: [holiday] } } },
        expect: 'Solstice · ',
      },
      {
        what: 'the hours',
        root: {
          ...root,
          store: {
            ...root.store,
            hours: { ...root.store.hours, pickup: { ...root.store.hours.pickup, weekly: root.store.hours.pickup.weekly.slice(1) } },
          },
        },
        expect: '<dl',
      },
      {
        what: 'the licence',
        root: { ...root, store: { ...root.store, placeInfo: { ...root.store.placeInfo, license_number: 'C10-NEW' } } },
        expect: 'C10-NEW',
      },
      { what: 'the name', root: { ...root, store: { ...root.store, name: 'Verdant Midtown' } }, expect: 'Verdant Midtown' },
      { what: 'the demo flag', root: { ...root, demoMode: false }, expect: '</footer>' },
      { what: 'no deals', root: { ...root, store: { ...root.store, specials: [] } }, expect: '</nav>' },
    ];
    for (const c of changed) {
      // The cache still holds the unchanged parts: the changed page must not come from them.
      const { full, first, fromCache } = threeRenders(c.root, path);
      expect(full, c.what).not.toBe(before);
      expect(full, c.what).toContain(c.expect);
      expect(first, `${c.what}: first render`).toBe(full);
      expect(fromCache, `${c.what}: from the cache`).toBe(full);
    }
    // The open-now line in the morning and in the evening (America/Los_Angeles): both judged, not one cached.
    const morning = renderChrome(root, path);
    layoutFragments.setRenderer(renderToString);
    const evenings = renderChrome({ ...root, renderedAt: evening }, path);
    expect(morning).toContain('data-open="false"');
    expect(evenings).toContain('data-open="true"');
  });
});

it('keeps the open-now line’s judgement per minute: the same within a minute, anew at the opening minute', () => {
  // Downtown opens at 9:00 AM (America/Los_Angeles, UTC-7 in June): 16:00 UTC.
  const root = {
    store: {
      storeCode: 'downtown',
      name: 'Verdant Downtown',
      specials: [],
      licenseTypes: ['recreational'],
      purchaseLimits: { recreational: 28.5 },
      money: { currencyCode: 'USD', locale: 'en-US' },
      placeInfo: {
        license_number: 'C10-1',
        timezone: 'America/Los_Angeles',
        phone: '(916) 555-0120',
        email: null,
        address: { street: '120 Market Street', city: 'Sacramento', region: 'California', region_code: 'CA', postcode: '95814' },
      },
      hours: {
        pickup: {
          weekly: [{ day: 'Monday', open: '09:00', close: '21:00' }],
          slots: { length_minutes: 30, lead_minutes: 0, days_ahead: 2 },
        },
        delivery: { weekly: [], slots: { length_minutes: 30, lead_minutes: 0, days_ahead: 2 } },
        exceptions: [],
        outside_hours: 'refuse',
      },
    },
    basePath: '',
    stores: [],
    shopper: { ageConfirmed: true, licenseType: 'recreational', licenseChosen: true },
    demoMode: false,
  } as unknown as RootData;
  const at = (iso: string) => renderChrome({ ...root, renderedAt: iso }, '/');
  const status = (html: string) => /data-testid="hours-status-pickup">([^<]*)</.exec(html)![1];
  // Monday 2026-06-15.
  expect(status(at('2026-06-15T15:59:00.000Z'))).toMatch(/^Closed · opens 9 AM/);
  expect(status(at('2026-06-15T15:59:59.999Z'))).toMatch(/^Closed · opens 9 AM/);
  expect(status(at('2026-06-15T16:00:00.000Z'))).toBe('Open now · closes 9 PM');
  expect(status(at('2026-06-16T03:59:59.999Z'))).toBe('Open now · closes 9 PM');
  expect(status(at('2026-06-16T04:00:00.000Z'))).toMatch(/^Closed/);
});
