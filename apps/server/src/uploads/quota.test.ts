import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { commerceApp } from '../../test-support/cart/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { UPLOADS_PER_HOUR } from './routes.ts';

const HOST = 'downtown.localhost';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(1024 * 1024)]);

async function customerToken(app: FastifyInstance, phone: string): Promise<{ token: string; id: number }> {
  const post = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/user/login', headers: { host: HOST }, payload }).then((r) => r.json());
  const code = (await post({ phone })).meta.demo_code;
  const confirmed = await post({ phone, code });
  const done = await post({ phone, license_type: 'recreational', birthday: '1990-01-01', pendingToken: confirmed.meta.pendingToken });
  return { token: done.meta.token, id: done.meta.customer_id };
}

function upload(app: FastifyInstance, token: string, kind: string, marker: number) {
  const boundary = 'QBOUNDARY';
  const bytes = Buffer.from(PNG);
  bytes.writeUInt32BE(marker, 8); // each file distinct
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="card.png"\r\nContent-Type: image/png\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app.inject({
    method: 'POST',
    url: `/api/user/upload?kind=${kind}`,
    headers: { host: HOST, authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

describeEachDatabase('upload quota', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await commerceApp(getDb());
  });
  afterAll(async () => app?.close());

  const filesOf = async (customerId: number) => (await readdir(path.join(getDb().dataDir, 'private', 'uploads', String(customerId)))).sort();
  const rowsOf = (customerId: number) =>
    getDb().db.selectFrom('uploads').select(['id', 'kind', 'stored_path', 'sha256']).where('customer_id', '=', customerId).orderBy('id').execute();

  it('keeps only the latest ID and medical card, and refuses uploads beyond the hourly quota', async () => {
    const { token, id } = await customerToken(app, '9165550301');
    const answers: { status: number; body: any; retryAfter: unknown }[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await upload(app, token, i % 2 ? 'medcard' : 'id', i);
      answers.push({ status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'] });
    }
    expect(answers.slice(0, UPLOADS_PER_HOUR).map((a) => a.status)).toEqual(Array(UPLOADS_PER_HOUR).fill(200));
    for (const refused of answers.slice(UPLOADS_PER_HOUR)) {
      expect(refused.body).toEqual({ code: 429, result: 'Too many uploads. Please try again later.' });
      expect(refused.retryAfter).toBe('3600');
    }

    const lastId = answers[UPLOADS_PER_HOUR - 2].body.result;
    const lastMedcard = answers[UPLOADS_PER_HOUR - 1].body.result;
    const rows = await rowsOf(id);
    expect(rows.map((r) => [r.id, r.kind, r.sha256])).toEqual([
      [lastId.id, 'id', lastId.sha256],
      [lastMedcard.id, 'medcard', lastMedcard.sha256],
    ]);
    // On disk: exactly the two files the rows point at, the replaced ones deleted.
    expect(await filesOf(id)).toEqual(rows.map((r) => path.basename(r.stored_path)).sort());
    const listed = (await app.inject({ method: 'GET', url: '/api/user/uploads', headers: { host: HOST, authorization: `Bearer ${token}` } })).json();
    expect(listed.result.map((r: { id: number }) => r.id).sort()).toEqual([lastId.id, lastMedcard.id].sort());
  });

  it('keeps exactly one file of a kind when 4 uploads of it arrive at once', async () => {
    const { token, id } = await customerToken(app, '9165550302');
    const answers = await Promise.all([0, 1, 2, 3].map((i) => upload(app, token, 'id', 100 + i)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    const rows = await rowsOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe(Math.max(...answers.map((a) => a.json().result.id)));
    expect(await filesOf(id)).toEqual([path.basename(rows[0].stored_path)]);
  });
});
