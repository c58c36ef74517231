/**
 * @verdant/search — the catalogue query model (spec §7) and the in-process engine that runs in
 * Node and in the browser (no Node imports, no I/O). `createIndex(schema)` is the generic engine;
 * `catalog/` holds the entity schemas and the query builders of spec §7.
 */
export * from './constants.ts';
export type * from './types.ts';
export { SearchTermTooShortError, InvalidQueryError } from './errors.ts';

export { createIndex, DEFAULT_TEXT_OPTIONS } from './engine/create-index.ts';
export type { IndexSchema, ComputedFields, TextOptions } from './engine/schema.ts';
export { textTerms, processTerm } from './engine/text-index.ts';

export * from './catalog/documents.ts';
export * from './catalog/schemas.ts';
export * from './catalog/product-query.ts';
export * from './catalog/entity-queries.ts';
export { type PreparedProduct, type PricedAt, prepareProduct, pricedAt, productOnSale, specialWindowEdges } from './catalog/pricing.ts';
