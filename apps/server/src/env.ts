// Imported first by main.ts: React and React Router choose their production builds from
// NODE_ENV when they are first loaded, so it must be set before anything imports them.
process.env.NODE_ENV ??= 'production';
