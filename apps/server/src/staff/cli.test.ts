/**
 * `npm run staff` as a real child process against a temp SQLite DATA_DIR: add an owner without a
 * password (a one-time link is printed and works through the real app), add a budtender with a
 * password and a store, list, reset-password, and the refusals (bad role, unknown store, taken
 * e-mail, unknown member).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIELD_MESSAGES } from '@verdant/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { parseStaffArgs } from '../cli/staff.ts';
import { registry } from '../../test-support/cart/testing.ts';
import { createDatabase } from '../db/index.ts';
import { loginStaff } from '../../test-support/staff/testing.ts';
import { compiledEntry } from '../../test-support/compiled.ts';


describe('parseStaffArgs', () => {
  it('reads add, list and reset-password', () => {
    expect(parseStaffArgs(['add', '--email', 'A@B.test', '--role', 'manager', '--name', 'Ana', '--stores', 'downtown, Eastside'])).toEqual({
      command: 'add',
      email: 'a@b.test',
      role: 'manager',
      name: 'Ana',
      password: undefined,
      stores: ['downtown', 'eastside'],
    });
    expect(parseStaffArgs(['list'])).toEqual({ command: 'list' });
    expect(parseStaffArgs(['reset-password', '--email', 'a@b.test'])).toEqual({ command: 'reset-password', email: 'a@b.test' });
  });

  it('refuses bad input with the usage text', () => {
    expect(() => parseStaffArgs([])).toThrow(/Usage:/);
    expect(() => parseStaffArgs(['add', '--email', 'ana@b.test', '--role', 'cashier'])).toThrow(/--role/);
    expect(() => parseStaffArgs(['add', '--email', 'ana@b.test', '--role', 'budtender'])).toThrow(/needs at least one store/);
    expect(() => parseStaffArgs(['add', '--email', 'ana@b.test', '--role', 'owner', '--password', 'short'])).toThrow(/at least 10/);
    expect(() => parseStaffArgs(['add', '--email', 'nope', '--role', 'owner'])).toThrow(/--email/);
    expect(() => parseStaffArgs(['list', '--colour', 'green'])).toThrow();
  });

  it('takes a name of at least 2 letters (the shoppers’ rule); without --name, one made of the e-mail’s letters, or asks for --name', () => {
    const add = (...args: string[]) => parseStaffArgs(['add', '--role', 'owner', ...args]);
    expect(() => add('--email', 'jo@b.test', '--name', 'J')).toThrow(`--name: ${FIELD_MESSAGES.nameTooShort}`);
    expect(() => add('--email', 'jo@b.test', '--name', ' ')).toThrow(/--name/);
    expect(() => add('--email', 'jo@b.test', '--name', 'R2D2')).toThrow(`--name: ${FIELD_MESSAGES.onlyLetters}`);
    expect(add('--email', 'jo@b.test', '--name', ' Jo ')).toMatchObject({ name: 'Jo' });
    // The default is a valid name, whatever the local part looks like.
    expect(add('--email', 'jane.doe@b.test')).toMatchObject({ name: 'Jane Doe' });
    expect(add('--email', 'ops_2024+night-shift@b.test')).toMatchObject({ name: 'Ops Night Shift' });
    expect(add('--email', 'Bo@b.test')).toMatchObject({ name: 'Bo' });
    // No name of 2 letters in it: --name is required.
    for (const email of ['a@b.test', 'j7@b.test', '1234@b.test']) expect(() => add('--email', email), email).toThrow(/--name/);
  });
});

// One child process per test, of the compiled CLI (test-support/compiled.ts): what production runs.
describe('npm run staff (SQLite, child process)', { timeout: 90_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'verdant-staff-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const run = (args: string[]) =>
    spawnSync(process.execPath, [compiledEntry('staff'), ...args], {
      cwd: tmpdir(),
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', STORES_FILE: '' },
      encoding: 'utf8',
    });

  let ownerLink = '';
  it('adds an owner without a password and prints a one-time link', () => {
    const res = run(['add', '--email', 'Boss@Example.test', '--role', 'owner', '--name', 'The Boss']);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('Added owner boss@example.test (staff 1), every store.');
    ownerLink = /http:\/\/downtown\.localhost:3000\/console\/reset-password\?token=[A-Za-z0-9_-]{43}/.exec(res.stdout)?.[0] ?? '';
    expect(ownerLink).not.toBe('');
  });

  it('adds a budtender of a store with a password', () => {
    const add = run(['add', '--email', 'bud@example.test', '--role', 'budtender', '--stores', 'eastside', '--password', 'bud-password-1']);
    expect(add.status).toBe(0);
    expect(add.stdout).toContain('Added budtender bud@example.test (staff 2), stores eastside.');
    expect(add.stdout).not.toContain('reset-password');
  });

  it('refuses a weak password, the demo password or one made of the e-mail, and adds nobody', () => {
    for (const [password, text] of [
      ['password12', 'is too easy to guess'],
      ['verdant-demo-staff', 'must not be the demo password'],
      ['weak.member', 'must not be your e-mail address'],
      ['Verdant Eastside', "must not be a store's name"],
    ]) {
      const weak = run(['add', '--email', 'weak.member@example.test', '--role', 'owner', '--password', password]);
      expect(weak.status, password).toBe(1);
      expect(weak.stderr).toContain(`--password: The password ${text}`);
    }
    expect(run(['list']).stdout).not.toContain('weak.member@example.test');
  });

  it('lists both', () => {
    const list = run(['list']);
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/^\s+1\s+boss@example\.test\s+owner\s+The Boss\s+every store$/m);
    // bud@ was added without --name: the name is the e-mail's letters.
    expect(list.stdout).toMatch(/^\s+2\s+bud@example\.test\s+budtender\s+Bud\s+eastside$/m);
  });

  it('refuses a taken e-mail with a message and exit 1', () => {
    const taken = run(['add', '--email', 'bud@example.test', '--role', 'manager', '--stores', 'downtown']);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain('already exists');
  });

  it('refuses an unknown store code', () => {
    const store = run(['add', '--email', 'xavi@example.test', '--role', 'manager', '--stores', 'uptown']);
    expect(store.status).toBe(1);
    expect(store.stderr).toContain('Unknown store code(s): uptown');
  });

  it('refuses a reset for an unknown member', () => {
    const nobody = run(['reset-password', '--email', 'nobody@example.test']);
    expect(nobody.status).toBe(1);
    expect(nobody.stderr).toContain('No staff member');
  });

  it('prints a reset link for a member', () => {
    const reset = run(['reset-password', '--email', 'bud@example.test']);
    expect(reset.status).toBe(0);
    expect(reset.stdout).toMatch(/valid 1 hour/);
  });

  it('made members the server logs in: the owner through the printed link, the budtender with the password', async () => {
    const { db, destroy } = await createDatabase({ dataDir });
    const app = await buildApp({ config: { dataDir, demoMode: true, production: true, logLevel: 'silent' }, registry, db, logger: false });
    try {
      const token = new URL(ownerLink).searchParams.get('token');
      const set = await app.inject({
        method: 'POST',
        url: '/api/console/password-reset/confirm',
        headers: { host: 'downtown.localhost' },
        payload: { token, password: 'boss-password-1' },
      });
      expect(set.statusCode).toBe(200);
      const owner = await loginStaff(app, 'boss@example.test', { password: 'boss-password-1' });
      expect(owner.staff).toMatchObject({ role: 'owner', name: 'The Boss', storeIds: [1, 2, 3, 4] });
      const bud = await loginStaff(app, 'bud@example.test', { password: 'bud-password-1', ip: '10.240.0.2' });
      expect(bud.staff).toMatchObject({ role: 'budtender', storeIds: [2] });
    } finally {
      await app.close();
      await destroy();
    }
  });
});
