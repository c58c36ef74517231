/**
 * The customer's account writes that make sense offline (issue 6), as sync tasks: newsletter
 * subscribe/unsubscribe, an address added, edited or removed, the e-mail changed. Each task
 * carries, in `meta`, what the shopper asked for and for which customer, so the account page can
 * show it as pending (also after a reload) and the queue never sends it as someone else.
 *
 * The copy the shopper reads about it is here too. The spec words only the outcome ("Account data
 * has successfully been updated", "newsletter preferences updated: subscribed or unsubscribed",
 * §8); how a write waiting for the network is announced is ours.
 */
import type { AddressInput } from '../api/user.ts';
import type { SyncTask, SyncTaskInput } from './sync-task.ts';

export type AccountWrite =
  | { kind: 'newsletter'; email: string; subscribe: boolean }
  | { kind: 'email'; email: string }
  | { kind: 'address'; address: AddressInput }
  | { kind: 'address-remove'; id: number };

export interface AccountTaskMeta {
  account: AccountWrite;
  /** The customer who asked (tasks of anyone else are never sent with the current token). */
  customerId: number;
}

/** A write the account page shows as waiting. */
export interface PendingWrite {
  taskId: string;
  createdAt: number;
  write: AccountWrite;
}

/** `callback_event` of the tasks: what the page refreshes once the store answered. */
export const ACCOUNT_EVENTS = { user: 'account:user', newsletter: 'account:newsletter' } as const;

export const OFFLINE_WRITE_COPY = {
  /** Shown (notice) when a write is kept for later. */
  queued: 'You are offline. Your change is saved on this device and will be sent to the store when you are back online.',
  subscribePending: 'Subscription waiting: it will be sent when you are back online.',
  unsubscribePending: 'Unsubscribing waiting: it will be sent when you are back online.',
  addressPending: 'Waiting to be saved: it will be sent when you are back online.',
  removalPending: 'Removal waiting: it will be sent when you are back online.',
  emailPending: (email: string) => `Change to ${email} waiting: it will be sent when you are back online.`,
  /** The newsletter state shown offline is the last one this device read. */
  lastKnown: 'Last known while online.',
} as const;

/** The task of a write (no `{{token}}` in the URL: the token travels as the Bearer header). */
export function accountTask(write: AccountWrite, customerId: number): SyncTaskInput {
  const meta: AccountTaskMeta = { account: write, customerId };
  switch (write.kind) {
    case 'newsletter':
      return {
        url: '/api/newsletter',
        payload: { method: write.subscribe ? 'POST' : 'DELETE', body: { email: write.email } },
        callback_event: ACCOUNT_EVENTS.newsletter,
        meta,
      };
    case 'email':
      return { url: '/api/user/me', payload: { method: 'POST', body: { email: write.email } }, callback_event: ACCOUNT_EVENTS.user, meta };
    case 'address':
      return { url: '/api/user/me', payload: { method: 'POST', body: { addresses: [write.address] } }, callback_event: ACCOUNT_EVENTS.user, meta };
    case 'address-remove':
      return { url: `/api/user/me/addresses/${write.id}`, payload: { method: 'DELETE' }, callback_event: ACCOUNT_EVENTS.user, meta };
  }
}

/** The account meta of a task, or null for any other task (or one written by another build). */
export function accountMetaOf(task: Pick<SyncTask, 'meta'>): AccountTaskMeta | null {
  const m = task.meta as Partial<AccountTaskMeta> | null;
  if (!m || typeof m !== 'object' || typeof m.customerId !== 'number' || !m.account || typeof m.account !== 'object') return null;
  const kind = (m.account as { kind?: unknown }).kind;
  return kind === 'newsletter' || kind === 'email' || kind === 'address' || kind === 'address-remove' ? (m as AccountTaskMeta) : null;
}

/** The customer's waiting writes, in the order they will be sent. */
export function pendingWritesOf(tasks: SyncTask[], customerId: number | null): PendingWrite[] {
  if (customerId == null) return [];
  const out: PendingWrite[] = [];
  for (const t of tasks) {
    const meta = accountMetaOf(t);
    if (meta && meta.customerId === customerId) out.push({ taskId: t.task_id, createdAt: t.created_at, write: meta.account });
  }
  return out;
}

/** What the newsletter will be once the waiting writes are sent (null: none waiting for this e-mail). */
export function pendingSubscription(pending: PendingWrite[], email: string): boolean | null {
  let last: boolean | null = null;
  for (const p of pending) if (p.write.kind === 'newsletter' && p.write.email === email) last = p.write.subscribe;
  return last;
}
