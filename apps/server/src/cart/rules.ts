/**
 * The cart rules of packages/domain (tax, totals, limits, allocation). `@verdant/domain`'s index
 * does not re-export its cart/ folder yet, and its package exports only ".", so the server reaches
 * them by path here, in one place: when the index exports them, this file becomes
 * `export * from '@verdant/domain'` and nothing else changes.
 */
export {
  allocateCents,
  applicableRates,
  checkTransactionLimit,
  computeTotals,
  itemThcMilligrams,
  overLimitMessage,
  taxOn,
  thcEquivalentGrams,
  type Coupon,
  type LimitCheck,
  type LimitItem,
  type TaxContext,
  type TaxRate,
  type TaxRule,
  type Totals,
  type TotalsInput,
  type TotalsLine,
} from '../../../../packages/domain/src/cart/index.ts';
