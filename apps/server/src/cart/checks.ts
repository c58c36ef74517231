/**
 * The rules every cart change and every order must pass, over resolved lines (pure):
 * licence mixing, stock (weight × qty for gram products, summed over every line that draws on
 * the same stock) and the purchase limit (spec §5). Each returns the spec's message or null.
 */
import type { LicenseType, Store } from '@verdant/domain';
import { checkTransactionLimit, type LimitCheck, type LimitItem } from '@verdant/domain';
import { CART_MESSAGES as M } from './messages.ts';
import type { ResolvedLine } from './resolve.ts';

/** A product for the other licence type (not `both`) cannot join the cart. */
export function licenseProblem(lines: readonly ResolvedLine[], licenseType: LicenseType): string | null {
  return lines.some((l) => l.licenseTypes.some((t) => t !== 'both' && t !== licenseType)) ? M.licenseMix : null;
}

/** Stock each product must hold for these lines, by product id. */
export function stockNeeds(lines: readonly ResolvedLine[]): Map<number, number> {
  const need = new Map<number, number>();
  for (const l of lines) {
    for (const c of l.components) need.set(c.productId, (need.get(c.productId) ?? 0) + l.qty * c.qtyPerUnit * c.stockPerUnit);
  }
  return need;
}

// Gram amounts are multiples of 0.5 g in practice, exact in binary; the tolerance only absorbs
// the error of an odd unit weight, far below a tenth of a gram.
const EPSILON = 1e-9;

/**
 * The first of `changed` whose stock cannot cover every line drawing on it. The message says how
 * many of that line are still available, when some are.
 */
export function stockProblem(all: readonly ResolvedLine[], changed: readonly ResolvedLine[]): string | null {
  const need = stockNeeds(all);
  for (const line of changed) {
    for (const c of line.components) {
      const s = c.stock;
      if (!s || !s.is_in_stock) return M.outOfStock;
      if (!s.manage_stock) continue;
      const total = need.get(c.productId) ?? 0;
      if (total <= s.qty + EPSILON) continue;
      const perLineUnit = c.qtyPerUnit * c.stockPerUnit;
      const othersNeed = total - line.qty * perLineUnit;
      const max = Math.floor((s.qty - othersNeed + EPSILON) / perLineUnit);
      return max >= 1 ? M.onlyAvailable(max) : M.outOfStock;
    }
  }
  return null;
}

export function limitItems(lines: readonly ResolvedLine[]): LimitItem[] {
  // Field by field: a spread copy plus a field is slow in V8 (Node 20), and totals run this per line.
  return lines.flatMap((l) =>
    l.components.map((c) => ({ size: c.limit.size, unit_weight_grams_equivelent: c.limit.unit_weight_grams_equivelent, canna_type: c.limit.canna_type, qty: l.qty * c.qtyPerUnit })),
  );
}

export function limitCheck(lines: readonly ResolvedLine[], store: Store, licenseType: LicenseType): LimitCheck {
  return checkTransactionLimit(limitItems(lines), store, licenseType);
}

/**
 * Over the limit after a change, unless the change does not add grams: a cart that is over
 * (the store lowered its limit, say) can always be made smaller.
 */
export function limitProblem(before: readonly ResolvedLine[], after: readonly ResolvedLine[], store: Store, licenseType: LicenseType): string | null {
  const next = limitCheck(after, store, licenseType);
  if (!next.over) return null;
  const previous = limitCheck(before, store, licenseType);
  return next.grams > previous.grams ? next.message : null;
}
