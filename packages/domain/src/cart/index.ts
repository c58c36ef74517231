export * from './allocate.ts';
export * from './tax.ts';
export * from './limits.ts';
export * from './totals.ts';
export * from './reconcile.ts';
export * from './messages.ts';
