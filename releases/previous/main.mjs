// Written by scripts/build-server.mjs (see apps/server/src/env.ts).
process.env.NODE_ENV ??= 'production';
await import('./server.mjs');
