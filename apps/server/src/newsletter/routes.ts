/**
 * Newsletter (spec §7 Newsletter calls), per store, by e-mail — only for someone who may read and
 * change that address's subscription (issue 10):
 *   - a customer session (Bearer): the customer's own e-mail (`email`, when sent, must be it);
 *   - a signed link (`linkToken`, auth/tokens.ts: the address, the store and an expiry, HS256),
 *     which only a mail this server sent to the address carries (the unsubscribe link).
 *   GET    /api/newsletter[?email=|?linkToken=] → {isSubscribed, email}
 *   POST   {email?, linkToken?}                 → subscribes; already subscribed is skipped, still 200
 *   DELETE {email?, linkToken?}                 → unsubscribes; not subscribed is skipped, still 200
 * Anonymous callers (no session, or a guest session): GET and DELETE are 401 and say nothing about
 * the address. An anonymous POST {email} is accepted with one answer whatever the state
 * (`{accepted: true}`, spec: success is code 200); a newly subscribed address gets a mail with its
 * unsubscribe link, so whoever typed someone else's address, the owner can leave again. Anonymous
 * subscribes are limited per client IP (they send mail).
 * The row stays on unsubscribe (subscribed = 0) so the history of consent is kept.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Store } from '@verdant/domain';
import { accountsOf, authOf } from '../auth/context.ts';
import { AUTH_MESSAGES, signNewsletterLink, verifyNewsletterLink } from '../auth/tokens.ts';
import { parseOr400 } from '../http/parse.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { emailSchema, findById } from '../users/customers.ts';
import { newsletterLink, newsletterMail } from './mail.ts';

const HOUR = 60 * 60 * 1000;
export const ANONYMOUS_SUBSCRIBES_PER_IP_PER_HOUR = 10;

export const NEWSLETTER_MESSAGES = {
  linkInvalid: 'This newsletter link is invalid or has expired.',
  notYours: 'You can only change the subscription of your own e-mail address.',
  noEmail: 'Please add an e-mail address to your account first.',
  tooMany: 'Too many newsletter requests. Please try again later.',
} as const;

const anyInput = z.object({
  email: emailSchema.optional(),
  linkToken: z.string().min(1, NEWSLETTER_MESSAGES.linkInvalid).max(2000, NEWSLETTER_MESSAGES.linkInvalid).optional(),
});
const anonymousInput = z.object({ email: emailSchema });

type Target = { email: string; customerId: number | null };

export function registerNewsletterRoutes(app: FastifyInstance): void {
  const ctx = () => accountsOf(app);
  const find = (storeId: number, email: string) =>
    ctx().db.selectFrom('newsletter_subscribers').selectAll().where('store_id', '=', storeId).where('email', '=', email).executeTakeFirst();

  /** The address the caller may act on: the session's customer's, or the signed link's; null when anonymous. */
  async function targetOf(request: FastifyRequest, input: z.infer<typeof anyInput>): Promise<Target | null> {
    const c = ctx();
    const claims = await authOf(request);
    if (claims === 'invalid') throw new ApiError(401, AUTH_MESSAGES.tokenInvalid);
    let target: Target | null = null;
    if (claims?.customerId != null) {
      const customer = await findById(c.db, request.store.storeId, claims.customerId);
      if (!customer) throw new ApiError(401, AUTH_MESSAGES.tokenInvalid);
      if (!customer.email) throw new ApiError(400, NEWSLETTER_MESSAGES.noEmail);
      target = { email: customer.email, customerId: customer.id };
    } else if (input.linkToken) {
      const email = await verifyNewsletterLink(c.secret, input.linkToken, request.store.storeId, c.now());
      if (!email) throw new ApiError(400, NEWSLETTER_MESSAGES.linkInvalid);
      target = { email, customerId: null };
    }
    if (target && input.email && input.email !== target.email) throw new ApiError(403, NEWSLETTER_MESSAGES.notYours);
    return target;
  }

  const required = (target: Target | null): Target => {
    if (!target) throw new ApiError(401, AUTH_MESSAGES.tokenRequired);
    return target;
  };

  /** Subscribe; true when the address was not subscribed before. */
  async function subscribe(storeId: number, target: Target): Promise<boolean> {
    const iso = ctx().now().toISOString();
    const row = await find(storeId, target.email);
    if (row?.subscribed === 1) return false;
    const db = ctx().db;
    if (row) await db.updateTable('newsletter_subscribers').set({ subscribed: 1, updated_at: iso }).where('id', '=', row.id).execute();
    else {
      await db
        .insertInto('newsletter_subscribers')
        .values({ store_id: storeId, email: target.email, customer_id: target.customerId, subscribed: 1, created_at: iso, updated_at: iso })
        // A concurrent subscribe of the same address: the unique (store, email) index keeps one row.
        .onConflict((oc) => oc.columns(['store_id', 'email']).doUpdateSet({ subscribed: 1, updated_at: iso }))
        .execute();
    }
    return true;
  }

  /** The welcome mail with the unsubscribe link; not awaited, so the answer takes as long either way. */
  function mailLink(request: FastifyRequest, store: Store, email: string): void {
    const c = ctx();
    void signNewsletterLink(c.secret, store.storeId, email, c.now())
      .then((token) => c.mailer.send(newsletterMail(store, email, newsletterLink(store, request.storePathPrefix, token))))
      .catch((err: unknown) => request.log.warn({ err }, 'newsletter mail failed'));
  }

  app.get(
    '/api/newsletter',
    { config: { docs: { summary: 'Whether my address is subscribed', description: 'The address is the logged-in customer\'s (token) or the one of a signed newsletter link (`linkToken`).', tags: ['Newsletter'], query: anyInput, security: 'customer', errors: { 401: 'No customer token and no link token' } } } },
    async (request) => {
    const target = required(await targetOf(request, parseOr400(anyInput, request.query, 'shopper')));
    const row = await find(request.store.storeId, target.email);
    return ok({ isSubscribed: row?.subscribed === 1, email: target.email });
  });

  app.post(
    '/api/newsletter',
    { config: { docs: { summary: 'Subscribe (anonymous: an e-mail address; a customer: their own)', tags: ['Newsletter'], body: anyInput, security: 'none', errors: { 403: 'Not your address', 429: 'Too many subscriptions from this address' } } } },
    async (request) => {
    const input = parseOr400(anyInput, request.body, 'shopper');
    const store = request.store;
    const target = await targetOf(request, input);
    if (target) {
      const changed = await subscribe(store.storeId, target);
      return ok({ isSubscribed: true, skipped: !changed });
    }
    const { email } = parseOr400(anonymousInput, input, 'shopper');
    // Retry-After: the window's length (it began at the first counted subscribe, so it is over by then).
    if (!(await ctx().limiter.hit(`newsletter-ip:${request.ip}`, ANONYMOUS_SUBSCRIBES_PER_IP_PER_HOUR, HOUR)))
      throw new ApiError(429, NEWSLETTER_MESSAGES.tooMany, { retryAfterSeconds: HOUR / 1000 });
    if (await subscribe(store.storeId, { email, customerId: null })) mailLink(request, store, email);
    return ok({ accepted: true });
  });

  app.delete(
    '/api/newsletter',
    { config: { docs: { summary: 'Unsubscribe my address', description: 'The fields as a JSON body, or in the query when there is no body.', tags: ['Newsletter'], body: anyInput, query: anyInput, security: 'customer', errors: { 401: 'No customer token and no link token', 403: 'Not your address' } } } },
    async (request) => {
    const target = required(await targetOf(request, parseOr400(anyInput, request.body ?? request.query, 'shopper')));
    const row = await find(request.store.storeId, target.email);
    if (row?.subscribed !== 1) return ok({ isSubscribed: false, skipped: true });
    await ctx().db.updateTable('newsletter_subscribers').set({ subscribed: 0, updated_at: ctx().now().toISOString() }).where('id', '=', row.id).execute();
    return ok({ isSubscribed: false, skipped: false });
  });
}
