/** Consent ledger and back-in-stock watches (issue 30, migration 0033_consent_and_alerts). */
import type { ConsentAction, MessageChannel, MessagePurpose } from '@verdant/domain';
import type { Generated } from 'kysely';
import type { Timestamp } from './common.ts';

/** Append-only: one grant or withdrawal (notifications/consent.ts). Never updated. */
export interface ConsentEventsTable {
  id: Generated<number>;
  store_id: number;
  customer_id: number | null;
  /** A guest's (or the message's) E.164 phone or lower-cased e-mail. */
  contact: string | null;
  channel: MessageChannel;
  purpose: MessagePurpose;
  action: ConsentAction;
  /** Which form or path: stock_alert_form, stock_alert_account, unsubscribe_link, sms_stop, … */
  source: string;
  /** The exact words the shopper was shown (null for a STOP reply). */
  words: string | null;
  at: Timestamp;
}

export type StockWatchOutcome = 'queued' | 'no_consent' | 'withdrawn' | 'gone';

/** "Tell me when it's back" (alerts/watches.ts). */
export interface StockWatchesTable {
  id: Generated<number>;
  store_id: number;
  /** The product of the page (a configurable parent or a simple product). */
  product_id: number;
  /** The size watched (a variant); null: any size of the product. */
  variant_id: number | null;
  /** `p{product_id}` or `v{variant_id}`. */
  target_key: string;
  customer_id: number | null;
  contact: string | null;
  channel: MessageChannel;
  /** `c{customer_id}`, `sms:{E.164}` or `email:{address}`. */
  subscriber_key: string;
  created_at: Timestamp;
  removed_at: Timestamp | null;
  restocked_at: Timestamp | null;
  notified_at: Timestamp | null;
  outcome: StockWatchOutcome | null;
}
