/**
 * Staff password strength (issue 26): wherever a staff password is set (invitation link, reset
 * link, password change, a member created with a password in the console or by `npm run staff`),
 * it must not be the member's e-mail or its name part, a store's name or code, or the documented
 * demo password, and the zxcvbn-ts estimator (its common-password, English dictionaries and
 * keyboard patterns, shipped in the package: no outside call) must rate it at least MIN_SCORE of 4,
 * with the member's e-mail, name and the stores' names counted as known words. The demo seed
 * writes its members directly and keeps the documented password; setting it anew is refused.
 */
import type { Kysely, Transaction } from 'kysely';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { DEMO_STAFF_PASSWORD } from './demo.ts';

/** Characters the estimator reads (see zxcvbn() below). */
export const ESTIMATE_CHARS = 32;
/** zxcvbn's 3: "safely unguessable", about 10^8 guesses or more. */
export const MIN_SCORE = 3;

export const PASSWORD_MESSAGES = {
  email: 'The password must not be your e-mail address or its name part. Choose another one.',
  store: "The password must not be a store's name. Choose another one.",
  demo: 'The password must not be the demo password. Choose one of your own.',
  weak: (reason: string | null) =>
    `The password is too easy to guess${reason ? `: ${reason.charAt(0).toLowerCase()}${reason.slice(1).replace(/\.$/, '')}` : ''}. Use three or four unrelated words, or a random password from a password manager.`,
} as const;

export interface PasswordContext {
  email: string;
  name?: string;
  /** Every store's name and code. */
  stores: string[];
}

let estimator: Promise<ZxcvbnFactory> | undefined;

/** Built once, on first use (the dictionaries take ~100 ms to load). */
function zxcvbn(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    // No Levenshtein matching: ~100× slower (hundreds of ms a check) for little gain here.
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
      // The estimate's time grows fast with length (2.4 s of CPU for 200 random characters, on the
      // event loop): only the first ESTIMATE_CHARS are judged (a few ms, at worst ~0.15 s); a longer
      // password is at least as strong as its start.
      maxLength: ESTIMATE_CHARS,
    });
  })();
  return estimator;
}

/** Letters and digits only, lower case: "Ana.Lopez" and "ana lopez!" compare equal. */
const bare = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** What is wrong with the password for this member, or null when it may be set. */
export async function passwordProblem(password: string, ctx: PasswordContext): Promise<string | null> {
  const given = bare(password);
  const local = ctx.email.split('@')[0] ?? '';
  if (given === bare(ctx.email) || (bare(local).length > 0 && given === bare(local))) return PASSWORD_MESSAGES.email;
  if (given === bare(DEMO_STAFF_PASSWORD)) return PASSWORD_MESSAGES.demo;
  if (ctx.stores.some((s) => bare(s).length > 0 && given === bare(s))) return PASSWORD_MESSAGES.store;
  const words = (s: string) => s.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3);
  const known = [
    ctx.email,
    local,
    bare(local),
    ...words(local),
    ...(ctx.name ? [ctx.name, bare(ctx.name), ...words(ctx.name)] : []),
    ...ctx.stores.flatMap((s) => [s, bare(s), ...words(s)]),
    DEMO_STAFF_PASSWORD,
    ...words(DEMO_STAFF_PASSWORD),
    'verdant',
    'console',
    'dispensary',
    'cannabis',
  ];
  const result = (await zxcvbn()).check(password, known);
  if (result.score >= MIN_SCORE) return null;
  return PASSWORD_MESSAGES.weak(result.feedback.warning ?? null);
}

/** Every store's name and code, for the context. */
export async function storeWords(db: Kysely<Database> | Transaction<Database>): Promise<string[]> {
  const rows = await db.selectFrom('stores').select(['name', 'code']).execute();
  return rows.flatMap((r) => [r.name, r.code]);
}

/** Throws 400 `weak_password` with the reason when the password may not be set for this member. */
export async function checkStaffPassword(
  db: Kysely<Database> | Transaction<Database>,
  password: string,
  member: { email: string; name?: string },
): Promise<void> {
  const problem = await passwordProblem(password, { ...member, stores: await storeWords(db) });
  if (problem) throw new ApiError(400, problem, { errorCode: 'weak_password' });
}
