/**
 * Staff management (permission `staff:manage`: owners and managers). Owners manage everyone.
 * A manager manages only managers and budtenders whose stores are all among the manager's own,
 * gives only stores of their own, and never makes or edits an owner. Nobody disables themselves
 * or changes their own role. A member created without a password is mailed a link to set one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  createStaffBody,
  patchStaffBody,
  staffIdParams,
  type ResendInviteAnswer,
  type StaffView,
} from '@verdant/domain/console-api';
import type { Database, StaffRole } from '../db/schema.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import type { Mailer } from '../mail/mailer.ts';
import { staffAccessOf } from './access-signal.ts';
import { staffOf, type StaffContext } from './guard.ts';
import { createMember, EmailTakenError, listStaff, setStores, staffView } from './members.ts';
import { issueStaffReset, resetUrl, STAFF_INVITE_TTL_MS } from './password-reset.ts';
import { checkStaffPassword } from './password-strength.ts';
import { revokeAllSessions } from './sessions.ts';

export const MANAGE_MESSAGES = {
  ownersOnly: 'Only an owner can make or change an owner.',
  notYours: 'You can only manage staff of your own stores.',
  storeNotYours: 'You can only give access to your own stores.',
  needsStore: 'Choose at least one store for a manager, budtender or driver.',
  unknownStore: 'One of the stores does not exist.',
  notFound: 'No such staff member.',
  self: 'You cannot disable yourself or change your own role.',
  emailTaken: 'A staff member with this e-mail already exists.',
  inviteNotPending: 'This member has already set a password; they can use “Forgot your password?” on the sign-in page.',
  inviteDisabled: 'This member is disabled; enable them before sending an invitation.',
  inviteTooSoon: 'An invitation was sent to this member less than a minute ago. Please wait a minute before sending another.',
  inviteTooMany: 'Five invitations were sent to this member today. Please try again tomorrow.',
  inviteSent: (email: string) => `A new invitation link was sent to ${email}. The earlier link no longer works.`,
} as const;

/** Resends of one member's invitation: at most one a minute, five a day (counted on every node). */
export const INVITE_RESEND_LIMITS = { perMinute: 1, perDay: 5 } as const;

const MANAGE = { config: { console: { permission: 'staff:manage' as const } } };

interface Deps {
  db: Kysely<Database>;
  now: () => Date;
  mailer: () => Mailer;
  limiter: () => RateLimiter;
}

/** Whether `me` may manage a member in this state (role and stores). */
function mayManage(me: StaffContext, role: StaffRole, storeIds: number[]): boolean {
  if (me.role === 'owner') return true;
  return role !== 'owner' && storeIds.every((id) => me.storeIds.includes(id));
}

