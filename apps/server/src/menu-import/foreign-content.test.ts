/**
 * Issue 26, "another store's menu file", by its content, through the console's upload and the
 * integration API's menu rows, on SQLite and PostgreSQL, with the real demo exports: in the demo
 * every store sells the same skus and each item's external id is its sku, so harbor's export made
 * before the `store` column existed matches downtown's items by id and sku — only its content
 * (many new items, most prices different) shows it is another store's. Flagged as the problem
 * `looks_like_another_store`, applied only when the operator insists; downtown's own weekly update
 * (10 % of prices changed, 5 new items, stock counts) is never flagged. The engine's own tests are in
 * menu-import.test.ts, the command line's in cli.test.ts.
 */
import { parse as parseCsvSync } from 'csv-parse/sync';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lifecycleHarness, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { createApiKey } from '../integration/keys.ts';
import { api, menuSnapshot, type Caller } from '../../test-support/integration/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { exportMenuCsv } from './index.ts';

const DOWNTOWN = 1;
const HARBOR = 4;
const FLAGGED =
  /^this file looks like another store's menu: compared with downtown's menu of \d+ items it would add \d+ new items and change the price or name of \d+ of the \d+ items it matches; nothing is applied\. /;

describeEachDatabase("another store's menu by its content (console and integration API)", (getDb) => {
  let h: LifecycleHarness;
  let pos: Caller;
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
    pos = api(h.app, (await createApiKey(h.db, DOWNTOWN, { name: 'Menu sync', scopes: ['menu:write'], createdBy: 'test' }, h.clock.now)).key);
  });
  afterAll(async () => h?.app.close());

  const rowsOf = async (storeId: number) => parseCsvSync(await exportMenuCsv(h.db, storeId), { columns: true }) as Record<string, string>[];
  /** Harbor's real export as it was before the store column: the column gone, nothing else changed. */
  const harborWithoutStore = async () => (await rowsOf(HARBOR)).map(({ store: _s, ...r }) => r);
  const csvOf = (rows: Record<string, string>[]) => {
    const cols = Object.keys(rows[0]);
    return stringifyCsv([cols, ...rows.map((r) => cols.map((c) => r[c] ?? ''))]);
  };
  const upload = async (file: string, query = '') => {
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/console/stores/${DOWNTOWN}/menu/import${query}`,
      headers: { host: 'downtown.localhost', ...h.owner.headers, 'content-type': 'text/csv' },
      payload: file,
    });
    return { status: res.statusCode, body: res.json() };
  };

  /** Downtown's own export with every tenth price a dollar up, every seventh stock recounted, and 5 new items. */
  async function weeklyUpdate() {
    const own = (await rowsOf(DOWNTOWN)).map(({ store: _s, ...r }) => r);
    const week = own.map((r, i) => ({
      ...r,
      ...(i % 10 === 0 ? { price: (Number(r.price) + 1).toFixed(2) } : {}),
      ...(i % 7 === 0 ? { stock: String(Number(r.stock) + 2) } : {}),
    }));
    const template = own.find((r) => r.parent_external_id === '' && r.unit === 'ea')!;
    const fresh = Array.from({ length: 5 }, (_, i) => ({
      ...template,
      external_id: `WEEKLY-${i}`,
      sku: `WEEKLY-${i}`,
      name: `Weekly Arrival ${i}`,
      special_price: '',
      special_from: '',
      special_to: '',
      images: '',
    }));
    return { rows: [...week, ...fresh], repriced: own.filter((_, i) => i % 10 === 0).length };
  }

  it("console upload: harbor's export without its store column is a blocking problem in downtown, applied only with confirmStore=yes", async () => {
    const file = csvOf(await harborWithoutStore());
    const before = await menuSnapshot(h.db, DOWNTOWN);
    const preview = await upload(file);
    expect(preview.status).toBe(200);
    expect(preview.body.result.outcome).toBe('problems');
    expect(preview.body.result.problems).toEqual([expect.objectContaining({ row: 0, code: 'looks_like_another_store' })]);
    expect(preview.body.result.problems[0].reason).toMatch(FLAGGED);
    expect(preview.body.result.problems[0].reason).toContain(`tick "This is downtown's menu" in the console`);
    // Applying the previewed file without insisting writes nothing either.
    const applied = await upload(file, `?apply=${preview.body.result.fileHash}`);
    expect(applied.body.result.outcome).toBe('problems');
    expect(await menuSnapshot(h.db, DOWNTOWN)).toBe(before);
    expect((await upload(file, '?confirmStore=maybe')).status).toBe(400);
    // The operator ticks "This is downtown's menu": the preview plans it, nothing else blocks it.
    const insisted = await upload(file, '?confirmStore=yes');
    expect(insisted.body.result).toMatchObject({ outcome: 'planned', counts: { problems: 0 } });
    expect(insisted.body.result.counts.created).toBeGreaterThan(20);
    expect(await menuSnapshot(h.db, DOWNTOWN)).toBe(before);
  });

  it('console upload: downtown’s own weekly update (10 % prices, 5 new items, stock) is not flagged', async () => {
    const { rows, repriced } = await weeklyUpdate();
    const preview = await upload(csvOf(rows));
    expect(preview.body.result).toMatchObject({ outcome: 'planned', counts: { created: 5, problems: 0 } });
    expect(preview.body.result.counts.updated).toBeGreaterThanOrEqual(repriced);
  });

  it("integration API: harbor's rows without their store column are 422 looks_like_another_store in downtown, applied only with confirm_store: true", async () => {
    const rows = await harborWithoutStore();
    expect(rows.length).toBeLessThanOrEqual(1000);
    const before = await menuSnapshot(h.db, DOWNTOWN);
    for (const [body, idem] of [
      [{ rows }, 'foreign-1'],
      [{ rows, dry_run: true }, 'foreign-2'],
      [{ rows, confirm_store: false }, 'foreign-3'],
    ] as const) {
      const r = await pos.post('/menu/rows', body, idem);
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({ errorCode: 'menu_problems', meta: { outcome: 'problems', problem_count: 1 } });
      expect(r.body.meta.problems).toEqual([expect.objectContaining({ row: 0, code: 'looks_like_another_store' })]);
      expect(r.body.meta.problems[0].reason).toMatch(FLAGGED);
      expect(r.body.meta.problems[0].reason).toContain('confirm_store: true in the integration API');
    }
    expect(await menuSnapshot(h.db, DOWNTOWN)).toBe(before);
    const insisted = await pos.post('/menu/rows', { rows, dry_run: true, confirm_store: true }, 'foreign-4');
    expect(insisted.status).toBe(200);
    expect(insisted.body.result).toMatchObject({ outcome: 'planned', problem_count: 0 });
    expect(insisted.body.result.created.length).toBeGreaterThan(20);
    expect(await menuSnapshot(h.db, DOWNTOWN)).toBe(before);
  });

  it('integration API: downtown’s own weekly update is not flagged and applies; only its changed rows also pass', async () => {
    const { rows, repriced } = await weeklyUpdate();
    const dry = await pos.post('/menu/rows', { rows, dry_run: true }, 'weekly-1');
    expect(dry.status).toBe(200);
    expect(dry.body.result).toMatchObject({ outcome: 'planned', problem_count: 0 });
    expect(dry.body.result.created).toHaveLength(5);
    // A POS that sends only what changed: the repriced rows and the new ones.
    const changedOnly = rows.filter((_, i) => i % 10 === 0 || i >= rows.length - 5);
    expect(changedOnly.length).toBe(repriced + 5);
    const partial = await pos.post('/menu/rows', { rows: changedOnly, dry_run: true }, 'weekly-2');
    expect(partial.body.result).toMatchObject({ outcome: 'planned', problem_count: 0 });
    const applied = await pos.post('/menu/rows', { rows }, 'weekly-3');
    expect(applied.status).toBe(200);
    expect(applied.body.result.outcome).toBe('applied');
  });
});
