/**
 * Runs of the deal engine, counted where it runs (deals/apply.ts, page-deals.ts, preview.ts, trace.ts)
 * and read by /metrics (./process.ts). A plain counter with no import: page-deals.ts is also in the
 * browser's offline bundle (catalog/offline-services.ts), where it counts for nobody.
 */
export type DealEvaluationSite = 'cart' | 'page' | 'preview' | 'trace';

export const dealEvaluations: Record<DealEvaluationSite, number> = { cart: 0, page: 0, preview: 0, trace: 0 };

export function countDealEvaluation(where: DealEvaluationSite): void {
  dealEvaluations[where]++;
}
