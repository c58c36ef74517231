/**
 * Newsletter (spec §7 Newsletter calls), per store, by e-mail:
 *   GET    /api/newsletter?email=  → {isSubscribed}
 *   POST   {email}                 → subscribes; already subscribed is skipped, still 200
 *   DELETE {email}                 → unsubscribes; not subscribed is skipped, still 200
 * The row stays on unsubscribe (subscribed = 0) so the history of consent is kept.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { parseOr400 } from '../cart/routes.ts';
import { ok } from '../http/envelope.ts';
import { emailSchema } from '../users/customers.ts';

const emailBody = z.object({ email: emailSchema });

export function registerNewsletterRoutes(app: FastifyInstance, deps: { db: Kysely<Database>; now: () => Date }): void {
  const { db } = deps;
  const find = (storeId: number, email: string) =>
    db.selectFrom('newsletter_subscribers').selectAll().where('store_id', '=', storeId).where('email', '=', email).executeTakeFirst();

  app.get('/api/newsletter', async (request) => {
    const { email } = parseOr400(emailBody, request.query);
    const row = await find(request.store.storeId, email);
    return ok({ isSubscribed: row?.subscribed === 1 });
  });

  app.post('/api/newsletter', async (request) => {
    const { email } = parseOr400(emailBody, request.body);
    const storeId = request.store.storeId;
    const iso = deps.now().toISOString();
    const row = await find(storeId, email);
    if (row?.subscribed === 1) return ok({ isSubscribed: true, skipped: true });
    if (row) await db.updateTable('newsletter_subscribers').set({ subscribed: 1, updated_at: iso }).where('id', '=', row.id).execute();
    else {
      await db
        .insertInto('newsletter_subscribers')
        .values({ store_id: storeId, email, customer_id: null, subscribed: 1, created_at: iso, updated_at: iso })
        // A concurrent subscribe of the same address: the unique (store, email) index keeps one row.
        .onConflict((oc) => oc.columns(['store_id', 'email']).doUpdateSet({ subscribed: 1, updated_at: iso }))
        .execute();
    }
    return ok({ isSubscribed: true, skipped: false });
  });

  app.delete('/api/newsletter', async (request) => {
    const { email } = parseOr400(emailBody, request.body ?? request.query);
    const row = await find(request.store.storeId, email);
    if (row?.subscribed !== 1) return ok({ isSubscribed: false, skipped: true });
    await db.updateTable('newsletter_subscribers').set({ subscribed: 0, updated_at: deps.now().toISOString() }).where('id', '=', row.id).execute();
    return ok({ isSubscribed: false, skipped: false });
  });
}
