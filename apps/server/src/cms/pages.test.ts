import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '@verdant/domain';
import type { StorefrontServices } from '@verdant/web/context';
import { CatalogIndexManager } from '../catalog/index-manager.ts';
import { INACTIVE_PAGE_IDENTIFIER, readStoresFile, seedDemo, STATIC_PAGE_IDENTIFIERS } from '../seed/index.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { cmsPage } from './pages.ts';

const storesFile = readStoresFile(DEMO_STORES_FILE);
const [downtown, eastside] = storesFile.stores;

// The lookup fits the services contract the web app calls.
const _contract: (m: CatalogIndexManager) => StorefrontServices['cmsPage'] = (m) => async (store, id) =>
  cmsPage(m.catalog(store.storeId), id);
void _contract;

describeEachDatabase('cmsPage', (getDb) => {
  let manager: CatalogIndexManager;
  const page = (store: Store, identifier: string) => cmsPage(manager.catalog(store.storeId), identifier);
  beforeAll(async () => {
    const { db, dataDir } = getDb();
    await seedDemo(db, storesFile, { dataDir, referenceDate: new Date('2026-06-15T12:00:00.000Z') });
    manager = new CatalogIndexManager({ db, stores: storesFile.stores });
    await manager.start();
    await Promise.all(storesFile.stores.map((s) => manager.ensure(s.storeId)));
  });
  afterAll(async () => manager?.close());

  it('finds every static page of every store, naming the store', async () => {
    for (const store of storesFile.stores) {
      for (const identifier of STATIC_PAGE_IDENTIFIERS) {
        const found = page(store, identifier);
        expect(found, `${store.storeCode}/${identifier}`).not.toBeNull();
        expect(found!.identifier).toBe(identifier);
        expect(found!.title.length).toBeGreaterThan(0);
        expect(found!.content).toContain(store.name);
        expect(found!.content).not.toMatch(/<[a-z]/i);
        expect(found!.meta_title).toBe(`${found!.title} | ${store.name}`);
        expect(found!.meta_description?.length).toBeGreaterThan(0);
      }
    }
  });

  it('returns exactly the CmsPage fields', async () => {
    const found = page(downtown, 'about-us');
    expect(Object.keys(found!).sort()).toEqual([
      'content',
      'id',
      'identifier',
      'meta_description',
      'meta_title',
      'title',
    ]);
    expect(found).toMatchObject({ identifier: 'about-us', title: 'About us' });
    expect(found!.content.split('\n\n').length).toBeGreaterThan(1);
  });

  it('keeps pages per store', async () => {
    const a = page(downtown, 'contact');
    const b = page(eastside, 'contact');
    expect(a!.id).not.toBe(b!.id);
    expect(b!.content).toContain('Verdant Eastside');
    expect(b!.content).not.toContain('Verdant Downtown');
  });

  it('returns null for unknown, inactive or differently spelled identifiers', async () => {
    expect(page(downtown, 'no-such-page')).toBeNull();
    expect(page(downtown, '')).toBeNull();
    expect(page(downtown, INACTIVE_PAGE_IDENTIFIER)).toBeNull();
    expect(page(downtown, 'About-Us')).toBeNull();
    expect(page(downtown, "about-us' or '1'='1")).toBeNull();
    // A store this deployment does not have has no catalogue at all.
    expect(() => page({ ...downtown, storeId: 99 }, 'about-us')).toThrow(/store 99/);
  });
});
