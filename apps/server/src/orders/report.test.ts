/**
 * The daily report's CSV, both databases (issue 26): a store's own text (a tax line's title) can
 * never reach a cell as a spreadsheet formula.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TaxLineInput } from '@verdant/domain';
import { describeEachDatabase } from '../test/databases.ts';
import { EIGHTH, lifecycleHarness, readyIn, type LifecycleHarness } from './lifecycle/testing.ts';

const SECTION = '/api/console/stores/1/settings/sections/tax';
const EVIL = '=HYPERLINK("http://evil.example/t","tax")';

describeEachDatabase('daily report CSV', (getDb) => {
  let h: LifecycleHarness;
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
  });
  afterAll(async () => h?.app.close());

  const complete = async (id: number, type: 'pickup' | 'delivery') => {
    expect((await h.move(id, { action: 'confirm', readyBy: readyIn(h.clock, 0.5) })).status).toBe(200);
    expect((await h.move(id, { action: type === 'pickup' ? 'mark_ready' : 'send_out' })).status).toBe(200);
    expect((await h.move(id, { action: 'complete', idChecked: true })).status).toBe(200);
  };

  it('escapes a tax line titled like a formula in the header cell', async () => {
    const lines: TaxLineInput[] = [
      { code: 'ca-excise', title: 'CA cannabis excise', kind: 'excise', rate: 15, base: 'price', applies_to: { tax_class_ids: [2] } },
      { code: 'sales', title: EVIL, kind: 'sales', rate: 8.75, base: 'price_plus_earlier', applies_to: { tax_class_ids: [2, 4] } },
    ];
    expect((await h.console('PUT', SECTION, { value: { lines }, version: 0 })).status).toBe(200);
    await h.at('2026-06-15T19:00:00.000Z');
    const o = await h.place({ sku: EIGHTH });
    await complete(o.id, 'pickup');
    const csv = await h.get('/api/console/stores/1/reports/daily.csv?from=2026-06-15&to=2026-06-15');
    expect(csv.status).toBe(200);
    const text = String(csv.body);
    const [header, ...rows] = parse(text) as string[][];
    expect(header.at(-1)).toBe(`'${EVIL} (8.75%)`);
    // No cell of the file starts like a formula, unless it is a plain number.
    for (const cell of [header, ...rows].flat()) {
      if (/^-?\d+(\.\d+)?$/.test(cell)) continue;
      expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
    expect(text).not.toMatch(/(^|,)"?=HYPERLINK/m);
  });
});
