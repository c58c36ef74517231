/**
 * The console's own routes (issue 12 contract): session (login, who am I, logout, logout
 * everywhere), password reset by mail and password change, TOTP, the member's stores; staff
 * management is in ./staff-routes.ts. Login and reset are `public`; the rest need a session.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import {
  changePasswordBody,
  loginBody,
  resetBody,
  resetConfirmBody,
  totpCodeBody,
  type ConsoleStore,
  type LogoutAnswer,
  type SessionAnswer,
  type StaffView,
  type TotpSetupAnswer,
  type TotpStateAnswer,
} from '@verdant/domain/console-api';
import type { Database } from '../db/schema.ts';
import { MemoryRateLimiter, type RateLimiter } from '../auth/rate-limit.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import { createMailer, type Mailer } from '../mail/mailer.ts';
import { hashPassword, verifyPassword } from '../users/password-hash.ts';
import { staffAccessOf } from './access-signal.ts';
import { staffOf, type StaffContext } from './guard.ts';
import { checkLogin, LOCK_MS, type LockedMember } from './login.ts';
import { staffView } from './members.ts';
import { issueStaffReset, peekStaffReset, resetUrl, useStaffReset } from './password-reset.ts';
import { checkStaffPassword } from './password-strength.ts';
import { clearedCookie, createSession, revokeAllSessions, revokeSession, sessionCookie } from './sessions.ts';
import { newTotpSecret, useTotpCode } from './totp.ts';
import { registerStaffManagementRoutes } from './staff-routes.ts';
import { hasLiveUnlock, issueUnlock, unlockUrl } from './unlock.ts';

/** The mail a member gets when wrong passwords lock their e-mail. */
export function unlockMail(name: string, link: string): string {
  return [
    `Hello ${name},`,
    '',
    'Someone entered a wrong password for your Verdant console account 5 times, so signing in is locked for 15 minutes.',
    '',
    'If that was you, open this link within an hour and sign in with your password; it works despite the lock:',
    link,
    '',
    'If it was not you, nobody got in and your password still works with this link. Turning on two-step sign-in',
    '(Account page) keeps your account safe even if your password gets out.',
  ].join('\n');
}

export interface StaffRouteDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** Default: the accounts' mailer and limiter (app.accounts), read at request time. */
  mailer?: Mailer;
  limiter?: RateLimiter;
}

export const STAFF_MESSAGES = {
  resetSent: 'If that e-mail belongs to a staff member, a link to set a new password is on its way.',
  resetBad: 'This link is invalid or has expired. Please ask for a new one.',
  currentWrong: 'The current password is not right.',
  totpOn: 'Two-step login is already on. Turn it off first to set it up again.',
  totpNotSetUp: 'Set up two-step login first.',
  totpNotOn: 'Two-step login is not on.',
  totpWrong: 'That code is not right or was already used.',
} as const;

const PUBLIC = { config: { console: { permission: 'public' as const } } };
const SELF = { config: { console: { permission: 'self' as const } } };

