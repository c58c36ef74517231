/**
 * The console's API contract (issue 27): every request the store console sends to /api/console and
 * every answer it reads, declared once. The server validates requests with these zod schemas and
 * types its answers with these shapes (`satisfies`); the console imports the types (type-only, so
 * its bundle does not grow), so a field renamed on either side fails `npm run typecheck`.
 *
 * Paths in the comments are relative to /api/console. One file per area of the server.
 */
export * from './fields.ts';
export * from './staff.ts';
export * from './orders.ts';
export * from './menu.ts';
export * from './settings.ts';
export * from './live.ts';
export * from './integrations.ts';
export * from './deals.ts';
export * from './delivery.ts';
export * from './driver.ts';
export * from './delivery-records.ts';
export * from './reviews.ts';
export * from './customers.ts';
export * from './privacy.ts';
export * from './store-export.ts';
export * from './analytics.ts';
