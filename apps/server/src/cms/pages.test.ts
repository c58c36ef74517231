import { beforeAll, expect, it } from 'vitest';
import type { StorefrontServices } from '@verdant/web/context';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { INACTIVE_PAGE_IDENTIFIER, readStoresFile, seedDemo, STATIC_PAGE_IDENTIFIERS } from '../seed/index.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { cmsPage } from './pages.ts';

const storesFile = readStoresFile(DEMO_STORES_FILE);
const [downtown, eastside] = storesFile.stores;

// The query function fits the services contract the web app calls.
const _contract: (db: Kysely<Database>) => StorefrontServices['cmsPage'] = (db) => (store, id) =>
  cmsPage(db, store, id);
void _contract;

describeEachDatabase('cmsPage', (getDb) => {
  beforeAll(async () => {
    const { db, dataDir } = getDb();
    await seedDemo(db, storesFile, { dataDir, referenceDate: new Date('2026-06-15T12:00:00.000Z') });
  });

  it('finds every static page of every store, naming the store', async () => {
    const { db } = getDb();
    for (const store of storesFile.stores) {
      for (const identifier of STATIC_PAGE_IDENTIFIERS) {
        const page = await cmsPage(db, store, identifier);
        expect(page, `${store.storeCode}/${identifier}`).not.toBeNull();
        expect(page!.identifier).toBe(identifier);
        expect(page!.title.length).toBeGreaterThan(0);
        expect(page!.content).toContain(store.name);
        expect(page!.content).not.toMatch(/<[a-z]/i);
        expect(page!.meta_title).toBe(`${page!.title} | ${store.name}`);
        expect(page!.meta_description?.length).toBeGreaterThan(0);
      }
    }
  });

  it('returns exactly the CmsPage fields', async () => {
    const page = await cmsPage(getDb().db, downtown, 'about-us');
    expect(Object.keys(page!).sort()).toEqual([
      'content',
      'id',
      'identifier',
      'meta_description',
      'meta_title',
      'title',
    ]);
    expect(page).toMatchObject({ identifier: 'about-us', title: 'About us' });
    expect(page!.content.split('\n\n').length).toBeGreaterThan(1);
  });

  it('keeps pages per store', async () => {
    const { db } = getDb();
    const a = await cmsPage(db, downtown, 'contact');
    const b = await cmsPage(db, eastside, 'contact');
    expect(a!.id).not.toBe(b!.id);
    expect(b!.content).toContain('Verdant Eastside');
    expect(b!.content).not.toContain('Verdant Downtown');
  });

  it('returns null for unknown, inactive or differently spelled identifiers', async () => {
    const { db } = getDb();
    expect(await cmsPage(db, downtown, 'no-such-page')).toBeNull();
    expect(await cmsPage(db, downtown, '')).toBeNull();
    expect(await cmsPage(db, downtown, INACTIVE_PAGE_IDENTIFIER)).toBeNull();
    expect(await cmsPage(db, downtown, 'About-Us')).toBeNull();
    expect(await cmsPage(db, downtown, "about-us' or '1'='1")).toBeNull();
    expect(await cmsPage(db, { ...downtown, storeId: 99 }, 'about-us')).toBeNull();
  });
});