export function registerStaffConsoleRoutes(app: FastifyInstance, deps: StaffRouteDeps): void {
  const { db, now } = deps;
  let ownLimiter: RateLimiter | undefined;
  const limiter = (): RateLimiter => deps.limiter ?? app.accounts?.limiter ?? (ownLimiter ??= new MemoryRateLimiter());
  let ownMailer: Mailer | undefined;
  const mailer = (): Mailer => deps.mailer ?? app.accounts?.mailer ?? (ownMailer ??= createMailer({}, (m) => app.log.info(m)));

  const sessionAnswer = async (staffId: number, csrfToken: string) => {
    const staff = (await staffView(db, staffId)) as StaffView;
    return ok({ staff, csrfToken } satisfies SessionAnswer);
  };

  app.post('/api/console/session', PUBLIC, async (request, reply) => {
    const body = parseOr400(loginBody, request.body);
    const at = now();
    // A wrong try that locks a member's e-mail mails them an unlock link, after the answer (whose
    // time and text are the same for every e-mail).
    const onLocked = (member: LockedMember) =>
      void (async () => {
        if (await hasLiveUnlock(db, member.id, at, LOCK_MS)) return;
        const token = await issueUnlock(db, member.id, at);
        await mailer().send({
          to: member.email,
          subject: 'Your Verdant console sign-in is locked',
          text: unlockMail(member.name, unlockUrl(request.store.url, token)),
        });
      })().catch((err: unknown) => request.log.warn({ err }, 'staff unlock mail failed'));
    const { staffId, mfa } = await checkLogin(db, limiter(), body, request.ip, at, onLocked);
    const session = await createSession(db, staffId, at, { userAgent: request.headers['user-agent'], mfa });
    reply.header('set-cookie', sessionCookie(session.token));
    reply.header('cache-control', 'no-store');
    return sessionAnswer(staffId, session.csrfToken);
  });

  app.get('/api/console/session', SELF, async (request, reply) => {
    const me = staffOf(request);
    reply.header('cache-control', 'no-store');
    return sessionAnswer(me.id, me.csrfToken);
  });

  app.delete('/api/console/session', SELF, async (request, reply) => {
    await revokeSession(db, staffOf(request).sessionId, now());
    staffAccessOf(app).changed(staffOf(request).id);
    reply.header('set-cookie', clearedCookie());
    return ok<LogoutAnswer>('logged out');
  });

  app.post('/api/console/session/logout-all', SELF, async (request, reply) => {
    await revokeAllSessions(db, staffOf(request).id, now());
    staffAccessOf(app).changed(staffOf(request).id);
    reply.header('set-cookie', clearedCookie());
    return ok<LogoutAnswer>('logged out everywhere');
  });

  app.post('/api/console/password-reset', PUBLIC, async (request) => {
    const { email } = parseOr400(resetBody, request.body);
    // Per address and per e-mail, silently: the answer never says whether the e-mail is staff.
    const ipOk = await limiter().hit(`staff-reset-ip:${request.ip}`, 10, 60 * 60 * 1000);
    const emailOk = await limiter().hit(`staff-reset-email:${email}`, 5, 60 * 60 * 1000);
    const member = await db
      .selectFrom('staff')
      .select(['id', 'email', 'name', 'disabled_at'])
      .where('email', '=', email)
      .executeTakeFirst();
    if (ipOk && emailOk && member && member.disabled_at === null) {
      const token = await issueStaffReset(db, member.id, now());
      const link = resetUrl(request.store.url, token);
      await mailer()
        .send({
          to: member.email,
          subject: 'Set your Verdant console password',
          text: `Hello ${member.name},\n\nOpen this link within an hour to set a new password for the store console:\n${link}\n\nIf you did not ask for it, ignore this mail; your password stays as it is.`,
        })
        .catch((err: unknown) => request.log.warn({ err }, 'staff password reset mail failed'));
    }
    return ok(STAFF_MESSAGES.resetSent);
  });

  app.post('/api/console/password-reset/confirm', PUBLIC, async (request) => {
    const body = parseOr400(resetConfirmBody, request.body);
    // The password is judged for the link's member before the link is used: a refused one leaves it usable.
    const member = await peekStaffReset(db, body.token, now());
    if (!member) throw new ApiError(400, STAFF_MESSAGES.resetBad, { errorCode: 'reset_invalid' });
    await checkStaffPassword(db, body.password, member);
    const resetFor = await useStaffReset(db, body.token, body.password, now());
    if (resetFor === false) throw new ApiError(400, STAFF_MESSAGES.resetBad, { errorCode: 'reset_invalid' });
    staffAccessOf(app).changed(resetFor);
    return ok('password set');
  });

  app.post('/api/console/me/password', SELF, async (request) => {
    const me = staffOf(request);
    const body = parseOr400(changePasswordBody, request.body);
    const row = await db.selectFrom('staff').select('password_hash').where('id', '=', me.id).executeTakeFirstOrThrow();
    if (!row.password_hash || !(await verifyPassword(body.current, row.password_hash)))
      throw new ApiError(400, STAFF_MESSAGES.currentWrong, { errorCode: 'current_password_wrong' });
    await checkStaffPassword(db, body.password, { email: me.email, name: me.name });
    const at = now();
    await db
      .updateTable('staff')
      .set({ password_hash: await hashPassword(body.password), updated_at: at.toISOString() })
      .where('id', '=', me.id)
      .execute();
    // Whoever knew the old password is logged out everywhere but here.
    await revokeAllSessions(db, me.id, at, me.sessionId);
    staffAccessOf(app).changed(me.id);
    return ok('password changed');
  });

  registerTotpRoutes(app, db, now, limiter);

  app.get('/api/console/stores', SELF, async (request) => {
    const me = staffOf(request);
    if (me.storeIds.length === 0) return ok<ConsoleStore[]>([]);
    const rows = await db
      .selectFrom('stores')
      .select(['id', 'code', 'name', 'settings'])
      .where('id', 'in', me.storeIds)
      .orderBy('id')
      .execute();
    return ok(rows.map((r): ConsoleStore => ({ id: r.id, code: r.code, name: r.name, timezone: timezoneOf(r.settings), region: regionOf(r.settings) })));
  });

  registerStaffManagementRoutes(app, { db, now, mailer, limiter });
}

