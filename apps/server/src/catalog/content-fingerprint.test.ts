/**
 * Integration, both databases: the compact catalogue (issue 15: interned strings, packed
 * postings, slim sellable records) holds exactly the data it held before. `StoreCatalog.content()` (the offline snapshot's source) is serialised byte for byte —
 * keys in their order, every value — and compared with the SHA-256 of the same serialisation made
 * by the code before the change (main at b6d2f0c) over the same seed, for every demo store; and
 * searches and lookups over the catalogue answer as a catalogue rebuilt from plain, unshared copies
 * of the same documents does.
 *
 * If the demo seed or the document shape changes on purpose, the fingerprints change with it:
 * print the new ones with FINGERPRINT_PRINT=1 on the code before the change and paste them below.
 */
import { createHash } from 'node:crypto';
import { createAttributeIndex, productSearchQuery } from '@verdant/search';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { CatalogIndexManager } from './index-manager.ts';
import { StoreCatalog } from './store-catalog.ts';
import { NOW, seed, storesFile } from '../../test-support/catalog/test-app.ts';
import { DEMO_COA_URL } from '../seed/assortment.ts';

/** sha256 of JSON.stringify(content()) per demo store, made by main at b6d2f0c (the same on both databases). */
const MAIN_FINGERPRINTS: Record<number, string> = {
  1: 'de56b2a012b57f7f5431ad2c408ad1940026584a56df4b2160bcf5777804a4b8',
  2: 'bafb44c3ed5a7d1d2258ba8f9ea4e9b025cedc6a52dce7879ffaa2d4c7d19b1a',
  3: '99dfa1322103724c98e3375e96aaa571e148e31bf943e8082a7a2d58dae5cdad',
  4: '02d83537c79dc2d3896d1ba1bd8c7a235ab27ccd66a81ea042574e0f85452cac',
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The content without the lab facts the demo seed gives its flower since issue 30 (seed/assortment.ts
 * demoLabFacts; the fingerprints above predate them): the rest must still be main's bytes.
 */
function withoutDemoLabFacts(content: ReturnType<StoreCatalog['content']>): unknown {
  return {
    ...content,
    products: content.products.map((p) => {
      if (p.coa_url !== DEMO_COA_URL) return p;
      const { lab_tested_at: _t, batch_number: _b, coa_url: _c, ...rest } = p;
      return rest;
    }),
  };
}

describeEachDatabase('catalogue content is unchanged by the compact form', (getDb) => {
  let manager: CatalogIndexManager;

  beforeAll(async () => {
    await seed(getDb());
    manager = new CatalogIndexManager({ db: getDb().db, stores: storesFile.stores, clock: () => NOW });
    await manager.start();
    for (const s of storesFile.stores) await manager.ensure(s.storeId);
  });
  afterAll(async () => manager?.close());

  it("content() serialises to exactly main's bytes, for every store", () => {
    const fingerprints = Object.fromEntries(
      storesFile.stores.map((s) => [s.storeId, sha256(JSON.stringify(withoutDemoLabFacts(manager.catalog(s.storeId).content())))]),
    );
    if (process.env.FINGERPRINT_PRINT === '1') console.log(JSON.stringify(fingerprints, null, 2));
    expect(fingerprints).toEqual(MAIN_FINGERPRINTS);
  });

  it('the demo flower carries lab facts, the only change of the seed since those bytes', () => {
    const flower = manager.catalog(1).productBySku('FL-BLUE-DREAM')!;
    expect(flower).toMatchObject({ coa_url: DEMO_COA_URL, batch_number: expect.stringMatching(/^B-\d{4}-\d{2}$/), lab_tested_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
  });

  it('searches and lookups answer as over plain copies of the documents', () => {
    for (const s of storesFile.stores) {
      const compact = manager.catalog(s.storeId);
      const content = compact.content();
      const plain = new StoreCatalog(s.storeId, createAttributeIndex(), JSON.parse(JSON.stringify(content)), {
        listOutOfStock: s.catalog.listOutOfStockProducts,
      });
      for (const text of [undefined, 'blue', 'dream', 'gummies', 'og kush', 'vape cart', 'pre roll', 'flowr']) {
        for (const licenseType of ['recreational', 'medical'] as const) {
          const query = productSearchQuery({ storeId: s.storeId, licenseType, text, size: 50 });
          const a = compact.products.search(query, { now: NOW });
          const b = plain.products.search(query, { now: NOW });
          expect(JSON.stringify(a), `${s.storeCode} ${text ?? '(no text)'} ${licenseType}`).toBe(JSON.stringify(b));
        }
      }
      for (const p of content.products) {
        expect(JSON.stringify(compact.productBySku(p.sku))).toBe(JSON.stringify(plain.productBySku(p.sku)));
        for (const c of p.configurable_children) expect(compact.parentOfChild(c.sku)?.id).toBe(plain.parentOfChild(c.sku)?.id);
      }
      expect(JSON.stringify([...compact.allCategories()])).toBe(JSON.stringify([...plain.allCategories()]));
    }
  });
});
