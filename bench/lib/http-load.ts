import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  requests: number;
}

export interface LoadOptions {
  name: string;
  url: string;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  connections?: number;
  durationSec?: number;
  /** Add `?n=<counter>` to every request (defeats caches keyed by URL). */
  uniqueQuery?: boolean;
}

/** One autocannon run after a short warm-up (JIT, caches), reporting mean req/s and latency percentiles. */
let counter = 0;

export async function load(opts: LoadOptions): Promise<LoadResult> {
  const base = {
    url: opts.url,
    headers: opts.headers,
    method: opts.method ?? 'GET',
    body: opts.body,
    connections: opts.connections ?? 50,
    ...(opts.uniqueQuery
      ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: `${new URL(opts.url).pathname}?n=${++counter}` }) }] }
      : {}),
  };
  await autocannon({ ...base, duration: 2 });
  const r = await autocannon({ ...base, duration: opts.durationSec ?? Number(process.env.BENCH_SECONDS ?? 8) });
  return {
    name: opts.name,
    requestsPerSec: Math.round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    requests: r.requests.total,
  };
}
