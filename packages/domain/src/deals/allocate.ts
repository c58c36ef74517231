/**
 * The rounding rule of the deals engine (README "Rounding"): a discount is computed once per
 * application (or per deal for a percent off many items) and split over the units it touches by the
 * largest-remainder method: each unit gets the floor of its exact share, and the cents left over go
 * one each to the units with the largest fractional parts, ties to the earlier unit in canonical
 * order (price high to low, then sku). The parts always add up exactly to the total.
 */

/**
 * Split `total` in proportion to `weights` (non-negative integers). With `weights` the units' room
 * above their floor and `total` ≤ Σ weights, no part exceeds its weight (so no unit goes below its floor).
 */
export function splitProportional(total: number, weights: readonly number[]): number[] {
  const n = weights.length;
  const parts = new Array<number>(n).fill(0);
  if (total === 0 || n === 0) return parts;
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum <= 0) throw new RangeError('cannot split over zero weight');
  const big = total * Math.max(...weights) > Number.MAX_SAFE_INTEGER;
  const fracs = new Array<number>(n);
  let given = 0;
  for (let i = 0; i < n; i++) {
    if (big) {
      const num = BigInt(total) * BigInt(weights[i]);
      parts[i] = Number(num / BigInt(sum));
      fracs[i] = Number(num % BigInt(sum));
    } else {
      const num = total * weights[i];
      parts[i] = Math.floor(num / sum);
      fracs[i] = num - parts[i] * sum;
    }
    given += parts[i];
  }
  distribute(parts, fracs, total - given);
  return parts;
}

/**
 * Parts from exact numerators over a common denominator (a percent: price × percent×100 over 10000),
 * adding up to `total` (the rounded sum): floors first, then the largest remainders.
 */
export function splitExact(total: number, numerators: readonly number[], denominator: number): number[] {
  const parts = numerators.map((v) => Math.floor(v / denominator));
  const fracs = numerators.map((v, i) => v - parts[i] * denominator);
  distribute(parts, fracs, total - parts.reduce((s, p) => s + p, 0));
  return parts;
}

function distribute(parts: number[], fracs: readonly number[], left: number): void {
  if (left === 0) return;
  if (left < 0 || left > parts.length) throw new RangeError(`rounding left ${left} cents over ${parts.length} parts`);
  const order = fracs.map((f, i) => i).sort((a, b) => fracs[b] - fracs[a] || a - b);
  for (let k = 0; k < left; k++) parts[order[k]] += 1;
}

/** Half-up rounding of Σ numerators / denominator (all non-negative integers). */
export function roundedSum(numerators: readonly number[], denominator: number): number {
  let sum = 0;
  for (const v of numerators) sum += v;
  return Math.floor((sum + denominator / 2) / denominator);
}
