/**
 * Row types of product reviews (migration 0032, issue 30). Conventions are in ../schema.ts; what
 * each column means: the migration.
 */
import type { Generated } from 'kysely';
import type { ReviewStatus } from '@verdant/domain';
import type { Defaulted, JsonText, Timestamp } from './common.ts';

export interface ReviewsTable {
  id: Generated<number>;
  store_id: number;
  product_id: number;
  sku: string;
  customer_id: number;
  stars: number;
  title: string;
  text: string;
  /** JSON lists of the fixed effects and flavours (@verdant/domain REVIEW_EFFECTS, REVIEW_FLAVOURS). */
  effects: Defaulted<JsonText>;
  flavours: Defaulted<JsonText>;
  status: Defaulted<ReviewStatus>;
  /** JSON [{rule, name, matches}] of the automatic moderation. */
  flags: Defaulted<JsonText>;
  helpful_count: Defaulted<number>;
  /** Moved by every edit: a decision names the version it was about. */
  version: Defaulted<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  moderated_at: Timestamp | null;
  moderated_by: string | null;
  reject_reason: string | null;
}

export interface ReviewVotesTable {
  review_id: number;
  customer_id: number;
  created_at: Timestamp;
}

export interface ReviewProductStatsTable {
  store_id: number;
  product_id: number;
  review_count: Defaulted<number>;
  star_sum: Defaulted<number>;
  updated_at: Timestamp;
}
