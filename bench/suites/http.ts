import { load, type LoadResult } from '../lib/http-load.ts';
import { startBareServer, startServer } from '../lib/processes.ts';

/**
 * Foundation endpoints against the bare Node server: `GET /api/storeview` (target ≥ 50% of the
 * bare server's req/s), the catalogue search endpoint (target ≥ 40%) and the SSR home page of a returning shopper (target ≥ 1,000 req/s on
 * 2 cores; a returning shopper's page comes from the output cache, so a row with a new URL
 * per request also reports the full-render cost). Each server runs in its own process; the load generator runs in this one.
 */
export async function runHttpSuite() {
  const bare = await startBareServer();
  const server = await startServer();
  const host = 'downtown.localhost';
  const shopper = { host, cookie: 'verdant_age=1; verdant_license=recreational' };
  const rows: LoadResult[] = [];
  try {
    // Sanity: the pages answer what we think they answer before we time them.
    const home = await fetch(`http://127.0.0.1:${server.port}/`, { headers: shopper });
    const html = await home.text();
    if (home.status !== 200 || !html.includes('Verdant Downtown')) throw new Error(`home page answered ${home.status}`);

    rows.push(await load({ name: 'bare node http (baseline)', url: `http://127.0.0.1:${bare.port}/` }));
    rows.push(await load({ name: 'GET /api/storeview', url: `http://127.0.0.1:${server.port}/api/storeview?storeCode=downtown`, headers: { host } }));
    // Catalogue search over HTTP: typo'd text + category + a filter, with the default facets.
    rows.push(
      await load({
        name: 'GET /api/catalog/products (search)',
        url: `http://127.0.0.1:${server.port}/api/catalog/products?text=blu%20drem&category=menu%2Fflower&sizes=92&license_type=recreational&size=20`,
        headers: { host },
      }),
    );
    rows.push(await load({ name: 'GET / (SSR home)', url: `http://127.0.0.1:${server.port}/`, headers: shopper }));
    // Every request a new URL: no output-cache hit, so this is the cost of a full render.
    rows.push(await load({ name: 'GET /?n (SSR home, render)', url: `http://127.0.0.1:${server.port}/`, headers: shopper, uniqueQuery: true }));
  } finally {
    await Promise.all([bare.stop(), server.stop()]);
  }
  const baseline = rows[0].requestsPerSec;
  const table = rows.map((r) => ({ ...r, ratioToBare: Number((r.requestsPerSec / baseline).toFixed(3)) }));
  console.table(table.map((r) => ({ endpoint: r.name, 'req/s': r.requestsPerSec, 'p50 ms': r.p50Ms, 'p99 ms': r.p99Ms, 'x bare': r.ratioToBare, errors: r.errors + r.non2xx })));
  const byName = (name: string) => table.find((r) => r.name === name)!;
  const storeview = byName('GET /api/storeview');
  const search = byName('GET /api/catalog/products (search)');
  const ssr = byName('GET / (SSR home)');
  const render = byName('GET /?n (SSR home, render)');
  return {
    rows: table,
    targets: {
      storeviewAtLeastHalfOfBare: { target: 0.5, actual: storeview.ratioToBare, met: storeview.ratioToBare >= 0.5 },
      searchAtLeast40PercentOfBare: { target: 0.4, actual: search.ratioToBare, met: search.ratioToBare >= 0.4 },
      ssrHomeAtLeast1000rps: { target: 1000, actual: ssr.requestsPerSec, met: ssr.requestsPerSec >= 1000 },
      ssrHomeUncachedRender: { note: 'not a target: full render on every request', actual: render.requestsPerSec },
    },
  };
}
