/** The deals engine of issue 28: records (model), product sets and eligibility (match), the engine and its words. See README.md. */
export * from './model.ts';
export * from './match.ts';
export * from './allocate.ts';
export * from './engine.ts';
export * from './words.ts';
export * from './demo-deals.ts';
export { prepareDeals, type PreparedDeals } from './prepare.ts';
export * from './shopper-view.ts';
export * from './price-display.ts';
export * from './schema.ts';
export * from './floor.ts';
