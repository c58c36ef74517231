/**
 * `npm run staff -- <command>`: staff accounts from the command line, for the first owner of a
 * deployment and for a member locked out of their e-mail. Opens the database the server would
 * use (SQLite under DATA_DIR, or DATABASE_URL), migrates it and brings the stores table up to the
 * stores file first, as `npm start` does.
 *
 *   add --email a@b.c --role owner|manager|budtender|driver [--name N] [--password P] [--stores downtown,eastside]
 *       (--name: at least 2 letters, as every person's name; default: the e-mail's local part's letters)
 *   list
 *   reset-password --email a@b.c
 *
 * Without --password, `add` prints a one-time link (valid 7 days) to set the password; so does
 * `reset-password` (valid 1 hour). A password given with --password lands in the shell history:
 * prefer the link.
 */
import { runWhenMain } from './run.ts';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfig } from '../config.ts';
import { createDatabase, migrateToLatest, syncStores } from '../db/index.ts';
import { readStoresFile } from '../seed/index.ts';
import { createMember, EmailTakenError, emailSchema, listStaff, nameSchema, passwordSchema, roleSchema } from '../staff/members.ts';
import { issueStaffReset, resetUrl, STAFF_INVITE_TTL_MS } from '../staff/password-reset.ts';
import { passwordProblem, storeWords } from '../staff/password-strength.ts';

export const STAFF_USAGE = [
  'Usage:',
  '  npm run staff -- add --email a@b.c --role owner|manager|budtender|driver [--name N] [--password P] [--stores downtown,eastside]',
  '  npm run staff -- list',
  '  npm run staff -- reset-password --email a@b.c',
].join('\n');

export type StaffCommand =
  | { command: 'add'; email: string; role: 'owner' | 'manager' | 'budtender' | 'driver'; name: string; password?: string; stores: string[] }
  | { command: 'list' }
  | { command: 'reset-password'; email: string };

function check<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${what}: ${parsed.error.issues[0]?.message ?? 'invalid'}\n${STAFF_USAGE}`);
  return parsed.data;
}

/**
 * Without --name, a name from the e-mail's local part: its runs of letters, capitalised
 * ("jane.doe+shop@…" → "Jane Doe Shop"). When that is not a name by the rule (fewer than 2
 * letters, e.g. "j7@…"), --name is required.
 */
export function defaultName(email: string): string {
  const words = (email.split('@')[0].match(/\p{L}+/gu) ?? []).map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  const parsed = nameSchema.safeParse(words.join(' '));
  if (!parsed.success)
    throw new Error(`--name: the e-mail gives no name of at least 2 letters; please give one with --name\n${STAFF_USAGE}`);
  return parsed.data;
}

/** Parse the command line; throws with the usage text on bad input. */
export function parseStaffArgs(argv: string[]): StaffCommand {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      stores: { type: 'string' },
    },
    strict: true,
  });
  if (command === 'list') return { command };
  if (command === 'reset-password') return { command, email: check(emailSchema, values.email, '--email') };
  if (command !== 'add') throw new Error(STAFF_USAGE);
  const email = check(emailSchema, values.email, '--email');
  const role = check(roleSchema, values.role, '--role');
  const name = values.name === undefined ? defaultName(email) : check(nameSchema, values.name, '--name');
  const password = values.password === undefined ? undefined : check(passwordSchema, values.password, '--password');
  const stores = (values.stores ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (role !== 'owner' && stores.length === 0) throw new Error(`--stores: a ${role} needs at least one store code\n${STAFF_USAGE}`);
  return { command, email, role, name, password, stores };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) return console.log(STAFF_USAGE);
  const args = parseStaffArgs(argv);
  const config = loadConfig();
  const storesFile = readStoresFile(config.storesFile);
  const { db, destroy } = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(db);
    await syncStores(db, storesFile);
    const stores = await db.selectFrom('stores').select(['id', 'code', 'settings']).orderBy('id').execute();
    const base = storesFile.stores[0]?.url ?? '';
    const now = new Date();
    if (args.command === 'list') {
      const members = await listStaff(db);
      if (members.length === 0) console.log('No staff yet. Add the first owner: npm run staff -- add --email you@example.com --role owner');
      for (const m of members) {
        const where =
          m.role === 'owner'
            ? 'every store'
            : stores
                .filter((s) => m.storeIds.includes(s.id))
                .map((s) => s.code)
                .join(',');
        const flags = [m.totpEnabled ? 'totp' : '', m.disabled ? 'disabled' : ''].filter(Boolean).join(' ');
        console.log(
          `${String(m.id).padStart(4)}  ${m.email.padEnd(36)} ${m.role.padEnd(9)} ${m.name.padEnd(24)} ${where}${flags ? `  [${flags}]` : ''}`,
        );
      }
      return;
    }
    if (args.command === 'reset-password') {
      const member = await db.selectFrom('staff').select(['id', 'disabled_at']).where('email', '=', args.email).executeTakeFirst();
      if (!member) throw new Error(`No staff member with the e-mail ${args.email}.`);
      if (member.disabled_at !== null) throw new Error(`${args.email} is disabled; enable them in the console first.`);
      const token = await issueStaffReset(db, member.id, now);
      console.log(`One-time link for ${args.email} (valid 1 hour):\n${resetUrl(base, token)}`);
      return;
    }
    const unknown = args.stores.filter((code) => !stores.some((s) => s.code === code));
    if (unknown.length > 0) throw new Error(`Unknown store code(s): ${unknown.join(', ')}. Known: ${stores.map((s) => s.code).join(', ')}`);
    const storeIds = stores.filter((s) => args.stores.includes(s.code)).map((s) => s.id);
    if (args.password) {
      const problem = await passwordProblem(args.password, { email: args.email, name: args.name, stores: await storeWords(db) });
      if (problem) throw new Error(`--password: ${problem}`);
    }
    let id: number;
    try {
      id = await createMember(db, { email: args.email, name: args.name, role: args.role, storeIds, password: args.password }, now);
    } catch (error) {
      if (error instanceof EmailTakenError) throw new Error(error.message);
      throw error;
    }
    console.log(
      `Added ${args.role} ${args.email} (staff ${id})${args.role === 'owner' ? ', every store' : `, stores ${args.stores.join(',')}`}.`,
    );
    if (!args.password) {
      const token = await issueStaffReset(db, id, now, STAFF_INVITE_TTL_MS);
      console.log(`One-time link to set the password (valid 7 days):\n${resetUrl(base, token)}`);
    }
  } finally {
    await destroy();
  }
}

runWhenMain(import.meta.url, () => main());
