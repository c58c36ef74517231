/**
 * Row types of deals (migration 0028, issue 28): the store's automatic promotions, their history and
 * their redemptions. Conventions are in ../schema.ts; what each column means: the migration.
 */
import type { Generated } from 'kysely';
import type { Defaulted, JsonText, Timestamp } from './common.ts';

export type DealStatus = 'active' | 'paused' | 'ended';

export interface DealsTable {
  id: Generated<number>;
  store_id: number;
  /** The record's `id`: the name the engine, carts and orders give the deal; unique per store. */
  code: string;
  /** The store's own id for it (integration API); unique per store when given. */
  external_id: string | null;
  kind: string;
  title: string;
  status: DealStatus;
  /** The deal as JSON, valid under @verdant/domain's `dealSchema`. */
  record: JsonText;
  version: Defaulted<number>;
  /** A budgeted deal's orders holding a redemption not given back (taken by a conditional update; recounted when a record states a budget). */
  redeemed: Defaulted<number>;
  created_at: Timestamp;
  created_by: string;
  updated_at: Timestamp;
  updated_by: string;
}

export type DealChangeAction = 'create' | 'update' | 'pause' | 'resume' | 'end';
export type DealChangeSource = 'console' | 'api' | 'seed' | 'cli';

export interface DealChangesTable {
  id: Generated<number>;
  deal_id: number;
  store_id: number;
  action: DealChangeAction;
  before: JsonText | null;
  after: JsonText;
  source: DealChangeSource;
  actor_type: 'staff' | 'api_key' | 'system';
  actor_id: number | null;
  actor_name: string;
  at: Timestamp;
}

export interface DealRedemptionsTable {
  id: Generated<number>;
  deal_id: number;
  order_id: number;
  store_id: number;
  /** Phone digits of the shopper, or `customer:<id>` when the order has none. */
  customer_key: string;
  discount_cents: Defaulted<number>;
  created_at: Timestamp;
  /** Set once when the order is cancelled; the deal's `redeemed` goes down in the same transaction. */
  released_at: Timestamp | null;
}
