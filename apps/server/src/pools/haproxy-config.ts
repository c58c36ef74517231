/**
 * Issue 32: the HAProxy configuration of a deployment in pools (`npm run proxy-config`, ../cli/proxy-config.ts;
 * docs/operators/deployment.md "Pools behind a proxy" explains every choice and gives the nginx equivalent).
 *
 * Routing mirrors the server's own store resolution (packages/domain/src/store-resolution.ts), so the
 * proxy sends a request to the pool of the very store the node will resolve it to:
 *   1. a path whose first segment is a store code (`/harbor/…`, spec §2's store-code prefix);
 *   2. an `/api/…` call with `?storeCode=` naming a store;
 *   3. the host: `www.{domain}` of hostRules.wwwDomains, then the first host label — a legacy label
 *      (hostRules.renames), a store code, an alias, `shop` (hostRules.shopLabelStore);
 *   4. anything else (unknown hosts, IP addresses, no Host) → the default store's pool.
 * Paths that do not belong to one store's pages go to a backend of every node (`all_nodes`): the
 * console and its API, the integration API, the gateways' message callbacks, /api/health and the
 * API's documentation. Store names are matched with `-m str` ACLs, which HAProxy looks up in a tree,
 * so thousands of stores cost no more per request than four; long lists are split over several lines
 * of the same ACL (HAProxy ORs them).
 *
 * Inside a pool: `balance hdr(host)` + `hash-type consistent` (one host sticks to one node while it is
 * up; a node going down moves only its hosts); health checks `GET /api/health` expecting 200 every
 * `checkIntervalMs` (default 1 s), 250 ms apart once one failed (`fastinter`), `fall 2` / `rise 2`: a
 * dead node is out within about interval + interval/4 (+ the check timeout), and before that its
 * requests are already retried on the other node (`option redispatch 1`, `retries 3`).
 *
 * Retries (`retry-on`): a request that never reached a node (conn-failure) is always retried. Past
 * that — the node died with the request in hand (empty-response), or answered 502/503/504 — only
 * requests that may safely run twice are retried: GET/HEAD/OPTIONS, and `POST /api/order/save`,
 * whose idempotency key makes a repeat answer the first order (orders/place.ts: a completed key is
 * replayed, a concurrent one waits for the first transaction then replays it). Every other write
 * (cart, account, console) gets `http-request disable-l7-retry`: the client decides.
 */
import { resolveStoreFromHost, type StoresFile } from '@verdant/domain';
import type { PoolAssignment } from './pools.ts';

export interface HaproxyConfigOptions {
  stores: StoresFile;
  assignment: PoolAssignment;
  /** Where the proxy listens (ADDR:PORT); default `*:80`. */
  bind?: string;
  /** Health-check interval in milliseconds (`inter`); default 1000. */
  checkIntervalMs?: number;
  /** Named in the header comment. */
  source?: { storesFile?: string; poolsFile?: string };
}

export const DEFAULT_CHECK_INTERVAL_MS = 1000;
/** Consecutive failed checks before a node is taken out, and passed ones before it is back. */
export const CHECK_FALL = 2;
export const CHECK_RISE = 2;
/** The least a health check may take before it counts as failed (see `timeout check` below). */
export const CHECK_TIMEOUT_MIN_MS = 3000;

/** Paths served the same by every node (not one store's pages or catalogue). */
export const ANY_NODE_PATHS = ['/console', '/api/console', '/api/integration', '/api/messages', '/api/health', '/api/openapi.json', '/api/docs'];

export const backendOf = (pool: string) => `pool_${pool}`;
export const ALL_NODES = 'all_nodes';

/** The first-label → store code table of the host rules, in the server's order of precedence. */
export function labelTable(file: StoresFile): Map<string, string> {
  const labels = new Set<string>([...Object.keys(file.hostRules.renames), ...file.stores.flatMap((s) => [s.storeCode, ...s.aliases])]);
  if (file.hostRules.shopLabelStore) labels.add('shop');
  const table = new Map<string, string>();
  for (const label of labels) {
    // A made-up domain: only the first label matters to the rules below www-domains.
    const { store, resolvedBy } = resolveStoreFromHost(`${label}.example`, file);
    if (resolvedBy !== 'default') table.set(label, store.storeCode);
  }
  return table;
}

/** Every `www.{domain}` host of hostRules.wwwDomains → store code. */
export function wwwHostTable(file: StoresFile): Map<string, string> {
  const table = new Map<string, string>();
  for (const domain of Object.keys(file.hostRules.wwwDomains)) {
    const host = `www.${domain.toLowerCase()}`;
    const { store, resolvedBy } = resolveStoreFromHost(host, file);
    if (resolvedBy === 'www-domain') table.set(host, store.storeCode);
  }
  return table;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `acl name fetch -m str a b c` lines, 40 values a line; none when there are no values. */
function aclLines(name: string, fetch: string, values: string[]): string[] {
  return chunks(values, 40).map((part) => `    acl ${name} ${fetch} -m str ${part.join(' ')}`);
}

/** Group a key → store code table by the store's pool. */
function byPool(table: Map<string, string>, assignment: PoolAssignment): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [key, code] of table) {
    const pool = assignment.poolOf.get(code)!;
    out.set(pool, [...(out.get(pool) ?? []), key]);
  }
  return out;
}

