/**
 * After `react-router build`: a gzip and a brotli copy of every compressible file of the client
 * build, next to it (`x.js.gz`, `x.js.br`). The server's static handler (@fastify/static with
 * `preCompressed`) sends the smallest one the browser accepts — no compression work per request,
 * and the best levels, since this runs once per build. The console's build does the same for its
 * assets (apps/server/src/console/serve.ts sends them).
 *   node scripts/compress-assets.mjs apps/web/build/client
 *   node scripts/compress-assets.mjs apps/console/dist/assets
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = path.resolve(process.argv[2] ?? 'apps/web/build/client');
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|webmanifest|txt|html)$/;
const MIN_BYTES = 1024;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

let count = 0;
let before = 0;
let after = 0;
for await (const file of files(root)) {
  if ((await stat(file)).size < MIN_BYTES) continue;
  const data = await readFile(file);
  const gz = gzipSync(data, { level: 9 });
  const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
  await writeFile(`${file}.gz`, gz);
  await writeFile(`${file}.br`, br);
  count++;
  before += data.length;
  after += br.length;
}
console.log(`compressed ${count} files: ${(before / 1024).toFixed(0)} KiB → ${(after / 1024).toFixed(0)} KiB (brotli)`);
