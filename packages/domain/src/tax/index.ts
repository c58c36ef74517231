/**
 * Tax rules per store (issue 14): named tax lines (lines.ts) and ready-made ones (presets.ts).
 * The server reads a store's lines from its `tax` settings section and computes every cart and
 * order with `computeTaxLines`; the browser can compute the same figures from the same lines.
 */
export * from './lines.ts';
export { parseTaxSettings, taxLineSchema, taxSettingsSchema } from './schema.ts';
export * from './presets.ts';
export * from './display.ts';
export * from './share.ts';
