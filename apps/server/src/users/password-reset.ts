/**
 * Password reset tokens and the reset mail (spec §7 reset-password / create-password, route
 * /create-password of §2).
 *
 * A token is 256 random bits (base64url), valid RESET_TTL_MS = 1 hour: long enough to switch to
 * the mail app and back on a slow day, short enough that an old mail lying in an inbox is useless.
 * Only its sha256 is stored; it is single use, and a new request voids the customer's earlier
 * unused tokens, so at most one link works at a time. It is checked against the customer's own
 * unused tokens with timingSafeEqual, so the answer time does not depend on the token's bytes.
 *
 * The link points at the store's configured URL (`store.url`), never at the Host header of the
 * request: a forged Host (or X-Forwarded-Host, trusted behind the proxy) would otherwise make us
 * mail a real customer a link to an attacker's site carrying a valid token ("reset poisoning").
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Store } from '@verdant/domain';
import type { Database } from '../db/schema.ts';
import type { MailMessage } from '../mail/mailer.ts';

type Db = Kysely<Database>;

export const RESET_TTL_MS = 60 * 60 * 1000;

function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** A new reset token for a customer (plain text, mailed once); earlier unused ones stop working. */
export async function issueResetToken(db: Db, storeId: number, customerId: number, now: Date): Promise<{ token: string; id: number }> {
  const iso = now.toISOString();
  const token = randomBytes(32).toString('base64url');
  return db.transaction().execute(async (trx) => {
    // Keep the table small: the customer's expired rows are of no use any more.
    await trx.deleteFrom('password_reset_tokens').where('customer_id', '=', customerId).where('expires_at', '<=', iso).execute();
    await trx.updateTable('password_reset_tokens').set({ used_at: iso }).where('customer_id', '=', customerId).where('used_at', 'is', null).execute();
    const row = await trx
      .insertInto('password_reset_tokens')
      .values({
        store_id: storeId,
        customer_id: customerId,
        token_hash: tokenHash(token).toString('hex'),
        expires_at: new Date(now.getTime() + RESET_TTL_MS).toISOString(),
        used_at: null,
        created_at: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { token, id: row.id };
  });
}

/** Void one token (its mail could not be sent). */
export async function voidResetToken(db: Db, id: number, now: Date): Promise<void> {
  await db.updateTable('password_reset_tokens').set({ used_at: now.toISOString() }).where('id', '=', id).where('used_at', 'is', null).execute();
}

export type ResetTokenCheck = { status: 'valid'; id: number } | { status: 'invalid' } | { status: 'expired' };

/** Whether `token` is an unused token of this customer, and still valid at `now`. */
export async function checkResetToken(db: Db, storeId: number, customerId: number, token: string, now: Date): Promise<ResetTokenCheck> {
  const rows = await db
    .selectFrom('password_reset_tokens')
    .select(['id', 'token_hash', 'expires_at'])
    .where('store_id', '=', storeId)
    .where('customer_id', '=', customerId)
    .where('used_at', 'is', null)
    .execute();
  const given = tokenHash(token);
  let match: (typeof rows)[number] | undefined;
  for (const row of rows) {
    const stored = Buffer.from(row.token_hash, 'hex');
    // No early exit: every unused row is compared, in constant time each.
    if (stored.length === given.length && timingSafeEqual(stored, given) && !match) match = row;
  }
  if (!match) return { status: 'invalid' };
  if (new Date(match.expires_at).getTime() <= now.getTime()) return { status: 'expired' };
  return { status: 'valid', id: match.id };
}

/** Mark a token used; false when a concurrent request used it first (single use). */
export async function consumeResetToken(db: Db, id: number, now: Date): Promise<boolean> {
  const done = await db.updateTable('password_reset_tokens').set({ used_at: now.toISOString() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

/**
 * `{store url}{store-code prefix}{path}`: a link into the store's own site for a mail. The prefix
 * is the one the request came in with, or the store's own when it appends its code to paths (spec §2).
 */
export function storeSiteUrl(store: Pick<Store, 'url' | 'storeCode' | 'appendStoreCode'>, pathPrefix: string, path: string): string {
  const site = new URL(store.url);
  const sitePath = site.pathname.replace(/\/+$/, '');
  const prefix = pathPrefix || (store.appendStoreCode ? `/${store.storeCode}` : '');
  // A store URL that already ends in its code (https://example.com/eastside) keeps one copy.
  const base = prefix && !sitePath.endsWith(prefix) ? `${sitePath}${prefix}` : sitePath;
  return `${site.origin}${base}${path}`;
}

/** `{store url}{store-code prefix}/create-password?email=…&token=…`. */
export function resetLink(store: Pick<Store, 'url' | 'storeCode' | 'appendStoreCode'>, pathPrefix: string, email: string, token: string): string {
  return storeSiteUrl(store, pathPrefix, `/create-password?${new URLSearchParams({ email, token })}`);
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function resetMail(store: Pick<Store, 'name'>, to: string, link: string): MailMessage {
  const text = [
    `Hello,`,
    ``,
    `someone (hopefully you) asked to reset the password of your ${store.name} account.`,
    `Open this link within 1 hour to create a new password:`,
    ``,
    link,
    ``,
    `The link works once. If you did not ask for this, ignore this e-mail: your password stays as it is.`,
  ].join('\n');
  const html =
    `<p>Hello,</p><p>someone (hopefully you) asked to reset the password of your ${escapeHtml(store.name)} account. ` +
    `Open this link within 1 hour to create a new password:</p>` +
    `<p><a href="${escapeHtml(link)}">Create a new password</a></p>` +
    `<p>The link works once. If you did not ask for this, ignore this e-mail: your password stays as it is.</p>`;
  return { to, subject: `Reset your ${store.name} password`, text, html };
}
