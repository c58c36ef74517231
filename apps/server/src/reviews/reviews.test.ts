/**
 * Issue 30 reviews, both databases, through the real routes: only a buyer (a completed order of the
 * store holding the product) may review; once per product, an edit goes back to moderation and off
 * the page; 20 parallel first writes make one review; 20 parallel "helpful" taps count once; the
 * console queue shows the flags, approve and reject keep the average right; the store switch turns
 * everything off.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REVIEW_MESSAGES } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { bearer, loginCustomer } from '../../test-support/cart/testing.ts';
import { JAR, lifecycleHarness, type LifecycleHarness } from '../../test-support/orders/lifecycle/testing.ts';
import { addStaff, loginStaff } from '../../test-support/staff/testing.ts';
import { registry } from '../../test-support/cart/testing.ts';
import { ensureDemoReviews } from '../seed/demo-reviews.ts';

const GOOD = { stars: 5, title: 'Great little jar', text: 'Seals tight, keeps the smell in, looks good on the shelf.', effects: [], flavours: [] };

describeEachDatabase('product reviews', (getDb) => {
  let h: LifecycleHarness;
  let phone = 0;
  beforeAll(async () => {
    h = await lifecycleHarness(getDb());
  });
  afterAll(async () => h?.app.close());

  const call = async (method: 'GET' | 'POST', url: string, token?: string, payload?: unknown) => {
    const res = await h.app.inject({ method, url, headers: { host: 'downtown.localhost', ...(token ? bearer(token) : {}) }, ...(payload ? { payload: payload as object } : {}) });
    return { status: res.statusCode, body: res.json() };
  };
  const customer = () => loginCustomer(h.app, `(916) 555-${String(3000 + ++phone).padStart(4, '0')}`);
  /** A customer with an order of the jar in the given status. */
  const buyer = async (status: 'completed' | 'submitted' = 'completed') => {
    const c = await customer();
    const o = await h.place({ token: c.token, sku: JAR });
    await h.setStatus(o.id, status);
    return c;
  };
  const write = (token: string | undefined, body: unknown = GOOD) => call('POST', `/api/reviews/products/${JAR}`, token, body);
  const published = (query = '') => call('GET', `/api/reviews/products/${JAR}${query}`);
  const decide = (id: number, body: unknown) => h.console('POST', `/api/console/stores/1/reviews/${id}/decision`, body);

  it('lets only a buyer review: not a guest, not a customer without a completed order of the product', async () => {
    expect((await write(undefined)).status).toBe(401);
    const stranger = await customer();
    const refused = await write(stranger.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ result: REVIEW_MESSAGES.notBuyer, errorCode: 'not_a_buyer' });
    expect((await call('GET', `/api/reviews/products/${JAR}/mine`, stranger.token)).body.result).toEqual({ can_review: false, review: null });
    const waiting = await buyer('submitted');
    expect((await write(waiting.token)).body.errorCode).toBe('not_a_buyer');
    expect((await write(waiting.token, { ...GOOD, stars: 6 })).status).toBe(400);

    const b = await buyer();
    const ok = await write(b.token);
    expect(ok.status).toBe(200);
    expect(ok.body.meta.message).toBe('Review submitted for moderation');
    expect(ok.body.result).toMatchObject({ status: 'pending', stars: 5, sku: JAR });
    expect((await call('GET', '/api/reviews/mine', b.token)).body.result.map((r: { status: string }) => r.status)).toEqual(['pending']);
    // Pending reviews are not on the page.
    expect((await published()).body.result).toMatchObject({ enabled: true, summary: { average: 0, count: 0 }, items: [] });
    expect((await write(b.token, GOOD)).status).toBe(200);
    expect(await h.db.selectFrom('reviews').select('id').where('customer_id', '=', b.customerId).execute()).toHaveLength(1);
  });

  it('lists my reviews for the account ("My reviews"): mine only, this store only, newest first, with the product page and the shopper\'s reason', async () => {
    const me = await buyer();
    const other = await buyer();
    const mine = (await write(me.token)).body.result;
    expect((await write(other.token, { ...GOOD, title: 'Not mine at all' })).status).toBe(200);
    // A review of this customer in another store (the store filter, not the token, keeps it out).
    const elsewhere = await h.db.selectFrom('products').select(['id', 'sku']).where('store_id', '=', 2).where('parent_id', 'is', null).executeTakeFirstOrThrow();
    const iso = h.clock.now.toISOString();
    await h.db
      .insertInto('reviews')
      .values({ store_id: 2, product_id: elsewhere.id, sku: elsewhere.sku, customer_id: me.customerId, stars: 3, title: 'Other store', text: 'Written in the other store, not shown here.', created_at: iso, updated_at: iso })
      .execute();
    const product = await h.db.selectFrom('products').select(['name', 'slug']).where('store_id', '=', 1).where('sku', '=', JAR).executeTakeFirstOrThrow();
    const listed = async () => (await call('GET', '/api/reviews/mine', me.token)).body.result as { id: number; title: string; status: string; path: string; product_name: string; reject_reason: string | null }[];
    expect(await listed()).toEqual([expect.objectContaining({ id: mine.id, status: 'pending', product_name: product.name, path: `/p/${JAR}/${product.slug}`, reject_reason: null })]);
    expect(Object.keys((await listed())[0]!)).not.toContain('flags');
    const rejected = await decide(mine.id, { decision: 'reject', reason: 'Please describe the product itself.' });
    expect(rejected.status).toBe(200);
    expect(await listed()).toEqual([expect.objectContaining({ id: mine.id, status: 'rejected', reject_reason: 'Please describe the product itself.' })]);
    expect((await call('GET', '/api/reviews/mine')).status).toBe(401);
  });

  it('keeps one review per product under 20 parallel first writes; approve publishes it, an edit takes it back to moderation', async () => {
    const b = await buyer();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => write(b.token, { ...GOOD, stars: 1 + (i % 5), title: `Jar take ${i}` })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const rows = await h.db.selectFrom('reviews').selectAll().where('customer_id', '=', b.customerId).execute();
    expect(rows).toHaveLength(1);
    const id = rows[0].id;

    const before = (await published()).body.result.summary.count;
    expect((await write(b.token, { ...GOOD, stars: 4 })).status).toBe(200);
    expect((await decide(id, { decision: 'approve' })).status).toBe(200);
    const after = (await published()).body.result;
    expect(after.summary.count).toBe(before + 1);
    expect(after.items[0]).toMatchObject({ id, stars: 4, verified_buyer: true, author: 'A customer' });
    // Decided once: a second click (or a colleague's) is refused.
    expect((await decide(id, { decision: 'reject', reason: 'late' })).body.errorCode).toBe('not_pending');

    // Editing the published review sends it back to moderation and off the page.
    const edited = await write(b.token, { ...GOOD, stars: 2, text: 'Changed my mind: the lid loosens after a week of use.' });
    expect(edited.body.result.status).toBe('pending');
    expect((await published()).body.result.summary.count).toBe(before);
    expect((await h.db.selectFrom('reviews').select('version').where('id', '=', id).executeTakeFirstOrThrow()).version).toBeGreaterThan(1);
  });

  it('shows flagged reviews in the console queue with the rules named; reject keeps them off the page with a reason', async () => {
    const b = await buyer();
    const w = await write(b.token, { ...GOOD, text: 'This jar cures my anxiety, text me at 916-555-0199 for a deal!' });
    const id = w.body.result.id;
    const queue = await h.get('/api/console/stores/1/reviews?status=pending');
    expect(queue.status).toBe(200);
    const item = queue.body.result.items.find((i: { id: number }) => i.id === id);
    expect(item.flags.map((f: { rule: string; name: string }) => [f.rule, f.name])).toEqual([
      ['medical_claim', 'Medical or health claim'],
      ['contact_details', 'Contact details'],
    ]);
    expect(item.flags[1].matches).toContain('916-555-0199');
    expect((await decide(id, { decision: 'reject', reason: '' })).status).toBe(400);
    const rejected = await decide(id, { decision: 'reject', reason: 'Health claims and a phone number are not allowed.' });
    expect(rejected.body.result).toMatchObject({ status: 'rejected', reject_reason: 'Health claims and a phone number are not allowed.', moderated_by: 'Olga Owner' });
    expect((await call('GET', `/api/reviews/products/${JAR}/mine`, b.token)).body.result.review).toMatchObject({ status: 'rejected', reject_reason: 'Health claims and a phone number are not allowed.' });
    // A budtender may not moderate.
    const email = `budtender-reviews-${process.pid}-${getDb().dialect}@t.test`;
    await addStaff(h.db, { email, role: 'budtender', name: 'Bud' });
    const bud = await loginStaff(h.app, email, { ip: '10.99.1.1' });
    expect((await h.get('/api/console/stores/1/reviews', bud)).status).toBe(403);
  });

  it('counts a helpful vote once under a burst of 20 parallel taps, once per customer, never for your own review', async () => {
    const author = await buyer();
    const id = (await write(author.token)).body.result.id;
    await decide(id, { decision: 'approve' });
    const [v1, v2] = [await customer(), await customer()];
    const burst = await Promise.all(Array.from({ length: 20 }, () => call('POST', `/api/reviews/${id}/helpful`, v1.token)));
    expect(burst.map((b) => b.status)).toEqual(Array(20).fill(200));
    expect(burst.filter((b) => b.body.result.counted)).toHaveLength(1);
    expect((await call('POST', `/api/reviews/${id}/helpful`, v2.token)).body.result).toEqual({ helpful_count: 2, counted: true });
    expect((await call('POST', `/api/reviews/${id}/helpful`, author.token)).body.errorCode).toBe('own_review');
    expect((await call('POST', `/api/reviews/${id}/helpful`)).status).toBe(401);
    const votes = await h.db.selectFrom('review_votes').select('customer_id').where('review_id', '=', id).execute();
    expect(votes).toHaveLength(2);
    const top = (await published('?sort=helpful')).body.result.items[0];
    expect(top).toMatchObject({ id, helpful_count: 2 });
  });

  it('shows and takes nothing when the store switches reviews off, and all again when on', async () => {
    const b = await buyer();
    const count = (await published()).body.result.summary.count;
    expect(count).toBeGreaterThan(0);
    const off = await h.console('PUT', '/api/console/stores/1/settings/sections/reviews', { value: { enabled: false }, version: 0 });
    expect(off.status).toBe(200);
    expect((await published()).body.result).toMatchObject({ enabled: false, summary: { count: 0 }, items: [] });
    const refused = await write(b.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ result: REVIEW_MESSAGES.reviewsOff, errorCode: 'reviews_off' });
    expect((await call('GET', `/api/reviews/products/${JAR}/mine`, b.token)).body.result.can_review).toBe(false);
    const on = await h.console('PUT', '/api/console/stores/1/settings/sections/reviews', { value: { enabled: true }, version: off.body.result.version });
    expect(on.status).toBe(200);
    expect((await published()).body.result.summary.count).toBe(count);
    expect((await write(b.token)).status).toBe(200);
  });

  it('seeds the demo: buyers with completed orders, two published reviews and one waiting with a flag, once', async () => {
    expect(await ensureDemoReviews(h.db, registry.stores, h.clock.now)).toBe(6);
    expect(await ensureDemoReviews(h.db, registry.stores, h.clock.now)).toBe(0);
    const rows = await h.db.selectFrom('reviews').innerJoin('customers', 'customers.id', 'reviews.customer_id').select(['reviews.store_id', 'reviews.status', 'reviews.flags', 'customers.created_from']).where('customers.created_from', '=', 'demo_seed').execute();
    expect(rows.filter((r) => r.store_id === 1).map((r) => r.status).sort()).toEqual(['approved', 'approved', 'pending']);
    expect(JSON.parse(rows.find((r) => r.status === 'pending')!.flags)[0].rule).toBe('medical_claim');
  });
});
