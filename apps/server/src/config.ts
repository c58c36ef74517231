import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Repository root, found from this file so that commands work from any working directory. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DEMO_STORES_FILE = path.join(REPO_ROOT, 'apps/server/config/stores.demo.json');
export const WEB_BUILD_DIR = path.join(REPO_ROOT, 'apps/web/build');

/**
 * Every environment variable the server reads (docs/operators/environment.md lists the same table, checked by
 * scripts/docs-drift/env-table.test.ts).
 * Unset or empty values take the defaults; a bad value stops the server with its name.
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Issue 15: how many store catalogues one node keeps loaded (0: unlimited), and stores built in the background at start.
  // 20: after touching all 150 stores of 150 × 2,000 the RSS stayed under 1.1 GiB; 30 reached 1.49 GiB, 40 2.2 GiB (bench/SCALE.md, "Memory per product").
  CATALOG_MAX_STORES: z.coerce.number().int().min(0).default(20),
  // `*`: every store of this node's pool (issue 32), or every store without POOLS_FILE, up to CATALOG_MAX_STORES.
  CATALOG_WARM_STORES: z
    .string()
    .regex(/^(\*|[A-Za-z0-9_, -]*)$/, 'store codes separated by commas, or *')
    .optional(),
  /**
   * Issue 32: the deployment's pools of nodes (src/pools/pools.ts; docs/operators/deployment.md "Pools
   * behind a proxy"): with it, NODE_POOL names this node's pool, whose stores' catalogues it loads and
   * warms; other stores are still served (built on demand, counted as foreign). Unset: one pool of all.
   */
  POOLS_FILE: z.string().min(1).optional(),
  NODE_POOL: z.string().min(1).optional(),
  /** This node's name in the `X-Verdant-Node` response header (with POOLS_FILE: default the host name). */
  NODE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,63}$/, 'letters, digits, ".", "_" and "-" (at most 63)')
    .optional(),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /** Issue 32: PostgreSQL connections one process may open (nodes × this ≤ the server's max_connections, or a PgBouncer). */
  PG_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  /**
   * Namespace of every Redis key and channel this deployment uses (rate-limit counters, catalogue
   * change notices). Deployments — or test runs — sharing one Redis must each have their own, or
   * they count each other's login-code sends and hear each other's catalogue changes.
   */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'letters, digits, ":", "_", ".", "-" (at most 64)')
    .default('verdant:'),
  /**
   * Whose forwarded headers to believe (X-Forwarded-For/-Host/-Proto): unset = nobody (the socket's
   * address is the client; right when the server faces the internet), `true` = any hop, a number =
   * that many proxy hops, or comma-separated proxy addresses/CIDRs. Per-IP login and reset limits
   * count `request.ip`, so trusting headers nobody vouches for lets a client pick its own address.
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2}|[0-9a-fA-F:.,/ ]+)$/, 'true, false, a hop count, or proxy addresses/CIDRs')
    .optional(),
  STORES_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().default('production'),
  /**
   * HS256 key of customer tokens (at least 32 characters). Optional on one node: a random secret is
   * then generated once into DATA_DIR/auth-secret (mode 0600) so restarts keep sessions. Several
   * nodes behind one load balancer MUST set the same AUTH_SECRET, or a token of one node is
   * refused by the others.
   */
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Where login codes go: `outbox` (memory + log; the demo shows the code) or `http` (POST to SMS_HTTP_URL). */
  SMS_PROVIDER: z.enum(['outbox', 'http']).default('outbox'),
  SMS_HTTP_URL: z.string().url().optional(),
  /** Where mails (password reset links) go: `outbox` (memory + log) or `http` (POST JSON to MAIL_HTTP_URL). */
  MAIL_PROVIDER: z.enum(['outbox', 'http']).default('outbox'),
  MAIL_HTTP_URL: z.string().url().optional(),
  /**
   * Issue 30: the shared secret SMS and mail gateways send as `Authorization: Bearer …` on the
   * delivery-status callbacks and the inbound-SMS route (`/api/messages/…`); unset: those routes
   * answer 404 and nothing waits for a receipt.
   */
  MESSAGE_STATUS_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** `true`: the SMS gateway calls the status route back, so a text it took with an id waits for a receipt (and falls back to e-mail without one). */
  SMS_RECEIPTS: z.enum(['true', 'false']).default('false'),
  /** The same for the mail gateway (a mail without a receipt falls back to SMS). */
  MAIL_RECEIPTS: z.enum(['true', 'false']).default('false'),
  /** How long a message waits for its receipt before the fallback goes (default 900 = 15 min). */
  MESSAGE_RECEIPT_WAIT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /**
   * `false`: serve the API only, without the React Router build (an API node behind a separate
   * storefront, or the multi-node tests, which run before the storefront is built).
   */
  SERVE_STOREFRONT: z.enum(['true', 'false']).default('true'),
  /**
   * Issue 32: where Prometheus reads /metrics. METRICS_TOKEN: on the node's port, with
   * `Authorization: Bearer <token>`. METRICS_PORT: a second listener on METRICS_HOST (default
   * 127.0.0.1) with no token. Neither: not served.
   */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Issue 32, graceful shutdown (http/graceful-shutdown.ts): after SIGTERM the node answers its health
   * check 503 ("draining") and serves everything else for SHUTDOWN_DRAIN_MS, so the proxy's health
   * check takes it out (≥ the proxy's check interval × fall, e.g. HAProxy `inter 2s fall 3` → 6 s;
   * default 8000 in production, 0 otherwise: `npm run dev` restarts at every change); then it stops
   * accepting and gives what is in flight SHUTDOWN_GRACE_MS (default 30000) before it closes the
   * connections left.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  // Issue 28: the demo stores' deals on first start (demo stores file only). `false`: they start
  // without deals — the browser journeys run so, their totals being about what each one tests;
  // journeys and tests about deals write their own.
  DEMO_DEALS: z.enum(['true', 'false']).default('true'),
});

