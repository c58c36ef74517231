/**
 * Test helpers for console suites (not a test file): add a staff member straight to the database,
 * log in through the real route, and send the cookie and CSRF header a browser would.
 *
 *   const ownerId = await addStaff(db, { email: 'o@x.test', role: 'owner' });
 *   const owner = await loginStaff(app, 'o@x.test');
 *   await app.inject({ method: 'POST', url, headers: owner.headers, payload });
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, StaffRole } from '../../src/db/schema.ts';
import { createMember, type StaffView } from '../../src/staff/members.ts';
import { STAFF_COOKIE } from '../../src/staff/sessions.ts';

export const TEST_STAFF_PASSWORD = 'staff-test-password';

export async function addStaff(
  db: Kysely<Database>,
  member: { email: string; role: StaffRole; storeIds?: number[]; name?: string; password?: string | null },
): Promise<number> {
  const password = member.password === null ? undefined : (member.password ?? TEST_STAFF_PASSWORD);
  return createMember(
    db,
    { email: member.email, name: member.name ?? member.email.split('@')[0], role: member.role, storeIds: member.storeIds ?? [], password },
    new Date(),
  );
}

export interface StaffTestSession {
  staff: StaffView;
  csrfToken: string;
  /** `verdant_staff=<token>` */
  cookie: string;
  /** Cookie and CSRF header for any console request. */
  headers: { cookie: string; 'x-csrf-token': string };
}

/** Log in through POST /api/console/session; throws with the answer when it is not 200. */
export async function loginStaff(
  app: FastifyInstance,
  email: string,
  opts: { password?: string; totp?: string; ip?: string; host?: string } = {},
): Promise<StaffTestSession> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/console/session',
    remoteAddress: opts.ip ?? '10.200.0.1',
    headers: { host: opts.host ?? 'downtown.localhost' },
    payload: { email, password: opts.password ?? TEST_STAFF_PASSWORD, ...(opts.totp ? { totp: opts.totp } : {}) },
  });
  if (res.statusCode !== 200) throw new Error(`staff login of ${email} answered ${res.statusCode}: ${res.body}`);
  const setCookie = String(res.headers['set-cookie']);
  const token = new RegExp(`^${STAFF_COOKIE}=([^;]+)`).exec(setCookie)?.[1];
  if (!token) throw new Error(`no ${STAFF_COOKIE} cookie in ${setCookie}`);
  const { staff, csrfToken } = res.json().result as { staff: StaffView; csrfToken: string };
  const cookie = `${STAFF_COOKIE}=${token}`;
  return { staff, csrfToken, cookie, headers: { cookie, 'x-csrf-token': csrfToken } };
}
