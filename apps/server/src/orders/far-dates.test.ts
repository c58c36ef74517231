/**
 * Far and false dates on the console's order routes, both databases (issue 26: `from=9999-12-31`
 * answered 500 "Invalid time value"; a ready-by in year 275760 was accepted): every date is a
 * 400 with a message, nothing is written, and the bounds themselves still work.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DATE_MESSAGES } from '@verdant/domain/console-api';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { LIFECYCLE_MESSAGES } from '@verdant/domain';
import { lifecycleHarness, readyIn, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';

const FAR = ['9999-12-31', '0000-01-01', '1999-12-31', '2100-01-01', '+275760-09-13', '275760-09-13'];
const FALSE = ['2026-02-30', '2026-13-01', '2026-6-1', 'yesterday', ''];

describeEachDatabase('far dates on the console order routes', (getDb) => {
  let h: LifecycleHarness;
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
  });
  afterAll(async () => h?.app.close());

  it('answers 400 with a message for a far or false date on the queue and the daily reports', async () => {
    const urls = (d: string) => [
      `/api/console/stores/1/orders?from=${encodeURIComponent(d)}`,
      `/api/console/stores/1/orders?to=${encodeURIComponent(d)}`,
      `/api/console/stores/1/reports/daily?from=${encodeURIComponent(d)}&to=${encodeURIComponent(d)}`,
      `/api/console/stores/1/reports/daily?from=2026-06-01&to=${encodeURIComponent(d)}`,
      `/api/console/stores/1/reports/daily.csv?from=${encodeURIComponent(d)}&to=${encodeURIComponent(d)}`,
    ];
    for (const d of [...FAR, ...FALSE]) {
      for (const url of urls(d)) {
        const r = await h.get(url);
        expect(r.status, `${url} → ${JSON.stringify(r.body)}`).toBe(400);
        const message = typeof r.body === 'string' ? JSON.parse(r.body).result : r.body.result;
        // The field and what is wrong with it.
        expect(Object.values(DATE_MESSAGES).flatMap((m) => [`from: ${m}`, `to: ${m}`]), url).toContain(message);
      }
    }
    expect((await h.get('/api/console/stores/1/reports/daily?from=9999-12-31&to=9999-12-31')).body.result).toBe(
      'from: Dates must be between 2000-01-01 and 2099-12-31.',
    );
    expect((await h.get('/api/console/stores/1/orders?to=2026-02-30')).body.result).toBe(`to: ${DATE_MESSAGES.notADate}`);
    // The bounds themselves are dates the routes take.
    expect((await h.get('/api/console/stores/1/orders?from=2000-01-01&to=2099-12-31')).status).toBe(200);
    expect((await h.get('/api/console/stores/1/reports/daily?from=2099-12-01&to=2099-12-31')).status).toBe(200);
    expect((await h.get('/api/console/stores/1/reports/daily.csv?from=2000-01-01&to=2000-01-31')).status).toBe(200);
  });

  it('refuses a ready-by past the next 7 days (year 275760 too) and keeps the order as it was', async () => {
    const o = await h.place();
    for (const readyBy of ['+275760-09-13T00:00:00.000Z', '9999-12-31T23:59:00.000Z', readyIn(h.clock, 7 * 24 + 1)]) {
      const r = await h.move(o.id, { action: 'confirm', readyBy, confirmClosed: true });
      expect(r.status, readyBy).toBe(400);
      expect(r.body.result).toBe(LIFECYCLE_MESSAGES.readyByTooFar);
    }
    const row = await h.db.selectFrom('orders').select(['status', 'ready_by', 'version']).where('id', '=', o.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'submitted', ready_by: null });
    // A medical card expiry is a bounded date too.
    const r = await h.console('POST', '/api/console/stores/1/customers/1/verification', {
      document: 'medcard',
      decision: 'verified',
      medcardExpiry: '9999-12-31',
    });
    expect(r.status).toBe(400);
    expect(r.body.result).toBe(`medcardExpiry: ${DATE_MESSAGES.range}`);
  });
});
