/**
 * Product reviews (issue 30 "Reviews"): the rules the routes apply, on either database.
 *  - Who may write: a customer with a `completed` order of this store holding the product (any size of
 *    a configurable: the line's product, its sku or its parent sku). Checked on every write.
 *  - Once per product: the unique key (store, customer, product) of `reviews`; a write is an
 *    INSERT … ON CONFLICT DO UPDATE, so two parallel first writes make one row, and an edit sends the
 *    review back to `pending` with new flags.
 *  - Helpful once per customer: the vote's primary key (review, voter); the count moves only when the
 *    vote row was inserted, in the same transaction.
 *  - Averages: `review_product_stats` is recomputed from the approved rows of the product in the
 *    transaction of every change of status or content (approve, reject, edit), so it never drifts.
 * Pages show only `approved` reviews. The switch is the settings section `reviews` (./section.ts).
 */
import type { Kysely } from 'kysely';
import {
  REVIEW_MESSAGES,
  REVIEWS_PAGE_SIZE,
  moderationFlags,
  moderationRuleName,
  productPath,
  reviewAuthor,
  roundAverage,
  type ModerationFlag,
  type MyReview,
  type MyReviewOfProduct,
  type ProductReviewsPage,
  type PublishedReview,
  type ReviewInputParsed,
  type ReviewSort,
  type ReviewStatus,
  type ReviewSummary,
  type Store,
} from '@verdant/domain';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { sectionOf } from '../store-settings/read.ts';
import { REVIEWS_SECTION } from './section.ts';

type Db = Kysely<Database>;

export interface ReviewedProduct {
  id: number;
  sku: string;
  name: string;
  slug: string;
}

export async function reviewsEnabled(db: Db, store: Store): Promise<boolean> {
  return (await sectionOf(db, store, REVIEWS_SECTION)).value.enabled;
}

async function assertEnabled(db: Db, store: Store): Promise<void> {
  if (!(await reviewsEnabled(db, store))) throw new ApiError(403, REVIEW_MESSAGES.reviewsOff, { errorCode: 'reviews_off' });
}

