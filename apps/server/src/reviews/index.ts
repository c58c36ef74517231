/** Product reviews (issue 30): what other areas may call. */
export { REVIEWS_SECTION } from './section.ts';
export { productReviews, reviewsEnabled } from './service.ts';
