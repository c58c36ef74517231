/**
 * Staff members as the console, the CLI and the demo seed see them: their stores, their public
 * view, creating one, and the password rules.
 */
import type { StaffView } from '@verdant/domain/console-api';
import type { Kysely, Transaction } from 'kysely';
import type { Database, StaffRole } from '../db/schema.ts';
import { hashPassword } from '../users/password-hash.ts';

type Db = Kysely<Database> | Transaction<Database>;

// The request rules and the member's view are the console's contract (@verdant/domain/console-api).
export { emailSchema, nameSchema, PASSWORD_MAX, PASSWORD_MIN, passwordSchema, roleSchema, type StaffView } from '@verdant/domain/console-api';

/** Every store id of the deployment, ascending. */
export async function allStoreIds(db: Db): Promise<number[]> {
  const rows = await db.selectFrom('stores').select('id').orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** The stores a member may touch: owners every store, others their `staff_stores` rows. */
export async function storeIdsOf(db: Db, staffId: number, role: StaffRole): Promise<number[]> {
  if (role === 'owner') return allStoreIds(db);
  const rows = await db.selectFrom('staff_stores').select('store_id').where('staff_id', '=', staffId).orderBy('store_id').execute();
  return rows.map((r) => r.store_id);
}

type StaffRow = {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  totp_enabled_at: string | null;
  disabled_at: string | null;
  password_hash: string | null;
};

export async function viewsOf(db: Db, rows: StaffRow[]): Promise<StaffView[]> {
  if (rows.length === 0) return [];
  const everyStore = await allStoreIds(db);
  const links = await db
    .selectFrom('staff_stores')
    .select(['staff_id', 'store_id'])
    .where(
      'staff_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('store_id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    name: r.name,
    role: r.role,
    storeIds: r.role === 'owner' ? everyStore : links.filter((l) => l.staff_id === r.id).map((l) => l.store_id),
    totpEnabled: r.totp_enabled_at !== null,
    disabled: r.disabled_at !== null,
    invitePending: r.password_hash === null,
  }));
}

// password_hash only to tell whether one is set (the view never carries it).
const VIEW_COLUMNS = ['id', 'email', 'name', 'role', 'totp_enabled_at', 'disabled_at', 'password_hash'] as const;

export async function staffView(db: Db, staffId: number): Promise<StaffView | undefined> {
  const row = await db.selectFrom('staff').select(VIEW_COLUMNS).where('id', '=', staffId).executeTakeFirst();
  return row ? (await viewsOf(db, [row]))[0] : undefined;
}

export async function listStaff(db: Db): Promise<StaffView[]> {
  return viewsOf(db, await db.selectFrom('staff').select(VIEW_COLUMNS).orderBy('id').execute());
}

export interface NewMember {
  email: string;
  name: string;
  role: StaffRole;
  /** Ignored for owners. */
  storeIds: number[];
  /** Plain text; omitted: no password until the member follows a reset link. */
  password?: string;
}

export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`A staff member with the e-mail ${email} already exists.`);
  }
}

/** Insert a member and their stores in one transaction; EmailTakenError when the e-mail is in use. */
export async function createMember(db: Kysely<Database>, member: NewMember, now: Date): Promise<number> {
  const hash = member.password ? await hashPassword(member.password) : null;
  const iso = now.toISOString();
  try {
    return await insertMember(db, member, hash, iso);
  } catch (error) {
    // Two creations of one e-mail at once: the loser hits the unique index, not the check.
    if (
      !(error instanceof EmailTakenError) &&
      (await db.selectFrom('staff').select('id').where('email', '=', member.email).executeTakeFirst())
    )
      throw new EmailTakenError(member.email);
    throw error;
  }
}

async function insertMember(db: Kysely<Database>, member: NewMember, hash: string | null, iso: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const taken = await trx.selectFrom('staff').select('id').where('email', '=', member.email).executeTakeFirst();
    if (taken) throw new EmailTakenError(member.email);
    const row = await trx
      .insertInto('staff')
      .values({
        email: member.email,
        name: member.name,
        role: member.role,
        password_hash: hash,
        totp_secret: null,
        totp_enabled_at: null,
        locked_until: null,
        disabled_at: null,
        created_at: iso,
        updated_at: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await setStores(trx, row.id, member.role, member.storeIds);
    return row.id;
  });
}

/** Replace a member's store rows (owners keep none: they touch every store). */
export async function setStores(trx: Db, staffId: number, role: StaffRole, storeIds: number[]): Promise<void> {
  await trx.deleteFrom('staff_stores').where('staff_id', '=', staffId).execute();
  const ids = role === 'owner' ? [] : [...new Set(storeIds)];
  if (ids.length > 0)
    await trx
      .insertInto('staff_stores')
      .values(ids.map((store_id) => ({ staff_id: staffId, store_id })))
      .execute();
}
