import type { Cents } from '../money.ts';

/**
 * Split a whole number of cents over lines in proportion to their weights so that the parts add
 * up exactly to the total (largest-remainder method; ties go to the earlier line). Used to show a
 * cart-level tax or discount on each line without a line sum that is a cent off the total.
 */
export function allocateCents(total: Cents, weights: readonly number[]): Cents[] {
  if (!Number.isInteger(total)) throw new RangeError(`allocateCents needs whole cents, got ${total}`);
  const sum = weights.reduce((a, w) => a + Math.max(0, w), 0);
  if (weights.length === 0) return [];
  if (sum === 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const sign = total < 0 ? -1 : 1;
  const abs = Math.abs(total);
  const exact = weights.map((w) => (Math.max(0, w) / sum) * abs);
  const parts = exact.map(Math.floor);
  let left = abs - parts.reduce((a, p) => a + p, 0);
  const order = exact
    .map((e, i) => ({ i, frac: e - Math.floor(e) }))
    .sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) parts[order[k].i] += 1;
  return parts.map((p) => p * sign);
}
