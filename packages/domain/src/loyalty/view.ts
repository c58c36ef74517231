/**
 * What GET /api/user/loyalty answers (apps/server/src/loyalty/account.ts) and the shopper's account
 * shows (apps/web …/PointsBlock.tsx), and the words of each ledger entry.
 */
export const LOYALTY_LEDGER_KINDS = ['earn', 'reverse', 'redeem', 'bonus', 'expire', 'adjust'] as const;
export type LoyaltyLedgerKind = (typeof LOYALTY_LEDGER_KINDS)[number];

export interface LoyaltyHistoryEntry {
  id: number;
  kind: LoyaltyLedgerKind;
  points: number;
  balance_after: number;
  at: string;
  order_number: string | null;
  note: string | null;
}

export interface LoyaltyAccountView {
  enabled: boolean;
  /** Whether this customer's orders earn (false: recreational under a medical-only programme). */
  earns: boolean;
  eligibility: 'all' | 'medical';
  balance: number;
  /** Points per dollar now (the tier's rate). */
  earn_rate: number;
  tier: { name: string; earn_rate: number };
  next_tier: { name: string; earn_rate: number; needed_cents: number } | null;
  spend_cents: number;
  tier_window_days: number;
  /** The whole balance expires at this instant unless the customer buys before it (null: never). */
  expiry: { points: number; expires_at: string } | null;
  multipliers: { label: string; multiplier: number }[];
  history: LoyaltyHistoryEntry[];
}

/** "Earned on order DO-000123", "Sign-up bonus", … */
export function ledgerEntryLabel(e: Pick<LoyaltyHistoryEntry, 'kind' | 'order_number'>): string {
  const order = e.order_number ? ` order ${e.order_number}` : ' an order';
  switch (e.kind) {
    case 'earn':
      return `Earned on${order}`;
    case 'redeem':
      return `Redeemed on${order}`;
    case 'reverse':
      return `Returned: cancelled${order}`;
    case 'bonus':
      return 'Sign-up bonus';
    case 'expire':
      return 'Expired';
    default:
      return 'Adjusted by the store';
  }
}

/** "1,250 points", "1 point" */
export function pointsLabel(n: number): string {
  const whole = String(Math.abs(Math.trunc(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${whole} ${Math.abs(n) === 1 ? 'point' : 'points'}`;
}
