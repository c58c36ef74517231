/**
 * May a message go now? (issue 30 "Messages that arrive, with consent on record")
 *
 * The consent ledger (server: `consent_events`, migration 0033) is append-only: each row grants or
 * withdraws one purpose on one channel for one customer or guest contact in one store, with when
 * and how (the form and the exact words shown). This module reads such rows and decides:
 *  - marketing (back-in-stock alerts, expiry reminders, deals) goes only on a standing grant: the
 *    newest marketing row for the channel is `granted`. No row, or a newer `withdrawn`, refuses;
 *  - transactional (an order's own messages) goes unless withdrawn: giving a number or address for
 *    an order is the consent for that order's messages; an SMS STOP withdraws both purposes;
 *  - a withdrawal (STOP, the unsubscribe link) counts from the instant it is recorded: the newest row
 *    wins, whatever came before;
 *  - quiet hours in the store's time zone: marketing is not sent from 21:00 to 08:00 local time and
 *    is deferred to the next 08:00. Source: the TCPA rule for telephone solicitations, 47 CFR
 *    § 64.1200(c)(1) ("before the hour of 8 a.m. or after 9 p.m. (local time at the called party's
 *    location)"); research/market-and-regulation.md §4 "SMS: TCPA express written consent, 10DLC
 *    registration, quiet hours" [R-SMS1]. The store's zone stands in for the shopper's (a pickup
 *    and delivery menu's shoppers live around the store). Some states are stricter (e.g. Florida's
 *    8 a.m.–8 p.m., Fla. Stat. § 501.616(6)(a)); a store can pass its own window. Transactional
 *    messages are not held (an order that is ready at 21:30 says so at 21:30).
 */
import { formatSortableDateTime } from './dates.ts';
import { zonedInstant } from './hours/slots.ts';

export const MESSAGE_CHANNELS = ['sms', 'email'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];
export const MESSAGE_PURPOSES = ['transactional', 'marketing'] as const;
export type MessagePurpose = (typeof MESSAGE_PURPOSES)[number];
export const CONSENT_ACTIONS = ['granted', 'withdrawn'] as const;
export type ConsentAction = (typeof CONSENT_ACTIONS)[number];

/** One ledger row as the decision needs it. */
export interface ConsentRecord {
  channel: MessageChannel;
  purpose: MessagePurpose;
  action: ConsentAction;
  /** ISO-8601 UTC. */
  at: string;
}

/** Local wall-clock window (HH:mm) in which marketing is held; `start` after `end` spans midnight. */
export interface QuietHours {
  start: string;
  end: string;
}

/** 47 CFR § 64.1200(c)(1): no solicitation before 8 a.m. or after 9 p.m. local time. */
export const TCPA_QUIET_HOURS: QuietHours = { start: '21:00', end: '08:00' };

export type MessageDecision =
  | { send: true; at: Date; deferred: boolean }
  | { send: false; reason: 'no_consent' | 'withdrawn' };

export interface MessageQuestion {
  channel: MessageChannel;
  purpose: MessagePurpose;
  /** The subject's ledger rows for the store (any order; ties in `at` keep the given order). */
  records: readonly ConsentRecord[];
  now: Date;
  /** The store's IANA zone. */
  timeZone: string;
  quietHours?: QuietHours;
}

/** The newest row for a channel and purpose (the later of equal times), or undefined. */
export function standingConsent(records: readonly ConsentRecord[], channel: MessageChannel, purpose: MessagePurpose): ConsentRecord | undefined {
  let newest: ConsentRecord | undefined;
  for (const r of records) if (r.channel === channel && r.purpose === purpose && (!newest || r.at >= newest.at)) newest = r;
  return newest;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The first instant at or after `now` outside the quiet hours, in the zone. */
export function nextAllowedTime(now: Date, timeZone: string, quiet: QuietHours = TCPA_QUIET_HOURS): Date {
  const local = formatSortableDateTime(now, timeZone); // YYYY-MM-DD HH:mm
  const date = local.slice(0, 10);
  const minute = minutesOf(local.slice(11, 16));
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return now;
  if (start < end) return minute >= start && minute < end ? zonedInstant(date, end, timeZone) : now;
  // Spans midnight: quiet from start to 24:00 and from 00:00 to end.
  if (minute >= start) return zonedInstant(date, end + 24 * 60, timeZone);
  if (minute < end) return zonedInstant(date, end, timeZone);
  return now;
}

/** Whether a message of this purpose may go on this channel, and when. */
export function decideMessage(q: MessageQuestion): MessageDecision {
  const newest = standingConsent(q.records, q.channel, q.purpose);
  if (q.purpose === 'marketing') {
    if (!newest) return { send: false, reason: 'no_consent' };
    if (newest.action === 'withdrawn') return { send: false, reason: 'withdrawn' };
    const at = nextAllowedTime(q.now, q.timeZone, q.quietHours);
    return { send: true, at, deferred: at.getTime() !== q.now.getTime() };
  }
  if (newest?.action === 'withdrawn') return { send: false, reason: 'withdrawn' };
  return { send: true, at: q.now, deferred: false };
}

/** Words an SMS reply may carry to withdraw (CTIA short-code and 10DLC practice), matched whole. */
export const SMS_STOP_WORDS: readonly string[] = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'];

export function isStopReply(text: string): boolean {
  return SMS_STOP_WORDS.includes(text.trim().toUpperCase());
}

/**
 * Words that undo a STOP for the store's own texts (CTIA practice: START / UNSTOP re-subscribe).
 * Verdant reads them as a grant of transactional texts only: marketing needs the consent form's
 * express written consent again (TCPA, 47 CFR § 64.1200(f)(9)), which a one-word reply is not.
 */
export const SMS_START_WORDS: readonly string[] = ['START', 'UNSTOP'];

export function isStartReply(text: string): boolean {
  return SMS_START_WORDS.includes(text.trim().toUpperCase());
}

/**
 * The exact words next to the back-in-stock consent box (and above the logged-in shopper's one-tap
 * button), recorded in the ledger as shown. One text for both channels, so the page without
 * JavaScript shows the same words whichever contact is typed.
 */
export function stockAlertConsentWords(storeName: string): string {
  return `Text or e-mail me once when this item is back in stock at ${storeName}. This is a marketing message; message and data rates may apply. Reply STOP or use the unsubscribe link to opt out. Consent is not a condition of purchase.`;
}


/** A shopper's watch as the account lists it. */
export interface StockWatchView {
  id: number;
  productId: number;
  variantId: number | null;
  name: string;
  /** Path of the product page (without the store prefix). */
  path: string;
  channel: MessageChannel;
  createdAt: string;
}

/** What a back-in-stock message's unsubscribe link stops (`GET/POST /api/stock-alerts/unsubscribe/:token`). */
export interface StockAlertUnsubscribeView {
  product: string;
  channel: MessageChannel;
  /** The watch's date in the store's zone. */
  since: string;
  unsubscribed: boolean;
}

/** The answer to a watch request. */
export interface StockAlertAnswer {
  watching: true;
  channel: MessageChannel;
  message: string;
}