/** A product a shopper can open (not a configurable's child), by sku. */
export async function productOf(db: Db, storeId: number, sku: string): Promise<ReviewedProduct | null> {
  const row = await db
    .selectFrom('products')
    .select(['id', 'sku', 'name', 'slug'])
    .where('store_id', '=', storeId)
    .where('sku', '=', sku)
    .where('parent_id', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}

async function requireProduct(db: Db, storeId: number, sku: string): Promise<ReviewedProduct> {
  const product = await productOf(db, storeId, sku);
  if (!product) throw new ApiError(404, REVIEW_MESSAGES.productNotFound, { errorCode: 'product_not_found' });
  return product;
}

/** Whether the customer has a completed order of the store holding the product (any of its sizes). */
export async function hasBought(db: Db, storeId: number, customerId: number, product: ReviewedProduct): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .innerJoin('order_items', 'order_items.order_id', 'orders.id')
    .select('orders.id')
    .where('orders.store_id', '=', storeId)
    .where('orders.customer_id', '=', customerId)
    .where('orders.status', '=', 'completed')
    .where((eb) =>
      eb.or([
        eb('order_items.product_id', '=', product.id),
        eb('order_items.sku', '=', product.sku),
        eb('order_items.parent_sku', '=', product.sku),
        eb('order_items.product_id', 'in', eb.selectFrom('products').select('id').where('parent_id', '=', product.id).where('store_id', '=', storeId)),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

const list = (json: string): string[] => {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

export function flagsOf(json: string): ModerationFlag[] {
  try {
    const v: unknown = JSON.parse(json);
    if (!Array.isArray(v)) return [];
    return v.flatMap((f: { rule?: unknown; matches?: unknown }) =>
      typeof f?.rule === 'string' ? [{ rule: f.rule as ModerationFlag['rule'], name: moderationRuleName(f.rule), matches: Array.isArray(f.matches) ? f.matches.map(String) : [] }] : [],
    );
  } catch {
    return [];
  }
}

/**
 * Recompute a product's published count and star sum from its approved rows (inside the change's
 * transaction). True when they changed: the product's rating in the catalogue must then be
 * refreshed after the commit (issue 30: cards, sort and filter by rating).
 */
export async function recomputeStats(trx: Db, storeId: number, productId: number, iso: string): Promise<boolean> {
  const before = await trx
    .selectFrom('review_product_stats')
    .select(['review_count', 'star_sum'])
    .where('store_id', '=', storeId)
    .where('product_id', '=', productId)
    .executeTakeFirst();
  const agg = await trx
    .selectFrom('reviews')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('stars').as('s')])
    .where('store_id', '=', storeId)
    .where('product_id', '=', productId)
    .where('status', '=', 'approved')
    .executeTakeFirstOrThrow();
  const values = { review_count: Number(agg.n ?? 0), star_sum: Number(agg.s ?? 0), updated_at: iso };
  await trx
    .insertInto('review_product_stats')
    .values({ store_id: storeId, product_id: productId, ...values })
    .onConflict((oc) => oc.columns(['store_id', 'product_id']).doUpdateSet(values))
    .execute();
  return Number(before?.review_count ?? 0) !== values.review_count || Number(before?.star_sum ?? 0) !== values.star_sum;
}

/** Called after the commit of a change that moved a product's rating (the catalogue reindexes it on every node). */
export type RatingChanged = (storeId: number, productId: number) => Promise<void>;

export async function summaryOf(db: Db, storeId: number, productId: number): Promise<ReviewSummary> {
  const row = await db.selectFrom('review_product_stats').select(['review_count', 'star_sum']).where('store_id', '=', storeId).where('product_id', '=', productId).executeTakeFirst();
  return row ? { average: roundAverage(row.star_sum, row.review_count), count: row.review_count } : { average: 0, count: 0 };
}

export function myReviewView(
  r: { id: number; sku: string; stars: number; title: string; text: string; effects: string; flavours: string; status: ReviewStatus; reject_reason: string | null; helpful_count: number; created_at: string; updated_at: string },
  product: { name: string; slug: string },
): MyReview {
  return {
    id: r.id,
    sku: r.sku,
    product_name: product.name,
    path: productPath({ sku: r.sku, slug: product.slug }),
    stars: r.stars,
    title: r.title,
    text: r.text,
    effects: list(r.effects),
    flavours: list(r.flavours),
    status: r.status,
    reject_reason: r.status === 'rejected' ? r.reject_reason : null,
    helpful_count: r.helpful_count,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/**
 * Write (or edit) the customer's review of a product: refused when reviews are off, the product is
 * unknown or the customer did not buy it; otherwise one row per (store, customer, product), pending.
 */
export async function writeReview(
  db: Db,
  store: Store,
  customerId: number,
  sku: string,
  input: ReviewInputParsed,
  now: Date,
  ratingChanged?: RatingChanged,
): Promise<MyReview> {
  await assertEnabled(db, store);
  const product = await requireProduct(db, store.storeId, sku);
  if (!(await hasBought(db, store.storeId, customerId, product))) throw new ApiError(403, REVIEW_MESSAGES.notBuyer, { errorCode: 'not_a_buyer' });
  const iso = now.toISOString();
  const content = {
    stars: input.stars,
    title: input.title,
    text: input.text,
    effects: JSON.stringify(input.effects),
    flavours: JSON.stringify(input.flavours),
    flags: JSON.stringify(moderationFlags([input.title, input.text])),
  };
  let moved = false;
  const review = await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('reviews')
      .values({ store_id: store.storeId, product_id: product.id, sku: product.sku, customer_id: customerId, ...content, status: 'pending', created_at: iso, updated_at: iso })
      .onConflict((oc) =>
        oc.columns(['store_id', 'customer_id', 'product_id']).doUpdateSet((eb) => ({
          ...content,
          sku: product.sku,
          status: 'pending',
          version: eb('reviews.version', '+', 1),
          updated_at: iso,
          moderated_at: null,
          moderated_by: null,
          reject_reason: null,
        })),
      )
      .execute();
    // An edit of a published review takes it off the page until approved again.
    moved = await recomputeStats(trx, store.storeId, product.id, iso);
    const row = await trx
      .selectFrom('reviews')
      .selectAll()
      .where('store_id', '=', store.storeId)
      .where('customer_id', '=', customerId)
      .where('product_id', '=', product.id)
      .executeTakeFirstOrThrow();
    return myReviewView(row, product);
  });
  if (moved) await ratingChanged?.(store.storeId, product.id);
  return review;
}

/** The approved reviews of a product, newest or most helpful first, a page at a time, with the average and count. */
export async function productReviews(db: Db, store: Store, sku: string, sort: ReviewSort, page: number): Promise<ProductReviewsPage | null> {
  const base = { sort, page, page_size: REVIEWS_PAGE_SIZE };
  if (!(await reviewsEnabled(db, store))) return { enabled: false, summary: { average: 0, count: 0 }, items: [], ...base };
  const product = await productOf(db, store.storeId, sku);
  if (!product) return null;
  const summary = await summaryOf(db, store.storeId, product.id);
  if (summary.count === 0) return { enabled: true, summary, items: [], ...base };
  let query = db
    .selectFrom('reviews')
    .innerJoin('customers', 'customers.id', 'reviews.customer_id')
    .select(['reviews.id', 'reviews.stars', 'reviews.title', 'reviews.text', 'reviews.effects', 'reviews.flavours', 'reviews.helpful_count', 'reviews.updated_at', 'customers.firstname', 'customers.lastname'])
    .where('reviews.store_id', '=', store.storeId)
    .where('reviews.product_id', '=', product.id)
    .where('reviews.status', '=', 'approved');
  query = sort === 'helpful' ? query.orderBy('reviews.helpful_count', 'desc').orderBy('reviews.updated_at', 'desc') : query.orderBy('reviews.updated_at', 'desc');
  const rows = await query
    .orderBy('reviews.id', 'desc')
    .limit(REVIEWS_PAGE_SIZE)
    .offset((page - 1) * REVIEWS_PAGE_SIZE)
    .execute();
  const items: PublishedReview[] = rows.map((r) => ({
    id: r.id,
    stars: r.stars,
    title: r.title,
    text: r.text,
    effects: list(r.effects),
    flavours: list(r.flavours),
    author: reviewAuthor(r.firstname, r.lastname),
    verified_buyer: true,
    helpful_count: r.helpful_count,
    created_at: r.updated_at,
  }));
  return { enabled: true, summary, items, ...base };
}

/** The customer's reviews in this store, newest first, with their status and product page (the account's "My reviews"). */
export async function myReviews(db: Db, storeId: number, customerId: number): Promise<MyReview[]> {
  const rows = await db
    .selectFrom('reviews')
    .leftJoin('products', 'products.id', 'reviews.product_id')
    .selectAll('reviews')
    .select(['products.name as product_name', 'products.slug as product_slug'])
    .where('reviews.store_id', '=', storeId)
    .where('reviews.customer_id', '=', customerId)
    .orderBy('reviews.updated_at', 'desc')
    .orderBy('reviews.id', 'desc')
    .execute();
  return rows.map((r) => myReviewView(r, { name: r.product_name ?? r.sku, slug: r.product_slug ?? '' }));
}

/** Whether the customer may review the product, and their review of it. */
export async function myReviewOf(db: Db, store: Store, customerId: number, sku: string): Promise<MyReviewOfProduct> {
  const product = await requireProduct(db, store.storeId, sku);
  const enabled = await reviewsEnabled(db, store);
  const row = await db.selectFrom('reviews').selectAll().where('store_id', '=', store.storeId).where('customer_id', '=', customerId).where('product_id', '=', product.id).executeTakeFirst();
  return { can_review: enabled && (await hasBought(db, store.storeId, customerId, product)), review: row ? myReviewView(row, product) : null };
}

/** Mark an approved review helpful: once per customer (the vote's key); answers the count. */
export async function voteHelpful(db: Db, store: Store, customerId: number, reviewId: number, now: Date): Promise<{ helpful_count: number; counted: boolean }> {
  await assertEnabled(db, store);
  const review = await db.selectFrom('reviews').select(['id', 'customer_id', 'status']).where('id', '=', reviewId).where('store_id', '=', store.storeId).executeTakeFirst();
  if (!review || review.status !== 'approved') throw new ApiError(404, REVIEW_MESSAGES.reviewNotFound, { errorCode: 'review_not_found' });
  if (review.customer_id === customerId) throw new ApiError(403, REVIEW_MESSAGES.ownReview, { errorCode: 'own_review' });
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('review_votes')
      .values({ review_id: reviewId, customer_id: customerId, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['review_id', 'customer_id']).doNothing())
      .executeTakeFirst();
    const counted = Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
    if (counted) await trx.updateTable('reviews').set((eb) => ({ helpful_count: eb('helpful_count', '+', 1) })).where('id', '=', reviewId).execute();
    const { helpful_count } = await trx.selectFrom('reviews').select('helpful_count').where('id', '=', reviewId).executeTakeFirstOrThrow();
    return { helpful_count, counted };
  });
}
