/**
 * Product reviews (issue 30 "Reviews"; spec §7 "Review create", §8 "review submitted for
 * moderation"): what a review is, its limits, the fixed lists of effects and flavours, the words the
 * shopper reads, and the views the storefront API answers. No zod here: the shopper's product page
 * imports this module and zod stays out of its bundle (./schema.ts has the schemas, for the server
 * and the console). The moderation rules are ./moderation.ts.
 *
 * Decisions where the issue is silent:
 *  - One review per customer and product in a store (the product a shopper opens: a configurable's
 *    parent, bought as any of its sizes). Editing it sends it back to moderation (`pending`).
 *  - Only a customer with a `completed` order of the store containing the product may write one;
 *    every shown review is therefore a "Verified buyer".
 *  - Text 20–2,000 characters (long enough to say something, short enough to moderate), a title of
 *    3–100, at most 5 effects and 5 flavours from the lists below.
 *  - The success text is the spec's own words (§8): "Review submitted for moderation".
 */

export const REVIEW_STARS_MIN = 1;
export const REVIEW_STARS_MAX = 5;
export const REVIEW_TITLE_MIN = 3;
export const REVIEW_TITLE_MAX = 100;
export const REVIEW_TEXT_MIN = 20;
export const REVIEW_TEXT_MAX = 2000;
export const REVIEW_TAGS_MAX = 5;
export const REVIEW_REJECT_REASON_MAX = 300;
/** Reviews per page on the product page and in the API. */
export const REVIEWS_PAGE_SIZE = 5;

export const REVIEW_EFFECTS = ['relaxed', 'sleepy', 'happy', 'euphoric', 'uplifted', 'energetic', 'focused', 'creative', 'hungry', 'giggly', 'talkative', 'calm'] as const;
export type ReviewEffect = (typeof REVIEW_EFFECTS)[number];

export const REVIEW_FLAVOURS = ['citrus', 'earthy', 'sweet', 'pine', 'berry', 'diesel', 'skunky', 'spicy', 'herbal', 'woody', 'floral', 'grape', 'mint', 'tropical', 'vanilla'] as const;
export type ReviewFlavour = (typeof REVIEW_FLAVOURS)[number];

export const REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const REVIEW_STATUS_LABELS: Readonly<Record<ReviewStatus, string>> = {
  pending: 'Waiting for moderation',
  approved: 'Published',
  rejected: 'Not published',
};

export const REVIEW_SORTS = ['newest', 'helpful'] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

export const REVIEW_MESSAGES = {
  /** Spec §8, word for word. */
  submitted: 'Review submitted for moderation',
  notBuyer: 'Only customers who bought this product from this store (a completed order) can review it.',
  loginRequired: 'Please log in to write a review.',
  reviewsOff: 'This store does not take product reviews.',
  productNotFound: 'Product not found',
  reviewNotFound: 'Review not found',
  ownReview: 'You cannot mark your own review as helpful.',
  stars: `Please choose from ${REVIEW_STARS_MIN} to ${REVIEW_STARS_MAX} stars.`,
  title: `Please give a title of ${REVIEW_TITLE_MIN} to ${REVIEW_TITLE_MAX} characters.`,
  text: `Please write ${REVIEW_TEXT_MIN} to ${REVIEW_TEXT_MAX} characters about the product.`,
  effects: `Choose at most ${REVIEW_TAGS_MAX} effects from the list.`,
  flavours: `Choose at most ${REVIEW_TAGS_MAX} flavours from the list.`,
  rejectReason: `Please give the reason for rejecting, at most ${REVIEW_REJECT_REASON_MAX} characters.`,
  notPending: 'This review was already moderated or changed meanwhile.',
} as const;

/** What a shopper sends to write or edit their review. */
export interface ReviewInput {
  stars: number;
  title: string;
  text: string;
  effects?: ReviewEffect[];
  flavours?: ReviewFlavour[];
}

export type ReviewField = 'stars' | 'title' | 'text' | 'effects' | 'flavours';

