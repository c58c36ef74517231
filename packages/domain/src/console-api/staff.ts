/**
 * The console's session, account and staff routes (apps/server/src/staff/console-routes.ts and
 * staff-routes.ts): the request schemas the server validates with, and the answers' shapes.
 */
import { z } from 'zod';
import { firstNameRule } from '../forms.ts';

export const STAFF_ROLES = ['owner', 'manager', 'budtender', 'driver'] as const;
export type Role = (typeof STAFF_ROLES)[number];

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ message: 'Please enter a valid e-mail address.' }));
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, { message: `The password must be at least ${PASSWORD_MIN} characters.` })
  .max(PASSWORD_MAX, { message: `The password must be at most ${PASSWORD_MAX} characters.` });
/** A member's name follows the shoppers' person's-name rule (spec §5: at least 2 letters, letters only). */
export const nameSchema = z
  .string()
  .superRefine((value, ctx) => {
    const problem = firstNameRule(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((value) => value.trim())
  .pipe(z.string().max(100, { message: 'The name is too long (100 characters at most).' }));
export const roleSchema = z.enum(STAFF_ROLES);

/** A staff member as the console shows them (GET /session, GET/POST/PATCH /staff; GET /staff answers a list of them). */
export interface StaffView {
  id: number;
  email: string;
  name: string;
  role: Role;
  /** Owners: every store. */
  storeIds: number[];
  totpEnabled: boolean;
  disabled: boolean;
  /** Invited and has not set a password yet (the console offers "Resend invite"). */
  invitePending: boolean;
}

/** POST /session (log in). */
export const loginBody = z.object({
  email: emailSchema,
  password: z.string().min(1).max(1000),
  totp: z.string().trim().max(12).optional(),
  unlock: z.string().max(200).optional(),
});
export type LoginRequest = z.input<typeof loginBody>;

/** POST /session, GET /session. */
export interface SessionAnswer {
  staff: StaffView;
  csrfToken: string;
}

/**
 * DELETE /session (log out here) and POST /session/logout-all (every session of this member): no
 * body; the answer's result is a sentence, and the session cookie is cleared.
 */
export type LogoutAnswer = string;

/** GET /stores: the member's stores. */
export interface ConsoleStore {
  id: number;
  code: string;
  name: string;
  timezone: string;
  /** The two-letter code of the state in the store's address ("CA", "MA"); null when the address has none. */
  region: string | null;
}

/** POST /password-reset. */
export const resetBody = z.object({ email: emailSchema });
export type PasswordResetRequest = z.input<typeof resetBody>;
/** POST /password-reset/confirm. */
export const resetConfirmBody = z.object({ token: z.string().min(1).max(200), password: passwordSchema });
export type PasswordResetConfirmRequest = z.input<typeof resetConfirmBody>;
/** POST /me/password. */
export const changePasswordBody = z.object({ current: z.string().min(1).max(1000), password: passwordSchema });
export type ChangePasswordRequest = z.input<typeof changePasswordBody>;

/** POST /me/totp/enable and POST /me/totp/disable. */
export const totpCodeBody = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, { message: 'Enter the 6-digit code.' }),
});
export type TotpCodeRequest = z.input<typeof totpCodeBody>;
/** POST /me/totp/setup. */
export interface TotpSetupAnswer {
  secret: string;
  uri: string;
}
/** POST /me/totp/enable and POST /me/totp/disable. */
export interface TotpStateAnswer {
  totpEnabled: boolean;
}

const storeIdsSchema = z.array(z.number().int().positive()).max(500);
/** POST /staff. */
export const createStaffBody = z.object({
  email: emailSchema,
  name: nameSchema,
  role: roleSchema,
  storeIds: storeIdsSchema.default([]),
  password: passwordSchema.optional(),
});
export type CreateStaffRequest = z.input<typeof createStaffBody>;
/** PATCH /staff/:staffId. */
export const patchStaffBody = z
  .object({
    name: nameSchema.optional(),
    role: roleSchema.optional(),
    storeIds: storeIdsSchema.optional(),
    disabled: z.boolean().optional(),
  })
  .strict();
export type PatchStaffRequest = z.input<typeof patchStaffBody>;
export const staffIdParams = z.object({
  staffId: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
});
/** POST /staff/:staffId/resend-invite. */
export interface ResendInviteAnswer {
  message: string;
  member: StaffView;
}