export function haproxyConfig(options: HaproxyConfigOptions): string {
  const { stores, assignment } = options;
  const inter = options.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS;
  if (!Number.isInteger(inter) || inter < 100) throw new Error('the check interval is a whole number of milliseconds, at least 100');
  const fastinter = Math.max(100, Math.round(inter / 4));
  const bind = options.bind ?? '*:80';
  const defaultPool = assignment.poolOf.get(stores.defaultStoreCode)!;
  const codes = new Map(stores.stores.map((s) => [s.storeCode, s.storeCode]));
  const poolNames = assignment.pools.map((p) => p.name);

  const lines: string[] = [
    `# Written by \`npm run proxy-config\` (apps/server/src/pools/haproxy-config.ts); do not edit by hand, run it again.`,
    ...(options.source ? [`# Stores file: ${options.source.storesFile ?? '?'}; pools file: ${options.source.poolsFile ?? '?'}`] : []),
    `# Pools: ${assignment.pools.map((p) => `${p.name} (${plural(assignment.storesOf.get(p.name)!.length, 'store')}, ${plural(p.nodes.length, 'node')})`).join(', ')}.`,
    `# Health checks every ${inter} ms (${fastinter} ms after a failure), out after ${CHECK_FALL} failures, back after ${CHECK_RISE} passes.`,
    '',
    'global',
    // No maxconn: HAProxy derives it from the open-file limit (raise LimitNOFILE / ulimit -n for more).
    // One line per request on standard output (the journal under systemd); point it at syslog if you prefer.
    '    log stdout format raw local0 info',
    '',
    'defaults',
    '    mode http',
    '    log global',
    '    option httplog',
    '    option forwardfor',
    '    timeout connect 2s',
    '    timeout client 60s',
    // The console's event streams send a comment every 15 s (realtime/console-routes.ts): 60 s keeps them open.
    '    timeout server 60s',
    '    timeout http-request 10s',
    '    timeout queue 10s',
    // A node building a store's catalogue on its first requests answers its check late, not never: with a
    // check timeout of one interval two such nodes of a pool were taken out at once under load (HAProxy's
    // own 503s, seen in the rolling-restart test). A dead node refuses the connection at once, whatever this is.
    `    timeout check ${Math.max(inter, CHECK_TIMEOUT_MIN_MS)}ms`,
    '    retries 3',
    '    option redispatch 1',
    '    retry-on conn-failure empty-response junk-response response-timeout 502 503 504',
    `    default-server inter ${inter}ms fastinter ${fastinter}ms downinter ${inter}ms fall ${CHECK_FALL} rise ${CHECK_RISE}`,
    '',
    'frontend verdant',
    `    bind ${bind}`,
    '    # The route keys (packages/domain/src/store-resolution.ts): host without port, its first label,',
    '    # the first path segment, and ?storeCode= of API calls.',
    '    http-request set-var(txn.host) req.hdr(host),field(1,:),lower',
    '    http-request set-var(txn.label) var(txn.host),field(1,.)',
    '    http-request set-var(txn.seg) path,field(2,/),lower',
    '    http-request set-var(txn.code) url_param(storeCode),lower',
    '    # Retried past a connection failure only when running twice is harmless (see the header of haproxy-config.ts).',
    '    acl retry_safe method GET HEAD OPTIONS',
    '    acl retry_safe path /api/order/save',
    '    http-request disable-l7-retry if !retry_safe',
    '    acl api path_beg /api/',
    `    acl any_node path ${ANY_NODE_PATHS.join(' ')}`,
    `    acl any_node path_beg ${ANY_NODE_PATHS.map((p) => `${p}/`).join(' ')}`,
  ];
  const segs = byPool(codes, assignment);
  const www = byPool(wwwHostTable(stores), assignment);
  const labels = byPool(labelTable(stores), assignment);
  for (const pool of poolNames) {
    lines.push(...aclLines(`seg_${pool}`, 'var(txn.seg)', segs.get(pool) ?? []));
    lines.push(...aclLines(`code_${pool}`, 'var(txn.code)', segs.get(pool) ?? []));
    lines.push(...aclLines(`www_${pool}`, 'var(txn.host)', www.get(pool) ?? []));
    lines.push(...aclLines(`label_${pool}`, 'var(txn.label)', labels.get(pool) ?? []));
  }
  lines.push(`    use_backend ${ALL_NODES} if any_node`);
  for (const pool of poolNames) if (segs.get(pool)?.length) lines.push(`    use_backend ${backendOf(pool)} if seg_${pool}`);
  for (const pool of poolNames) if (segs.get(pool)?.length) lines.push(`    use_backend ${backendOf(pool)} if api code_${pool}`);
  for (const pool of poolNames) if (www.get(pool)?.length) lines.push(`    use_backend ${backendOf(pool)} if www_${pool}`);
  for (const pool of poolNames) if (labels.get(pool)?.length) lines.push(`    use_backend ${backendOf(pool)} if label_${pool}`);
  lines.push(`    # Unknown hosts, IP addresses: the default store (${stores.defaultStoreCode}).`, `    default_backend ${backendOf(defaultPool)}`, '');

  for (const pool of assignment.pools) {
    lines.push(
      `backend ${backendOf(pool.name)}`,
      `    # ${plural(assignment.storesOf.get(pool.name)!.length, 'store')}: ${assignment.storesOf.get(pool.name)!.slice(0, 20).join(', ')}${assignment.storesOf.get(pool.name)!.length > 20 ? ', …' : ''}`,
      '    balance hdr(host)',
      '    hash-type consistent',
      '    option httpchk GET /api/health',
      '    http-check expect status 200',
      ...pool.nodes.map((n) => `    server ${n.name} ${n.address} check`),
      '',
    );
  }
  lines.push(`backend ${ALL_NODES}`, '    # The console, the integration API, health: any node (their state is in the database and Redis).', '    balance leastconn');
  for (const pool of assignment.pools) for (const n of pool.nodes) lines.push(`    server ${n.name} ${n.address} track ${backendOf(pool.name)}/${n.name}`);
  lines.push('');
  return lines.join('\n');
}
