/**
 * An imported menu reaches the storefront: after `importMenu` with the index manager's
 * `catalogChanged` as its `onChanged`, the catalogue API finds the new products by search, with the
 * file's prices, sizes and stock, and a variant taken off the menu leaves the listing — no restart.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../config.ts';
import { hostOf, NOW, seed, loadCatalogues, testApp } from '../../test-support/catalog/test-app.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { importMenu } from './index.ts';

const EXAMPLE = readFileSync(join(REPO_ROOT, 'examples/menu/example-menu.csv'));
const HARBOR = 4;

describeEachDatabase('menu import reaches the catalogue', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    await seed(getDb());
    app = await testApp(getDb());
    await loadCatalogues(app);
  });
  afterAll(async () => app?.close());

  const search = async (text: string) => {
    const res = await app.inject({
      url: `/api/catalog/products?text=${encodeURIComponent(text)}&size=50`,
      headers: { host: hostOf('harbor') },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.items as { sku: string; name: string }[];
  };
  const run = (text: string | Buffer, full = false) =>
    importMenu(getDb().db, {
      storeId: HARBOR,
      source: [text],
      format: 'csv',
      full,
      clock: () => NOW,
      onChanged: (storeId, ids) => app.catalog.catalogChanged(storeId, ids),
    });

  it('finds the imported products by search with their sizes, prices and stock', async () => {
    expect((await search('glacier cake')).map((p) => p.sku)).not.toContain('GLC');
    expect((await run(EXAMPLE)).outcome).toBe('applied');
    expect((await search('glacier cake')).map((p) => p.sku)).toContain('GLC');
    expect((await search('mango chill')).map((p) => p.sku)).toContain('MNG-GUM-10');
    const doc = app.catalog.catalog(HARBOR).productBySku('GLC')!;
    expect(doc.type_id).toBe('configurable');
    expect(doc.configurable_children.map((c) => [c.sku, c.size])).toEqual([
      ['GLC-1G', 91],
      ['GLC-8TH', 92],
    ]);
    const gummy = app.catalog.catalog(HARBOR).productBySku('MNG-GUM-10')!;
    expect(gummy).toMatchObject({ name: 'Mango Chill Gummies 10-pack', brand: 'Sunday Kitchen', license_type: 'recreational' });
  });

  it('a variant set to disabled leaves search at once', async () => {
    const file =
      'external_id,sku,name,category,unit,weight_g,price,stock,status\nPOS-2001,MNG-GUM-10,Mango Chill Gummies 10-pack,Edibles > Gummies,ea,30,22.00,55,disabled\n';
    const r = await run(file);
    expect(r.updated[0].changes).toEqual([{ column: 'status', before: 'active', after: 'disabled' }]);
    expect((await search('mango chill')).map((p) => p.sku)).not.toContain('MNG-GUM-10');
  });
});
