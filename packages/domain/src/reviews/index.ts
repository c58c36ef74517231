export * from './model.ts';
export * from './moderation.ts';
export * from './schema.ts';
