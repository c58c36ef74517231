/**
 * The store setting `reviews` (issue 30): whether the store shows and takes product reviews
 * (default: yes). Some states' advertising rules keep testimonials off a dispensary's pages: switched
 * off, the product pages show no stars, reviews or JSON-LD ratings, and every review write and vote is
 * refused (403 `reviews_off`). Reviews already written are kept, and shown again when switched back on.
 */
import { DEFAULT_REVIEW_SETTINGS, reviewSettingsSchema } from '@verdant/domain';
import { defineSection } from '../store-settings/registry.ts';

export const REVIEWS_SECTION = defineSection({
  name: 'reviews',
  title: 'Product reviews',
  schema: reviewSettingsSchema,
  initial: () => ({ ...DEFAULT_REVIEW_SETTINGS }),
});
