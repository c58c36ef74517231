/**
 * Coupon validity (spec §4 Coupon, §8 copy): a code is usable when it exists (codes are stored
 * upper-case, so matching ignores case), is active, belongs to this store or to every store, `now`
 * is inside its from/to window (a bare to-date runs to the end of that day, UTC) and it is not used
 * up. Every failure answers the same message, so a code's existence is not revealed.
 */
import type { Db } from './repository.ts';
import type { Row } from '../db/schema.ts';
import type { Coupon } from '@verdant/domain';

export type CouponRow = Row<'coupons'>;

export function normaliseCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

export function isCouponUsable(c: CouponRow, storeId: number, now: Date): boolean {
  if (c.active !== 1) return false;
  if (c.store_id != null && c.store_id !== storeId) return false;
  const t = now.getTime();
  if (c.from_date && t < Date.parse(c.from_date)) return false;
  if (c.to_date) {
    const to = /^\d{4}-\d{2}-\d{2}$/.test(c.to_date) ? `${c.to_date}T23:59:59.999Z` : c.to_date;
    if (t > Date.parse(to)) return false;
  }
  if (c.max_uses != null && c.times_used >= c.max_uses) return false;
  return c.type === 'percent' ? c.discount_percent != null && c.discount_percent > 0 : c.discount_cents != null && c.discount_cents > 0;
}

/** The usable coupon of that code, or null. */
export async function findUsableCoupon(db: Db, code: string | null | undefined, storeId: number, now: Date): Promise<CouponRow | null> {
  if (!code) return null;
  const normalised = normaliseCouponCode(code);
  if (normalised.length === 0 || normalised.length > 64) return null;
  const row = await db.selectFrom('coupons').selectAll().where('code', '=', normalised).executeTakeFirst();
  return row && isCouponUsable(row, storeId, now) ? row : null;
}

export function toDomainCoupon(c: CouponRow): Coupon {
  return c.type === 'percent'
    ? { code: c.code, type: 'percent', value: c.discount_percent ?? 0 }
    : { code: c.code, type: 'fixed', value: c.discount_cents ?? 0 };
}
