/**
 * Issue 26: a number past 2^31 - 1 in an id or a cursor was a 500 on PostgreSQL (int4 columns)
 * and "nothing found" on SQLite. Every such id or cursor is now a 400 with a message, the same on
 * both databases (http/ids.ts); 2147483647 itself is still taken (no 5xx, no refusal for range).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../integration/keys.ts';
import { encodeCursor as encodeFeedCursor } from '../integration/orders.ts';
import { encodeCursor as encodeQueueCursor, LIST_MESSAGES } from '../orders/console/list.ts';
import { staffTestApp } from '../../test-support/staff/app-for-tests.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { ID_MESSAGE, INT4_MAX, isDbId } from './ids.ts';

const PAST = [String(INT4_MAX + 1), '4294967296', '9007199254740993', '99999999999999999999'];

describe('isDbId', () => {
  it('takes 1 … 2147483647 only', () => {
    expect([1, INT4_MAX].every(isDbId)).toBe(true);
    expect([0, -1, 1.5, INT4_MAX + 1, Number.NaN, '5'].some(isDbId)).toBe(false);
  });
});

describeEachDatabase('ids and cursors past int4 (issue 26)', (getDb) => {
  let app: FastifyInstance;
  let owner: StaffTestSession;
  let key: string;

  beforeAll(async () => {
    ({ app } = await staffTestApp(getDb()));
    await addStaff(getDb().db, { email: 'owner@ids.test', role: 'owner' });
    owner = await loginStaff(app, 'owner@ids.test');
    key = (await createApiKey(getDb().db, 1, { name: 'Ids', scopes: ['menu:write', 'orders:read', 'orders:write'], createdBy: 'test' }, new Date())).key;
  });
  afterAll(() => app?.close());

  const consoleGet = (url: string) => app.inject({ method: 'GET', url: `/api/console/stores/1${url}`, headers: { ...owner.headers, host: 'downtown.localhost' } });
  const apiGet = (url: string) =>
    app.inject({ method: 'GET', url: `/api/integration/v1${url}`, headers: { host: 'downtown.localhost', authorization: `Bearer ${key}` } });

  /** Each case: the request for a number, and the 400's message. */
  const cases: { name: string; send: (n: string) => ReturnType<typeof consoleGet>; message: string }[] = [
    { name: 'orders queue cursor', send: (n) => consoleGet(`/orders?cursor=${encodeQueueCursor('2026-06-15T12:00:00.000Z', Number(n)).replace(/=+$/, '')}`), message: LIST_MESSAGES.badCursor },
    { name: 'orders queue cursor (digits as written)', send: (n) => consoleGet(`/orders?cursor=${Buffer.from(`2026-06-15T12:00:00.000Z|${n}`).toString('base64url')}`), message: LIST_MESSAGES.badCursor },
    { name: 'messages ?orderId=', send: (n) => consoleGet(`/messages?orderId=${n}`), message: `orderId: ${ID_MESSAGE}` },
    { name: 'settings history before', send: (n) => consoleGet(`/settings/sections/hours/history?before=${n}`), message: `before: ${ID_MESSAGE}` },
    { name: 'webhook deliveries cursor', send: (n) => consoleGet(`/webhooks/1/deliveries?cursor=${n}`), message: 'cursor: not a cursor from this list' },
    { name: 'webhook deliveries endpoint id', send: (n) => consoleGet(`/webhooks/${n}/deliveries`), message: `endpointId: ${ID_MESSAGE}` },
    { name: 'menu history productId', send: (n) => consoleGet(`/menu/history?productId=${n}`), message: `productId: ${ID_MESSAGE}` },
    { name: 'menu history before', send: (n) => consoleGet(`/menu/history?before=${n}`), message: `before: ${ID_MESSAGE}` },
    { name: 'console order id', send: (n) => consoleGet(`/orders/${n}`), message: `orderId: ${ID_MESSAGE}` },
    {
      name: 'integration GET /orders?since=',
      send: (n) => apiGet(`/orders?since=${Buffer.from(`v1:${n}`).toString('base64url')}`),
      message: 'since: not a cursor this API handed out (use `next` of a previous answer, or leave it out to start).',
    },
  ];

  for (const c of cases) {
    it(`${c.name}: past 2^31 - 1 → 400 with a message; 2147483647 → no refusal for range`, async () => {
      for (const n of PAST) {
        const res = await c.send(n);
        expect(res.statusCode, `${n}: ${res.body}`).toBe(400);
        expect(res.json().result, n).toBe(c.message);
      }
      const edge = await c.send(String(INT4_MAX));
      expect(edge.statusCode, edge.body).toBeLessThan(500);
      if (edge.statusCode === 400) expect(edge.json().result).not.toBe(c.message);
    });
  }

  it('a parallel burst of 40 out-of-range requests: 40 answers of 400', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => cases[i % cases.length].send(PAST[i % PAST.length])));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(40).fill(400));
  });

  it('the feed cursor the API hands out still works', async () => {
    const res = await apiGet(`/orders?since=${encodeFeedCursor(0)}`);
    expect(res.statusCode, res.body).toBe(200);
  });
});
