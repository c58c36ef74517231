/**
 * Data retention and the document view log (issue 31) through the real app, on SQLite and
 * PostgreSQL: the Oregon preset deletes the image as soon as staff record the decision (the decision
 * stays; the file route answers 410); every fetch of an image by staff is logged (who, role, order),
 * a burst of parallel views keeps each one; the daily job deletes exactly the images past the
 * period, claims a store's day once (a second run the same day skips, two nodes at once run it once),
 * a later run changes nothing already done, and parallel deletions count each image once.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dataRetentionOfPreset, type DataRetention } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { loginCustomer } from '../../test-support/cart/testing.ts';
import { lifecycleHarness, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { accountsOf } from '../auth/context.ts';
import { deleteDueImages } from './images.ts';
import { DATA_RETENTION_SECTION } from './section.ts';
import { storefrontOptions } from '../store-settings/storefront.ts';
import { runRetentionJob, type RetentionJobDeps } from './job.ts';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4];
const DAY = 86_400_000;

function upload(app: FastifyInstance, token: string, kind: 'id' | 'medcard') {
  const boundary = 'RBOUNDARY';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="my-licence.png"\r\nContent-Type: image/png\r\n\r\n`),
    Buffer.from(PNG),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app
    .inject({
      method: 'POST',
      url: `/api/user/upload?kind=${kind}`,
      headers: { host: 'downtown.localhost', authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    })
    .then((r) => {
      if (r.statusCode !== 200) throw new Error(`upload answered ${r.statusCode}: ${r.body}`);
      return r.json().result as { id: number };
    });
}

describeEachDatabase('data retention and the document view log', (getDb) => {
  let h: LifecycleHarness;
  let phone = 9165551100;
  const dataDir = () => accountsOf(h.app).dataDir;
  const uploadRow = (id: number) => h.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const fileExists = async (storedPath: string) => (storedPath ? (await stat(path.join(dataDir(), storedPath)).catch(() => null)) != null : false);
  const review = async (customerId: number, body: Record<string, unknown>) => {
    const answer = await h.console('POST', `/api/console/stores/1/customers/${customerId}/verification`, body);
    expect(answer.status).toBe(200);
    return answer;
  };
  const fileUrl = (customerId: number, uploadId: number, orderId?: number) =>
    `/api/console/stores/1/customers/${customerId}/uploads/${uploadId}${orderId ? `?order=${orderId}` : ''}`;

  async function setRetention(value: DataRetention): Promise<void> {
    const current = (await h.get('/api/console/stores/1/settings/sections/data-retention')).body.result;
    const saved = await h.console('PUT', '/api/console/stores/1/settings/sections/data-retention', { value, version: current.version });
    expect(saved.status).toBe(200);
  }

  async function customerWith(kind: 'id' | 'medcard' | 'both'): Promise<{ customerId: number; token: string; id?: number; medcard?: number }> {
    const c = await loginCustomer(h.app, String(++phone));
    const out: { customerId: number; token: string; id?: number; medcard?: number } = { ...c };
    if (kind !== 'medcard') out.id = (await upload(h.app, c.token, 'id')).id;
    if (kind !== 'id') out.medcard = (await upload(h.app, c.token, 'medcard')).id;
    return out;
  }

  const jobDeps = (node: string, settings?: DataRetention): RetentionJobDeps => ({
    db: h.db,
    dataDir: dataDir(),
    storeIds: [1],
    settingsOf: async (storeId) => settings ?? (await h.app.storeSettings.get(storeId, DATA_RETENTION_SECTION)).value,
    now: () => h.clock.now,
    node,
  });

  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
  });
  afterAll(async () => h?.app.close());

  it('starts from the store’s state preset (the demo store is in California)', async () => {
    const section = (await h.get('/api/console/stores/1/settings/sections/data-retention')).body.result;
    expect(section).toMatchObject({ section: 'data-retention', value: dataRetentionOfPreset('CA') });
    const bad = await h.console('PUT', '/api/console/stores/1/settings/sections/data-retention', { value: { ...dataRetentionOfPreset('OR'), idImageDays: -1 }, version: section.version });
    expect(bad.status).toBe(400);
  });

  it('Oregon: the image is viewed, verified and then gone; the decision and the view stay on record', async () => {
    await setRetention(dataRetentionOfPreset('OR'));
    const c = await customerWith('id');
    const order = await h.place({ type: 'delivery', token: c.token });
    const before = await uploadRow(c.id!);
    expect(await fileExists(before.stored_path)).toBe(true);

    // Staff open the image from the order: it is served and the view is logged.
    const seen = await h.get(fileUrl(c.customerId, c.id!, order.id));
    expect(seen.status).toBe(200);
    expect(seen.headers['cache-control']).toBe('no-store, private');
    // An order of someone else is refused (and logs nothing).
    expect((await h.get(fileUrl(c.customerId, c.id!, 999_999))).status).toBe(404);

    const decided = await review(c.customerId, { document: 'id', decision: 'verified' });
    expect(decided.status).toBe(200);
    const after = await uploadRow(c.id!);
    expect(after).toMatchObject({ stored_path: '', original_name: null, sha256: '', reviewed_at: h.clock.now.toISOString(), purged_at: h.clock.now.toISOString() });
    expect(await fileExists(before.stored_path)).toBe(false);
    const customer = await h.db.selectFrom('customers').select(['id_status', 'id_reviewed_at', 'id_reviewed_by']).where('id', '=', c.customerId).executeTakeFirstOrThrow();
    expect(customer).toMatchObject({ id_status: 'verified', id_reviewed_at: h.clock.now.toISOString() });
    expect(customer.id_reviewed_by).toBe(h.owner.staff.id);

    const gone = await h.get(fileUrl(c.customerId, c.id!, order.id));
    expect(gone).toMatchObject({ status: 410, body: { errorCode: 'upload_deleted' } });
    const detail = (await h.get(`/api/console/stores/1/orders/${order.id}`)).body.result;
    expect(detail.customer.id_status).toBe('verified');
    expect(detail.uploads).toEqual([expect.objectContaining({ id: c.id, deleted_at: h.clock.now.toISOString(), url: fileUrl(c.customerId, c.id!, order.id) })]);

    const views = (await h.get(`/api/console/stores/1/customers/${c.customerId}/document-views`)).body.result;
    expect(views).toEqual([
      {
        id: expect.any(Number),
        viewed_at: h.clock.now.toISOString(),
        document: 'id',
        upload_id: c.id,
        staff: { id: h.owner.staff.id, name: 'Olga Owner', role: 'owner' },
        order: { id: order.id, increment_id: order.increment_id },
      },
    ]);
    // The customer record (issue 31 directory) shows the same: who opened the file, and that it is gone.
    const profile = (await h.get(`/api/console/stores/1/customers/${c.customerId}`)).body.result;
    expect(profile.verification.documents).toEqual([
      expect.objectContaining({ id: c.id, deleted_at: h.clock.now.toISOString(), views: [{ at: h.clock.now.toISOString(), staff_name: 'Olga Owner' }] }),
    ]);
    // The shopper's side: the account page is told what happens to the image, and that it went.
    expect((await storefrontOptions(h.app.storeSettings, 1)).documentImagesNote.id).toBe(
      'The store checks the image of your ID and then deletes it: only the result of the check is kept.',
    );
    const mine = await h.app.inject({ method: 'GET', url: '/api/user/uploads', headers: { host: 'downtown.localhost', authorization: `Bearer ${c.token}` } });
    expect(mine.json().result).toEqual([expect.objectContaining({ id: c.id, kind: 'id', original_name: null, sha256: '', deleted_at: h.clock.now.toISOString() })]);
    // The decision, not the image, is what the job would find: nothing left for it.
    expect(await deleteDueImages(h.db, dataDir(), 1, dataRetentionOfPreset('OR'), h.clock.now)).toEqual({ id: 0, medcard: 0 });
  });

  it('a rejected image is not kept either under Oregon; a store that keeps images keeps it', async () => {
    const c = await customerWith('id');
    await review(c.customerId, { document: 'id', decision: 'rejected', reason: 'Blurred.' });
    expect((await uploadRow(c.id!)).purged_at).not.toBeNull();
    await setRetention(dataRetentionOfPreset('CA'));
    const d = await customerWith('id');
    await review(d.customerId, { document: 'id', decision: 'verified' });
    const kept = await uploadRow(d.id!);
    expect(kept.purged_at).toBeNull();
    expect(await fileExists(kept.stored_path)).toBe(true);
  });

  it('logs every view of a burst of parallel views', async () => {
    const c = await customerWith('id');
    const answers = await Promise.all(Array.from({ length: 25 }, () => h.get(fileUrl(c.customerId, c.id!))));
    expect(answers.map((a) => a.status)).toEqual(Array(25).fill(200));
    const views = (await h.get(`/api/console/stores/1/customers/${c.customerId}/document-views?limit=200`)).body.result;
    expect(views).toHaveLength(25);
    expect(views.every((v: { order: unknown; document: string }) => v.order === null && v.document === 'id')).toBe(true);
    // Another store's staff route cannot read it; a customer of another store is not found.
    expect((await h.get(`/api/console/stores/2/customers/${c.customerId}/document-views`)).status).toBe(404);
  });

  it('the daily job deletes exactly what is due, once per store and day, and a later run changes nothing done', async () => {
    const settings: DataRetention = { ...dataRetentionOfPreset('CA'), idImageDays: 30, medicalCardImageDays: 10 };
    await setRetention({ ...settings, preset: 'custom' });
    const start = h.clock.now.getTime();
    // Images earlier cases decided on are out of the count: deleted before this case starts.
    await deleteDueImages(h.db, dataDir(), 1, { ...settings, idImageDays: 0, medicalCardImageDays: 0 }, new Date(start));
    // a: ID and card decided on day 0; b: ID decided on day 20; c: never decided.
    const a = await customerWith('both');
    const b = await customerWith('id');
    const c = await customerWith('id');
    await review(a.customerId, { document: 'id', decision: 'verified' });
    await review(a.customerId, { document: 'medcard', decision: 'verified', medcardNumber: 'MC-1', medcardExpiry: '2030-01-01' });
    await h.at(new Date(start + 20 * DAY).toISOString());
    await review(b.customerId, { document: 'id', decision: 'verified' });
    const paths = new Map<number, string>();
    for (const id of [a.id!, a.medcard!, b.id!, c.id!]) paths.set(id, (await uploadRow(id)).stored_path);
    const state = async () =>
      Promise.all([a.id!, a.medcard!, b.id!, c.id!].map(async (id) => ({ id, purged: (await uploadRow(id)).purged_at != null, file: await fileExists(paths.get(id)!) })));

    // Day 15: a's card (10 days) is due, nothing else.
    h.clock.now = new Date(start + 15 * DAY);
    const day15 = await runRetentionJob(jobDeps('node-a'));
    expect(day15).toEqual([{ storeId: 1, ran: true, id: 0, medcard: 1, orders: 0 }]);
    // Day 31: a's ID (30 days after day 0); b's (decided day 20) and c's (never decided) stay.
    h.clock.now = new Date(start + 31 * DAY);
    expect(await runRetentionJob(jobDeps('node-a'))).toEqual([{ storeId: 1, ran: true, id: 1, medcard: 0, orders: 0 }]);
    expect(await state()).toEqual([
      { id: a.id, purged: true, file: false },
      { id: a.medcard, purged: true, file: false },
      { id: b.id, purged: false, file: true },
      { id: c.id, purged: false, file: true },
    ]);
    const snapshot = await state();
    // The same day again: the day is claimed, nothing runs.
    expect(await runRetentionJob(jobDeps('node-b'))).toEqual([{ storeId: 1, ran: false, id: 0, medcard: 0, orders: 0 }]);
    // The next day: a run that finds nothing new.
    h.clock.now = new Date(start + 32 * DAY);
    expect(await runRetentionJob(jobDeps('node-b'))).toEqual([{ storeId: 1, ran: true, id: 0, medcard: 0, orders: 0 }]);
    expect(await state()).toEqual(snapshot);

    await h.at(h.clock.now.toISOString());
    const runs = (await h.get('/api/console/stores/1/data-retention/runs')).body.result;
    expect(runs.slice(0, 3)).toEqual([
      expect.objectContaining({ run_date: new Date(start + 32 * DAY).toISOString().slice(0, 10), node: 'node-b', status: 'done', id_images_deleted: 0, medcard_images_deleted: 0, finished_at: expect.any(String) }),
      expect.objectContaining({ run_date: new Date(start + 31 * DAY).toISOString().slice(0, 10), node: 'node-a', status: 'done', id_images_deleted: 1, medcard_images_deleted: 0 }),
      expect.objectContaining({ run_date: new Date(start + 15 * DAY).toISOString().slice(0, 10), node: 'node-a', status: 'done', id_images_deleted: 0, medcard_images_deleted: 1 }),
    ]);

    // Day 51: b's ID is due. Two nodes run at once: one claims the day and deletes it once.
    h.clock.now = new Date(start + 51 * DAY);
    const both = await Promise.all([runRetentionJob(jobDeps('node-a')), runRetentionJob(jobDeps('node-b'))]);
    expect(both.flat().filter((r) => r.ran)).toEqual([{ storeId: 1, ran: true, id: 1, medcard: 0, orders: 0 }]);
    const day51 = await h.db.selectFrom('retention_runs').selectAll().where('store_id', '=', 1).where('run_date', '=', h.clock.now.toISOString().slice(0, 10)).execute();
    expect(day51).toHaveLength(1);
    expect(day51[0]).toMatchObject({ status: 'done' });
    expect(await state()).toEqual([
      { id: a.id, purged: true, file: false },
      { id: a.medcard, purged: true, file: false },
      { id: b.id, purged: true, file: false },
      { id: c.id, purged: false, file: true },
    ]);
  });

  it('parallel deletions (runs that skipped the day lock) count each due image once', async () => {
    const settings: DataRetention = { ...dataRetentionOfPreset('CA'), idImageDays: 1 };
    await h.at(new Date(h.clock.now.getTime() + DAY).toISOString());
    const customers = await Promise.all(Array.from({ length: 6 }, () => customerWith('id')));
    // What earlier cases left due under a 1-day period goes first: this case counts its own six.
    await deleteDueImages(h.db, dataDir(), 1, settings, new Date(h.clock.now.getTime() - 1));
    for (const c of customers) await review(c.customerId, { document: 'id', decision: 'verified' });
    h.clock.now = new Date(h.clock.now.getTime() + 2 * DAY);
    const counts = await Promise.all(Array.from({ length: 5 }, () => deleteDueImages(h.db, dataDir(), 1, settings, h.clock.now)));
    expect(counts.reduce((n, r) => n + r.id, 0)).toBe(6);
    for (const c of customers) expect((await uploadRow(c.id!)).stored_path).toBe('');
  });
});