/**
 * The form's problems by field (the browser's instant answer; the server's zod schema in ./schema.ts
 * says the same with the same words). Empty: the review may be sent.
 */
export function reviewProblems(input: { stars: unknown; title: unknown; text: unknown; effects?: unknown; flavours?: unknown }): Partial<Record<ReviewField, string>> {
  const problems: Partial<Record<ReviewField, string>> = {};
  const stars = input.stars;
  if (typeof stars !== 'number' || !Number.isInteger(stars) || stars < REVIEW_STARS_MIN || stars > REVIEW_STARS_MAX) problems.stars = REVIEW_MESSAGES.stars;
  const title = typeof input.title === 'string' ? input.title.trim() : '';
  if (title.length < REVIEW_TITLE_MIN || title.length > REVIEW_TITLE_MAX) problems.title = REVIEW_MESSAGES.title;
  const text = typeof input.text === 'string' ? input.text.trim() : '';
  if (text.length < REVIEW_TEXT_MIN || text.length > REVIEW_TEXT_MAX) problems.text = REVIEW_MESSAGES.text;
  if (!tagsOk(input.effects, REVIEW_EFFECTS)) problems.effects = REVIEW_MESSAGES.effects;
  if (!tagsOk(input.flavours, REVIEW_FLAVOURS)) problems.flavours = REVIEW_MESSAGES.flavours;
  return problems;
}

function tagsOk(value: unknown, allowed: readonly string[]): boolean {
  if (value === undefined) return true;
  if (!Array.isArray(value) || value.length > REVIEW_TAGS_MAX) return false;
  return new Set(value).size === value.length && value.every((v) => allowed.includes(v as string));
}

/** A published review as the product page shows it. */
export interface PublishedReview {
  id: number;
  stars: number;
  title: string;
  text: string;
  effects: string[];
  flavours: string[];
  /** The first name and the last name's initial ("Ana R."), or "A customer". */
  author: string;
  /** Always true: only buyers can write (kept in the answer so a client need not know the rule). */
  verified_buyer: true;
  helpful_count: number;
  /** ISO: when it was written (or last edited). */
  created_at: string;
}

/** The average and count of a product's published reviews. */
export interface ReviewSummary {
  /** 0 when there are none; else rounded to one decimal. */
  average: number;
  count: number;
}

/** GET /api/reviews/products/:sku. */
export interface ProductReviewsPage {
  enabled: boolean;
  summary: ReviewSummary;
  sort: ReviewSort;
  page: number;
  page_size: number;
  items: PublishedReview[];
}

/** One of the shopper's own reviews (GET /api/reviews/mine, and the answer to a write). */
export interface MyReview {
  id: number;
  sku: string;
  product_name: string;
  stars: number;
  title: string;
  text: string;
  effects: string[];
  flavours: string[];
  /** The product page (`/p/{sku}/{slug}`, without the store prefix); its form is at `#edit-review`. */
  path: string;
  status: ReviewStatus;
  /** The store's reason when rejected, written for the shopper (never the automatic flags). */
  reject_reason: string | null;
  helpful_count: number;
  created_at: string;
  updated_at: string;
}

/** Whether the logged-in shopper may review a product, and their review of it if any. */
export interface MyReviewOfProduct {
  can_review: boolean;
  review: MyReview | null;
}

/** "Ana R." from a first and last name; "A customer" without a first name. */
export function reviewAuthor(firstname: string | null | undefined, lastname: string | null | undefined): string {
  const first = (firstname ?? '').trim();
  if (!first) return 'A customer';
  const initial = (lastname ?? '').trim().charAt(0).toUpperCase();
  return initial ? `${first} ${initial}.` : first;
}

/** The average shown: one decimal, 0 with no reviews. */
export function roundAverage(sum: number, count: number): number {
  return count > 0 ? Math.round((sum / count) * 10) / 10 : 0;
}

/** The store setting `reviews`: whether the store shows and takes reviews (default: yes). */
export interface ReviewSettings {
  enabled: boolean;
}
export const DEFAULT_REVIEW_SETTINGS: ReviewSettings = { enabled: true };
