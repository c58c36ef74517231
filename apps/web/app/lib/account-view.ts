/**
 * The account pages' view rules (spec §2 /my-account blocks, §8 reward points, §9 orders history
 * 5 per page): which block a path shows, the paging of the orders list, and the figures a block
 * shows. Pure, so they are tested without a browser.
 */
import type { AccountOrder, Address, CurrentUser } from '../api/user.ts';

export type AccountBlock = 'overview' | 'shipping-details' | 'newsletter' | 'orders' | 'order' | 'points' | 'reviews' | 'recently-viewed';

export interface AccountBlockInfo {
  block: AccountBlock;
  /** Store path of the block (without the store-code prefix). */
  path: string;
  title: string;
}

/** The blocks of the account navigation, in order (one order is reached from the orders list). */
export const ACCOUNT_NAV: readonly AccountBlockInfo[] = [
  { block: 'overview', path: '/my-account', title: 'My account' },
  { block: 'shipping-details', path: '/my-account/shipping-details', title: 'Shipping details' },
  { block: 'newsletter', path: '/my-account/newsletter', title: 'Newsletter' },
  { block: 'orders', path: '/my-account/orders', title: 'Orders' },
  { block: 'points', path: '/my-account/points', title: 'Points' },
  { block: 'reviews', path: '/my-account/reviews', title: 'My reviews' },
  { block: 'recently-viewed', path: '/my-account/recently-viewed', title: 'Recently viewed' },
];

/** Spec §9: orders history 5 per page. */
export const ORDERS_PAGE_SIZE = 5;

/** The block a path shows (`/downtown/my-account/orders/DO-000123` → one order). */
export function accountBlockOf(pathname: string, orderId?: string | null): AccountBlockInfo & { orderId: string | null } {
  if (orderId) return { block: 'order', path: `/my-account/orders/${encodeURIComponent(orderId)}`, title: `Order ${orderId}`, orderId };
  const path = pathname.replace(/\/+$/, '');
  const found = [...ACCOUNT_NAV].reverse().find((b) => path.endsWith(b.path));
  return { ...(found ?? ACCOUNT_NAV[0]), orderId: null };
}

/** The current page of the orders list from `?page=` (1 when absent or not a whole number ≥ 1). */
export function pageOf(search: string): number {
  const raw = new URLSearchParams(search).get('page');
  const n = raw && /^\d+$/.test(raw) ? Number(raw) : 1;
  return Number.isSafeInteger(n) && n >= 1 ? n : 1;
}

export function pageCount(totalCount: number, pageSize = ORDERS_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(Math.max(0, totalCount) / pageSize));
}

/** "Orders 6–10 of 12" */
export function pageRangeLabel(page: number, totalCount: number, pageSize = ORDERS_PAGE_SIZE): string {
  if (totalCount <= 0) return 'No orders yet';
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(totalCount, page * pageSize);
  return `Orders ${first}–${last} of ${totalCount}`;
}

/** Spec §8 "You have {credit} Reward Points!": only when there are points and they are worth something. */
export function rewardPointsNotice(user: Pick<CurrentUser, 'credits'> | null, centsPerPoint = 1): string | null {
  const credits = user?.credits ?? 0;
  if (!(credits > 0) || !(credits * centsPerPoint > 0)) return null;
  return `You have ${credits} Reward Points!`;
}

/**
 * The account's name, or null when it has none yet (a phone account that skipped onboarding).
 * Never the phone number: a number is not a name (issue 11, "Welcome, 9165550142!").
 */
export function displayName(user: Pick<CurrentUser, 'firstname' | 'lastname'>): string | null {
  return [user.firstname, user.lastname].filter(Boolean).join(' ').trim() || null;
}

/** The onboarding greeting: "Welcome, Ana Diaz!", or "Welcome!" without a name. */
export function greeting(user: Pick<CurrentUser, 'firstname' | 'lastname'>): string {
  const name = displayName(user);
  return name ? `Welcome, ${name}!` : 'Welcome!';
}

/** A US number for people: +19165550142 → (916) 555-0142; anything else as stored. */
export function phoneForDisplay(phone: string): string {
  const m = /^(?:\+1)?(\d{3})(\d{3})(\d{4})$/.exec(phone.replace(/[\s().-]/g, ''));
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : phone;
}

/** One line for an address: `Home: 1001 K Street 4, Apt 2, Sacramento 95816`. */
export function addressLine(a: Pick<Address, 'title' | 'street' | 'house_number' | 'apt_ste' | 'city' | 'postcode'>): string {
  const street = [a.street, a.house_number].filter(Boolean).join(' ');
  const parts = [street, a.apt_ste ? `Apt ${a.apt_ste}` : null, `${a.city} ${a.postcode}`].filter(Boolean).join(', ');
  return a.title ? `${a.title}: ${parts}` : parts;
}

/** How many items an order has (sum of quantities). */
export function orderItemCount(order: Pick<AccountOrder, 'items'>): number {
  return order.items.reduce((n, i) => n + i.qty, 0);
}

const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending',
  processing: 'Processing',
  complete: 'Complete',
  canceled: 'Canceled',
  cancelled: 'Canceled',
  queued: 'Waiting to be sent',
};

/** Spec §4 "Order statuses: not shown": any status the server sends, worded for a shopper. */
export function orderStatusLabel(status: string): string {
  return STATUS_LABELS[status] ?? (status ? status.charAt(0).toUpperCase() + status.slice(1).replace(/_/g, ' ') : 'Unknown');
}

