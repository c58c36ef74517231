export * from './allocate.ts';
export * from './tax.ts';
export * from './limits.ts';