export function registerStaffManagementRoutes(app: FastifyInstance, deps: Deps): void {
  const { db, now } = deps;

  /** The new role and stores are valid and `me` may give them; throws the refusal. */
  const checkAssignment = async (me: StaffContext, role: StaffRole, storeIds: number[]) => {
    if (role === 'owner') {
      if (me.role !== 'owner') throw new ApiError(403, MANAGE_MESSAGES.ownersOnly, { errorCode: 'forbidden' });
      return;
    }
    if (storeIds.length === 0) throw new ApiError(400, MANAGE_MESSAGES.needsStore, { errorCode: 'invalid_request' });
    const known = await db.selectFrom('stores').select('id').where('id', 'in', storeIds).execute();
    if (known.length !== new Set(storeIds).size) throw new ApiError(400, MANAGE_MESSAGES.unknownStore, { errorCode: 'invalid_request' });
    if (!storeIds.every((id) => me.storeIds.includes(id)))
      throw new ApiError(403, MANAGE_MESSAGES.storeNotYours, { errorCode: 'store_forbidden' });
  };

  app.get('/api/console/staff', MANAGE, async (request) => {
    const me = staffOf(request);
    const all = await listStaff(db);
    return ok<StaffView[]>(all.filter((m) => m.id === me.id || mayManage(me, m.role, m.storeIds)));
  });

  app.post('/api/console/staff', MANAGE, async (request) => {
    const me = staffOf(request);
    const body = parseOr400(createStaffBody, request.body);
    await checkAssignment(me, body.role, body.storeIds);
    if (body.password) await checkStaffPassword(db, body.password, { email: body.email, name: body.name });
    const at = now();
    let id: number;
    try {
      id = await createMember(
        db,
        { email: body.email, name: body.name, role: body.role, storeIds: body.storeIds, password: body.password },
        at,
      );
    } catch (error) {
      if (error instanceof EmailTakenError) throw new ApiError(409, MANAGE_MESSAGES.emailTaken, { errorCode: 'email_taken' });
      throw error;
    }
    if (!body.password) await sendInvite(request, { id, email: body.email, name: body.name }, me, at);
    return ok((await staffView(db, id)) as StaffView);
  });

  /** A new link to set a password (7 days), mailed; it voids the member's earlier links (issueStaffReset). */
  async function sendInvite(request: FastifyRequest, member: { id: number; email: string; name: string }, me: StaffContext, at: Date) {
    const token = await issueStaffReset(db, member.id, at, STAFF_INVITE_TTL_MS);
    await deps
      .mailer()
      .send({
        to: member.email,
        subject: 'Your Verdant console account',
        text: `Hello ${member.name},\n\n${me.name} added you to the store console. Open this link within 7 days to set your password:\n${resetUrl(request.store.url, token)}\n`,
      })
      .catch((err: unknown) => request.log.warn({ err }, 'staff invitation mail failed'));
  }

  /**
   * Resend the invitation of a member who has not set a password yet: a new link, the earlier one
   * void at once (one live link per member). Counted per member before anything is sent, so a burst
   * of clicks sends one mail.
   */
  app.post('/api/console/staff/:staffId/resend-invite', MANAGE, async (request) => {
    const me = staffOf(request);
    const { staffId } = parseOr400(staffIdParams, request.params);
    const target = await staffView(db, staffId);
    if (!target || !mayManage(me, target.role, target.storeIds))
      throw new ApiError(404, MANAGE_MESSAGES.notFound, { errorCode: 'not_found' });
    if (target.disabled) throw new ApiError(409, MANAGE_MESSAGES.inviteDisabled, { errorCode: 'member_disabled' });
    if (!target.invitePending) throw new ApiError(409, MANAGE_MESSAGES.inviteNotPending, { errorCode: 'invite_not_pending' });
    // Counted per minute and per day of the app's clock (shared counters: one mail for a burst on any node).
    const at = now();
    const minute = Math.floor(at.getTime() / 60_000);
    const day = Math.floor(minute / (24 * 60));
    if (!(await deps.limiter().hit(`staff-invite-minute:${staffId}:${minute}`, INVITE_RESEND_LIMITS.perMinute, 2 * 60_000)))
      throw new ApiError(429, MANAGE_MESSAGES.inviteTooSoon, { errorCode: 'rate_limited' });
    if (!(await deps.limiter().hit(`staff-invite-day:${staffId}:${day}`, INVITE_RESEND_LIMITS.perDay, 2 * 24 * 60 * 60_000)))
      throw new ApiError(429, MANAGE_MESSAGES.inviteTooMany, { errorCode: 'rate_limited' });
    await sendInvite(request, target, me, at);
    return ok({ message: MANAGE_MESSAGES.inviteSent(target.email), member: target } satisfies ResendInviteAnswer);
  });

  app.patch('/api/console/staff/:staffId', MANAGE, async (request) => {
    const me = staffOf(request);
    const { staffId } = parseOr400(staffIdParams, request.params);
    const body = parseOr400(patchStaffBody, request.body);
    const target = await staffView(db, staffId);
    // A member the manager may not manage is as unknown as a missing one.
    if (!target || !mayManage(me, target.role, target.storeIds))
      throw new ApiError(404, MANAGE_MESSAGES.notFound, { errorCode: 'not_found' });
    if (target.id === me.id && (body.disabled === true || (body.role !== undefined && body.role !== target.role)))
      throw new ApiError(400, MANAGE_MESSAGES.self, { errorCode: 'self_change' });
    const role = body.role ?? target.role;
    const changesAccess = body.role !== undefined || body.storeIds !== undefined;
    const storeIds = body.storeIds ?? (target.role === 'owner' ? [] : target.storeIds);
    if (changesAccess) await checkAssignment(me, role, storeIds);
    const at = now();
    const iso = at.toISOString();
    await db.transaction().execute(async (trx) => {
      const set: Partial<{ name: string; role: StaffRole; disabled_at: string | null; updated_at: string }> = { updated_at: iso };
      if (body.name !== undefined) set.name = body.name;
      if (body.role !== undefined) set.role = body.role;
      if (body.disabled !== undefined) set.disabled_at = body.disabled ? (target.disabled ? undefined : iso) : null;
      if (set.disabled_at === undefined) delete set.disabled_at;
      await trx.updateTable('staff').set(set).where('id', '=', staffId).execute();
      if (changesAccess) await setStores(trx, staffId, role, storeIds);
      if (body.disabled === true) await revokeAllSessions(trx, staffId, at);
    });
    // After the commit: every node re-checks this member's open streams now.
    if (changesAccess || body.disabled === true) staffAccessOf(app).changed(staffId);
    return ok((await staffView(db, staffId)) as StaffView);
  });
}