function registerTotpRoutes(app: FastifyInstance, db: Kysely<Database>, now: () => Date, limiter: () => RateLimiter): void {
  const member = (me: StaffContext) =>
    db.selectFrom('staff').select(['totp_secret', 'totp_enabled_at']).where('id', '=', me.id).executeTakeFirstOrThrow();

  app.post('/api/console/me/totp/setup', SELF, async (request) => {
    const me = staffOf(request);
    if ((await member(me)).totp_enabled_at !== null) throw new ApiError(409, STAFF_MESSAGES.totpOn, { errorCode: 'totp_enabled' });
    const { secret, uri } = newTotpSecret(me.email);
    await db
      .updateTable('staff')
      .set({ totp_secret: secret, updated_at: now().toISOString() })
      .where('id', '=', me.id)
      .where('totp_enabled_at', 'is', null)
      .execute();
    return ok({ secret, uri } satisfies TotpSetupAnswer);
  });

  app.post('/api/console/me/totp/enable', SELF, async (request) => {
    const me = staffOf(request);
    const { code } = parseOr400(totpCodeBody, request.body);
    const row = await member(me);
    if (row.totp_enabled_at !== null) throw new ApiError(409, STAFF_MESSAGES.totpOn, { errorCode: 'totp_enabled' });
    if (!row.totp_secret) throw new ApiError(409, STAFF_MESSAGES.totpNotSetUp, { errorCode: 'totp_not_set_up' });
    const at = now();
    if (!(await useTotpCode(limiter(), me.id, row.totp_secret, code, at)))
      throw new ApiError(400, STAFF_MESSAGES.totpWrong, { errorCode: 'totp_wrong' });
    const iso = at.toISOString();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('staff').set({ totp_enabled_at: iso, updated_at: iso }).where('id', '=', me.id).execute();
      // This session just gave a code; the member's other sessions never did and end here.
      await trx.updateTable('staff_sessions').set({ mfa_at: iso }).where('id', '=', me.sessionId).execute();
      await revokeAllSessions(trx, me.id, at, me.sessionId);
    });
    staffAccessOf(app).changed(me.id);
    return ok({ totpEnabled: true } satisfies TotpStateAnswer);
  });

  app.post('/api/console/me/totp/disable', SELF, async (request) => {
    const me = staffOf(request);
    const { code } = parseOr400(totpCodeBody, request.body);
    const row = await member(me);
    if (row.totp_enabled_at === null || !row.totp_secret)
      throw new ApiError(409, STAFF_MESSAGES.totpNotOn, { errorCode: 'totp_not_enabled' });
    if (!(await useTotpCode(limiter(), me.id, row.totp_secret, code, now())))
      throw new ApiError(400, STAFF_MESSAGES.totpWrong, { errorCode: 'totp_wrong' });
    await db
      .updateTable('staff')
      .set({ totp_secret: null, totp_enabled_at: null, updated_at: now().toISOString() })
      .where('id', '=', me.id)
      .execute();
    return ok({ totpEnabled: false } satisfies TotpStateAnswer);
  });
}

/** The store's state from its address (the deal display setting's "automatic" follows it, issue 28). */
function regionOf(settings: string): string | null {
  try {
    const code = JSON.parse(settings)?.dispensarySettings?.place_info?.address?.region_code;
    return typeof code === 'string' && code ? code.toUpperCase() : null;
  } catch {
    return null;
  }
}

function timezoneOf(settings: string): string {
  try {
    const tz = JSON.parse(settings)?.dispensarySettings?.place_info?.timezone;
    return typeof tz === 'string' && tz ? tz : 'UTC';
  } catch {
    return 'UTC';
  }
}
