export * from './schema.ts';
export * from './rules.ts';
export * from './public.ts';
export * from './form.ts';