export interface ServerConfig {
  port: number;
  host: string;
  /** Absolute path of the data directory (SQLite file, media, private uploads). */
  dataDir: string;
  databaseUrl?: string;
  /** PG_POOL_MAX */
  pgPoolMax: number;
  redisUrl?: string;
  /** REDIS_PREFIX: namespace of this deployment's Redis keys and channels (default `verdant:`). */
  redisPrefix?: string;
  /** Fastify's trustProxy from TRUST_PROXY (default false: forwarded headers are ignored). */
  trustProxy?: boolean | number | string;
  /** Absolute path of the stores file. */
  storesFile: string;
  /** True when the bundled demo stores are in use (the demo catalogue is seeded on first start). */
  demoMode: boolean;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  production: boolean;
  /** AUTH_SECRET; when unset the accounts module keeps a generated one in DATA_DIR/auth-secret. */
  authSecret?: string;
  smsProvider?: 'outbox' | 'http';
  smsHttpUrl?: string;
  mailProvider?: 'outbox' | 'http';
  mailHttpUrl?: string;
  /** MESSAGE_STATUS_SECRET: bearer of the gateways' status callbacks and inbound SMS (issue 30). */
  messageStatusSecret?: string;
  /** SMS_RECEIPTS / MAIL_RECEIPTS: the gateway reports delivery through the status route. */
  smsReceipts?: boolean;
  mailReceipts?: boolean;
  /** MESSAGE_RECEIPT_WAIT_SECONDS: the wait for a receipt before the fallback (default 900). */
  messageReceiptWaitSeconds?: number;
  /** SERVE_STOREFRONT: false serves the API only (no storefront build needed). */
  serveStorefront: boolean;
  /** METRICS_TOKEN: /metrics on the node's port behind this bearer token (issue 32). */
  metricsToken?: string;
  /** METRICS_PORT / METRICS_HOST: /metrics on a listener of its own, no token. */
  metricsPort?: number;
  metricsHost?: string;
  /** DEMO_DEALS: the demo deals are seeded with the demo catalogue (default true). */
  demoDeals?: boolean;
  /** CATALOG_MAX_STORES: loaded store catalogues per node (least recently used dropped beyond); 0 = unlimited. Unset in buildApp: unlimited. */
  catalogMaxStores?: number;
  /** CATALOG_WARM_STORES: store codes whose catalogue is built in the background at start (`*`: all of the node's pool). */
  catalogWarmStores?: string[];
  /** SHUTDOWN_DRAIN_MS: after SIGTERM, health answers 503 while the rest is served this long. */
  shutdownDrainMs: number;
  /** SHUTDOWN_GRACE_MS: then in-flight requests get this long before their connections are closed. */
  shutdownGraceMs: number;
  /** POOLS_FILE (absolute): the deployment's pools; NODE_POOL: this node's (checked against the file at start, main.ts). */
  poolsFile?: string;
  nodePool?: string;
  /** NODE_NAME: the X-Verdant-Node header's value. */
  nodeName?: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.SMS_PROVIDER === 'http' && !e.SMS_HTTP_URL)
    throw new Error('Invalid environment:\n  SMS_HTTP_URL: required when SMS_PROVIDER=http');
  if (e.MAIL_PROVIDER === 'http' && !e.MAIL_HTTP_URL)
    throw new Error('Invalid environment:\n  MAIL_HTTP_URL: required when MAIL_PROVIDER=http');
  if ((e.SMS_RECEIPTS === 'true' || e.MAIL_RECEIPTS === 'true') && !e.MESSAGE_STATUS_SECRET)
    throw new Error('Invalid environment:\n  MESSAGE_STATUS_SECRET: required when SMS_RECEIPTS or MAIL_RECEIPTS is true');
  const storesFile = e.STORES_FILE ? path.resolve(cwd, e.STORES_FILE) : DEMO_STORES_FILE;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    pgPoolMax: e.PG_POOL_MAX,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    storesFile,
    demoMode: storesFile === DEMO_STORES_FILE,
    logLevel: e.LOG_LEVEL,
    production: e.NODE_ENV === 'production',
    authSecret: e.AUTH_SECRET,
    smsProvider: e.SMS_PROVIDER,
    smsHttpUrl: e.SMS_HTTP_URL,
    mailProvider: e.MAIL_PROVIDER,
    mailHttpUrl: e.MAIL_HTTP_URL,
    messageStatusSecret: e.MESSAGE_STATUS_SECRET,
    smsReceipts: e.SMS_RECEIPTS === 'true' && e.SMS_PROVIDER === 'http',
    mailReceipts: e.MAIL_RECEIPTS === 'true' && e.MAIL_PROVIDER === 'http',
    messageReceiptWaitSeconds: e.MESSAGE_RECEIPT_WAIT_SECONDS,
    serveStorefront: e.SERVE_STOREFRONT === 'true',
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    demoDeals: e.DEMO_DEALS === 'true',
    catalogMaxStores: e.CATALOG_MAX_STORES,
    catalogWarmStores: (e.CATALOG_WARM_STORES ?? '')
      .split(',')
      .map((c) => c.trim().toLowerCase())
      .filter(Boolean),
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS ?? (e.NODE_ENV === 'production' ? 8_000 : 0),
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    poolsFile: e.POOLS_FILE ? path.resolve(cwd, e.POOLS_FILE) : undefined,
    nodePool: e.NODE_POOL,
    nodeName: e.NODE_NAME,
  };
}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
    .join(',');
}
