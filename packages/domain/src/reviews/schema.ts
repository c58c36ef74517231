/**
 * The zod schemas of product reviews (./model.ts): the shopper's review, the staff's decision and
 * the store setting `reviews`. For the server and the console; the storefront checks with
 * `reviewProblems` (same limits, same words) so zod stays out of the shopper's bundle.
 */
import { z } from 'zod';
import {
  REVIEW_EFFECTS,
  REVIEW_FLAVOURS,
  REVIEW_MESSAGES,
  REVIEW_REJECT_REASON_MAX,
  REVIEW_SORTS,
  REVIEW_STARS_MAX,
  REVIEW_STARS_MIN,
  REVIEW_TAGS_MAX,
  REVIEW_TEXT_MAX,
  REVIEW_TEXT_MIN,
  REVIEW_TITLE_MAX,
  REVIEW_TITLE_MIN,
  type ReviewSettings,
} from './model.ts';

const tags = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z
    .array(z.enum(values, { message }), { message })
    .max(REVIEW_TAGS_MAX, message)
    .refine((list) => new Set(list).size === list.length, message)
    .default([]);

export const reviewInputSchema = z
  .object({
    stars: z.number({ message: REVIEW_MESSAGES.stars }).int(REVIEW_MESSAGES.stars).min(REVIEW_STARS_MIN, REVIEW_MESSAGES.stars).max(REVIEW_STARS_MAX, REVIEW_MESSAGES.stars),
    title: z.string({ message: REVIEW_MESSAGES.title }).trim().min(REVIEW_TITLE_MIN, REVIEW_MESSAGES.title).max(REVIEW_TITLE_MAX, REVIEW_MESSAGES.title),
    text: z.string({ message: REVIEW_MESSAGES.text }).trim().min(REVIEW_TEXT_MIN, REVIEW_MESSAGES.text).max(REVIEW_TEXT_MAX, REVIEW_MESSAGES.text),
    effects: tags(REVIEW_EFFECTS, REVIEW_MESSAGES.effects),
    flavours: tags(REVIEW_FLAVOURS, REVIEW_MESSAGES.flavours),
  })
  .strict();
export type ReviewInputParsed = z.infer<typeof reviewInputSchema>;

export const reviewListQuerySchema = z.object({
  sort: z.enum(REVIEW_SORTS, { message: `sort is one of: ${REVIEW_SORTS.join(', ')}` }).default('newest'),
  page: z.coerce.number({ message: 'page is a whole number from 1 to 1000' }).int().min(1).max(1000).default(1),
});

/** Staff's decision on a pending review. */
export const reviewDecisionSchema = z.discriminatedUnion(
  'decision',
  [
    z.object({ decision: z.literal('approve') }).strict(),
    z
      .object({
        decision: z.literal('reject'),
        reason: z.string({ message: REVIEW_MESSAGES.rejectReason }).trim().min(1, REVIEW_MESSAGES.rejectReason).max(REVIEW_REJECT_REASON_MAX, REVIEW_MESSAGES.rejectReason),
      })
      .strict(),
  ],
  { message: 'decision is approve or reject' },
);

export const reviewSettingsSchema = z.object({ enabled: z.boolean({ error: 'enabled must be true or false' }) }) satisfies z.ZodType<ReviewSettings, unknown>;
