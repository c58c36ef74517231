/**
 * Staff management and the member's stores through the real app on SQLite and PostgreSQL: who may
 * create and change whom, invitations by mail, disabling, and the guard's refusal to start with an
 * undeclared console route. Also the demo staff.
 */
import { FIELD_MESSAGES } from '@verdant/domain';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDatabase } from '../../test-support/databases.ts';
import { staffTestApp, type StaffTestApp } from '../../test-support/staff/app-for-tests.ts';
import { DEMO_STAFF, DEMO_STAFF_PASSWORD, ensureDemoStaff } from './demo.ts';
import { registerStaffGuard } from './guard.ts';
import { addStaff, loginStaff, type StaffTestSession } from '../../test-support/staff/testing.ts';

// Tests log in many times; each login is a deliberate scrypt (~50-500 ms on a loaded machine).
vi.setConfig({ testTimeout: 90_000 });
const HOST = 'downtown.localhost';

describeEachDatabase('staff management', (getDb) => {
  let t: StaffTestApp;
  let app: FastifyInstance;
  let owner: StaffTestSession;
  let manager: StaffTestSession;
  let budtender: StaffTestSession;
  let otherManagerId: number;
  let sharedBudtenderId: number;
  beforeAll(async () => {
    const { db } = getDb();
    t = await staffTestApp(getDb());
    app = t.app;
    await addStaff(db, { email: 'owner@manage.test', role: 'owner', name: 'Olga' });
    await addStaff(db, { email: 'manager@manage.test', role: 'manager', storeIds: [1, 2], name: 'Mia' });
    await addStaff(db, { email: 'budtender@manage.test', role: 'budtender', storeIds: [1] });
    otherManagerId = await addStaff(db, { email: 'manager3@manage.test', role: 'manager', storeIds: [3] });
    sharedBudtenderId = await addStaff(db, { email: 'shared@manage.test', role: 'budtender', storeIds: [2, 3] });
    owner = await loginStaff(app, 'owner@manage.test', { ip: '10.230.0.1' });
    manager = await loginStaff(app, 'manager@manage.test', { ip: '10.230.0.2' });
    budtender = await loginStaff(app, 'budtender@manage.test', { ip: '10.230.0.3' });
  });
  afterAll(async () => app?.close());

  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, who: StaffTestSession, payload?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: { host: HOST, ...who.headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    return { status: res.statusCode, body: res.json() as { result: any; errorCode?: string } };
  };

  it("lists a member's stores with code, name and time zone", async () => {
    const mine = await call('GET', '/api/console/stores', manager);
    expect(mine.body.result).toEqual([
      { id: 1, code: 'downtown', name: expect.any(String), timezone: 'America/Los_Angeles', region: 'CA' },
      { id: 2, code: 'eastside', name: expect.any(String), timezone: 'America/Los_Angeles', region: 'CA' },
    ]);
    expect((await call('GET', '/api/console/stores', owner)).body.result.map((s: { id: number }) => s.id)).toEqual([1, 2, 3, 4]);
    expect((await call('GET', '/api/console/stores', budtender)).body.result.map((s: { id: number }) => s.id)).toEqual([1]);
  });

  it('shows an owner everyone and a manager only the staff of their own stores', async () => {
    const all = (await call('GET', '/api/console/staff', owner)).body.result.map((m: { email: string }) => m.email);
    expect(all).toEqual(expect.arrayContaining(['owner@manage.test', 'manager3@manage.test', 'shared@manage.test']));
    const seen = (await call('GET', '/api/console/staff', manager)).body.result.map((m: { email: string }) => m.email);
    expect(seen).toContain('manager@manage.test');
    expect(seen).toContain('budtender@manage.test');
    expect(seen).not.toContain('owner@manage.test');
    expect(seen).not.toContain('manager3@manage.test');
    // Works at store 3 too, which is not the manager's.
    expect(seen).not.toContain('shared@manage.test');
  });

  it('lets a manager create budtenders and managers of their stores only, never owners', async () => {
    const made = await call('POST', '/api/console/staff', manager, {
      email: 'New.Bud@Manage.test',
      name: 'Nia',
      role: 'budtender',
      storeIds: [2],
      password: 'nia-password-1',
    });
    expect(made.status).toBe(200);
    expect(made.body.result).toMatchObject({
      email: 'new.bud@manage.test',
      role: 'budtender',
      storeIds: [2],
      totpEnabled: false,
      disabled: false,
    });
    await loginStaff(app, 'new.bud@manage.test', { password: 'nia-password-1', ip: '10.230.0.4' });
    const ownerTry = await call('POST', '/api/console/staff', manager, {
      email: 'boss@manage.test',
      name: 'Boss',
      role: 'owner',
      storeIds: [],
    });
    expect(ownerTry).toMatchObject({ status: 403, body: { errorCode: 'forbidden' } });
    const foreign = await call('POST', '/api/console/staff', manager, {
      email: 'far@manage.test',
      name: 'Far',
      role: 'budtender',
      storeIds: [1, 3],
    });
    expect(foreign).toMatchObject({ status: 403, body: { errorCode: 'store_forbidden' } });
    const none = await call('POST', '/api/console/staff', manager, {
      email: 'none@manage.test',
      name: 'None',
      role: 'budtender',
      storeIds: [],
    });
    expect(none.status).toBe(400);
    const dup = await call('POST', '/api/console/staff', owner, {
      email: 'NEW.BUD@manage.test',
      name: 'Dup',
      role: 'budtender',
      storeIds: [1],
    });
    expect(dup).toMatchObject({ status: 409, body: { errorCode: 'email_taken' } });
    const { db } = getDb();
    expect(
      await db
        .selectFrom('staff')
        .select('email')
        .where('email', 'in', ['boss@manage.test', 'far@manage.test', 'none@manage.test'])
        .execute(),
    ).toEqual([]);
  });

  it('creates one member for two parallel requests with the same e-mail', async () => {
    const body = { email: 'twin@manage.test', name: 'Twin', role: 'budtender', storeIds: [1], password: 'twin-password-1' };
    const [a, b] = await Promise.all([call('POST', '/api/console/staff', owner, body), call('POST', '/api/console/staff', owner, body)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const { db } = getDb();
    expect(await db.selectFrom('staff').select('id').where('email', '=', 'twin@manage.test').execute()).toHaveLength(1);
  });

  it('mails a member created without a password a link to set one', async () => {
    const made = await call('POST', '/api/console/staff', owner, {
      email: 'invited@manage.test',
      name: 'Ivo',
      role: 'manager',
      storeIds: [4],
    });
    expect(made.status).toBe(200);
    const mail = t.mailer.lastTo('invited@manage.test')!;
    expect(mail.text).toContain('Olga added you');
    const token = /\/console\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1];
    const set = await app.inject({
      method: 'POST',
      url: '/api/console/password-reset/confirm',
      headers: { host: HOST },
      payload: { token, password: 'ivo-password-1' },
    });
    expect(set.statusCode).toBe(200);
    const s = await loginStaff(app, 'invited@manage.test', { password: 'ivo-password-1', ip: '10.230.0.5' });
    expect(s.staff.storeIds).toEqual([4]);
  });

  it('resends a pending invitation: a burst of 40 sends one mail, the new link works and the earlier one is void', async () => {
    const made = await call('POST', '/api/console/staff', owner, { email: 'resend@manage.test', name: 'Rhea', role: 'budtender', storeIds: [1] });
    expect(made.body.result).toMatchObject({ email: 'resend@manage.test', invitePending: true });
    const tokenOf = (text: string) => /\/console\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(text)![1];
    const first = tokenOf(t.mailer.lastTo('resend@manage.test')!.text);
    const mails = () => t.mailer.sent.filter((m) => m.to === 'resend@manage.test').length;
    expect(mails()).toBe(1);

    // 40 clicks at once: one is sent, the others are told to wait (counted before sending, on every node).
    t.clock.advance(61_000);
    const burst = await Promise.all(
      Array.from({ length: 40 }, () => call('POST', `/api/console/staff/${made.body.result.id}/resend-invite`, owner)),
    );
    expect(burst.map((r) => r.status).sort()).toEqual([200, ...Array<number>(39).fill(429)]);
    expect(burst.find((r) => r.status === 200)!.body.result.message).toBe(
      'A new invitation link was sent to resend@manage.test. The earlier link no longer works.',
    );
    expect(burst.find((r) => r.status === 429)!.body.result).toBe(
      'An invitation was sent to this member less than a minute ago. Please wait a minute before sending another.',
    );
    expect(mails()).toBe(2);
    const second = tokenOf(t.mailer.lastTo('resend@manage.test')!.text);
    expect(second).not.toBe(first);

    const confirm = (token: string, password: string) =>
      app.inject({ method: 'POST', url: '/api/console/password-reset/confirm', headers: { host: HOST }, payload: { token, password } });
    expect((await confirm(first, 'rhea-password-1')).statusCode).toBe(400);
    expect((await confirm(second, 'rhea-password-2')).statusCode).toBe(200);
    expect((await confirm(second, 'rhea-password-3')).statusCode).toBe(400);
    await loginStaff(app, 'resend@manage.test', { password: 'rhea-password-2', ip: '10.230.0.6' });

    // Once the password is set there is nothing to resend; a manager of other stores does not see the member.
    t.clock.advance(61_000);
    const done = await call('POST', `/api/console/staff/${made.body.result.id}/resend-invite`, owner);
    expect(done).toMatchObject({ status: 409, body: { errorCode: 'invite_not_pending' } });
    const list = (await call('GET', '/api/console/staff', owner)).body.result as { email: string; invitePending: boolean }[];
    expect(list.find((m) => m.email === 'resend@manage.test')!.invitePending).toBe(false);
    const other = await call('POST', '/api/console/staff', owner, { email: 'resend3@manage.test', name: 'Remy', role: 'budtender', storeIds: [3] });
    expect((await call('POST', `/api/console/staff/${other.body.result.id}/resend-invite`, manager)).status).toBe(404);
    expect((await call('POST', `/api/console/staff/${other.body.result.id}/resend-invite`, budtender)).status).toBe(403);
  });

  it('limits resending one invitation to five a day', async () => {
    const made = await call('POST', '/api/console/staff', owner, { email: 'daily@manage.test', name: 'Dara', role: 'budtender', storeIds: [1] });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      t.clock.advance(61_000);
      statuses.push((await call('POST', `/api/console/staff/${made.body.result.id}/resend-invite`, owner)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("keeps a manager's hands off owners, other stores' staff and their own role", async () => {
    const { db } = getDb();
    const ownerId = owner.staff.id;
    expect((await call('PATCH', `/api/console/staff/${ownerId}`, manager, { name: 'Renamed' })).status).toBe(404);
    expect((await call('PATCH', `/api/console/staff/${otherManagerId}`, manager, { disabled: true })).status).toBe(404);
    expect((await call('PATCH', `/api/console/staff/${sharedBudtenderId}`, manager, { disabled: true })).status).toBe(404);
    const budId = budtender.staff.id;
    expect((await call('PATCH', `/api/console/staff/${budId}`, manager, { role: 'owner' })).body.errorCode).toBe('forbidden');
    expect((await call('PATCH', `/api/console/staff/${budId}`, manager, { storeIds: [1, 3] })).body.errorCode).toBe('store_forbidden');
    expect((await call('PATCH', `/api/console/staff/${manager.staff.id}`, manager, { disabled: true })).body.errorCode).toBe('self_change');
    expect((await call('PATCH', `/api/console/staff/${manager.staff.id}`, manager, { role: 'budtender' })).body.errorCode).toBe(
      'self_change',
    );
    expect((await call('PATCH', `/api/console/staff/${ownerId}`, owner, { disabled: true })).body.errorCode).toBe('self_change');
    const rows = await db
      .selectFrom('staff')
      .select(['id', 'name', 'role', 'disabled_at'])
      .where('id', 'in', [ownerId, otherManagerId, sharedBudtenderId, budId, manager.staff.id])
      .execute();
    for (const r of rows) expect(r.disabled_at).toBeNull();
    expect(rows.find((r) => r.id === ownerId)!.name).toBe('Olga');
    expect(rows.find((r) => r.id === budId)!.role).toBe('budtender');
  });

  it("lets a manager move a budtender between their stores and disable them, which ends the budtender's sessions", async () => {
    const { db } = getDb();
    const id = await addStaff(db, { email: 'mover@manage.test', role: 'budtender', storeIds: [1] });
    const s = await loginStaff(app, 'mover@manage.test', { ip: '10.230.0.6' });
    const moved = await call('PATCH', `/api/console/staff/${id}`, manager, { storeIds: [2], name: 'Mover' });
    expect(moved.body.result).toMatchObject({ id, name: 'Mover', storeIds: [2] });
    // The guard reads the stores on every request: the move applies at once.
    expect((await call('GET', '/api/console/stores', s)).body.result.map((x: { id: number }) => x.id)).toEqual([2]);
    const off = await call('PATCH', `/api/console/staff/${id}`, manager, { disabled: true });
    expect(off.body.result.disabled).toBe(true);
    expect((await call('GET', '/api/console/session', s)).status).toBe(401);
    const on = await call('PATCH', `/api/console/staff/${id}`, manager, { disabled: false });
    expect(on.body.result.disabled).toBe(false);
    await loginStaff(app, 'mover@manage.test', { ip: '10.230.0.7' });
  });

  it('lets an owner promote a manager to owner (every store) and back', async () => {
    const up = await call('PATCH', `/api/console/staff/${otherManagerId}`, owner, { role: 'owner' });
    expect(up.body.result).toMatchObject({ role: 'owner', storeIds: [1, 2, 3, 4] });
    const down = await call('PATCH', `/api/console/staff/${otherManagerId}`, owner, { role: 'manager', storeIds: [3] });
    expect(down.body.result).toMatchObject({ role: 'manager', storeIds: [3] });
    expect((await call('PATCH', `/api/console/staff/${otherManagerId}`, owner, { role: 'budtender', storeIds: [] })).status).toBe(400);
  });

  it('refuses a name of fewer than 2 letters (the shoppers’ rule) on create and on change, with the rule’s words', async () => {
    const { db } = getDb();
    const tooShort = { status: 400, body: { result: `name: ${FIELD_MESSAGES.nameTooShort}`, errorCode: 'invalid_request' } };
    for (const name of ['J', ' J ', 'J.', "J-'"]) {
      expect(
        await call('POST', '/api/console/staff', owner, { email: 'one.letter@manage.test', name, role: 'budtender', storeIds: [1] }),
        name,
      ).toMatchObject(tooShort);
    }
    const notLetters = await call('POST', '/api/console/staff', owner, {
      email: 'one.letter@manage.test',
      name: 'R2D2',
      role: 'budtender',
      storeIds: [1],
    });
    expect(notLetters).toMatchObject({ status: 400, body: { result: `name: ${FIELD_MESSAGES.onlyLetters}` } });
    expect(await db.selectFrom('staff').select('id').where('email', '=', 'one.letter@manage.test').execute()).toEqual([]);

    const made = await call('POST', '/api/console/staff', owner, {
      email: 'two.letters@manage.test',
      name: ' Jo ',
      role: 'budtender',
      storeIds: [1],
    });
    expect(made).toMatchObject({ status: 200, body: { result: { name: 'Jo' } } });
    const id = made.body.result.id as number;
    expect(await call('PATCH', `/api/console/staff/${id}`, owner, { name: 'J' })).toMatchObject(tooShort);
    expect(await call('PATCH', `/api/console/staff/${id}`, manager, { name: 'J' })).toMatchObject(tooShort);
    expect((await db.selectFrom('staff').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name).toBe('Jo');
    expect(await call('PATCH', `/api/console/staff/${id}`, owner, { name: 'Jo Ann' })).toMatchObject({
      status: 200,
      body: { result: { name: 'Jo Ann' } },
    });
  });

  it('refuses unknown fields and bad input with 400', async () => {
    const bad = await call('PATCH', `/api/console/staff/${budtender.staff.id}`, owner, { password: 'sneaky-password' });
    expect(bad.status).toBe(400);
    expect(
      (await call('POST', '/api/console/staff', owner, { email: 'not-an-email', name: 'Xia', role: 'budtender', storeIds: [1] })).status,
    ).toBe(400);
    expect(
      (await call('POST', '/api/console/staff', owner, { email: 'x@manage.test', name: 'Xia', role: 'cashier', storeIds: [1] })).status,
    ).toBe(400);
    expect(
      (await call('POST', '/api/console/staff', owner, { email: 'y@manage.test', name: 'Yan', role: 'budtender', storeIds: [99] })).status,
    ).toBe(400);
  });

  it('creates the demo staff once, with the demo password (re-running keeps them)', async () => {
    const { db } = getDb();
    const first = await ensureDemoStaff(db);
    expect(first.sort()).toEqual(DEMO_STAFF.map((m) => m.email).sort());
    expect(await ensureDemoStaff(db)).toEqual([]);
    const s = await loginStaff(app, 'manager@demo.verdant.test', { password: DEMO_STAFF_PASSWORD, ip: '10.230.0.8' });
    expect(s.staff).toMatchObject({ role: 'manager', storeIds: [1] });
    const b = await loginStaff(app, 'budtender@demo.verdant.test', { password: DEMO_STAFF_PASSWORD, ip: '10.230.0.9' });
    expect(b.staff).toMatchObject({ role: 'budtender', storeIds: [1] });
    const o = await loginStaff(app, 'owner@demo.verdant.test', { password: DEMO_STAFF_PASSWORD, ip: '10.230.0.10' });
    expect(o.staff).toMatchObject({ role: 'owner', storeIds: [1, 2, 3, 4] });
  });
});

describe('staff guard at startup', () => {
  it('refuses to start with a console route that declares no permission', async () => {
    const t = await createTestDatabase('sqlite');
    const app = Fastify();
    try {
      registerStaffGuard(app, { db: t.db });
      app.get('/api/console/declared', { config: { console: { permission: 'orders:read' } } }, async () => 'ok');
      expect(() => app.get('/api/console/stores/:storeId/open', async () => 'open')).toThrow(/declares no permission/);
      expect(() =>
        app.post('/api/console/typo', { config: { console: { permission: 'orders:rule' as 'orders:read' } } }, async () => 'open'),
      ).toThrow(/declares no permission/);
      // Outside the console nothing is asked.
      app.get('/api/other', async () => 'fine');
      await app.ready();
    } finally {
      await app.close();
      await t.cleanup();
    }
  });
});
