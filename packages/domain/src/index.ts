export * from './money.ts';
export * from './dates.ts';
export * from './sizes.ts';
export * from './license.ts';
export * from './messages.ts';
export * from './store.ts';
export * from './store-resolution.ts';
export * from './catalog.ts';
