import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Repository root, found from this file so that commands work from any working directory. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DEMO_STORES_FILE = path.join(REPO_ROOT, 'apps/server/config/stores.demo.json');
export const WEB_BUILD_DIR = path.join(REPO_ROOT, 'apps/web/build');

/**
 * Every environment variable the server reads (the README lists the same table).
 * Unset or empty values take the defaults; a bad value stops the server with its name.
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  STORES_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().default('production'),
});

export interface ServerConfig {
  port: number;
  host: string;
  /** Absolute path of the data directory (SQLite file, media, private uploads). */
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** Absolute path of the stores file. */
  storesFile: string;
  /** True when the bundled demo stores are in use (the demo catalogue is seeded on first start). */
  demoMode: boolean;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  production: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const storesFile = e.STORES_FILE ? path.resolve(cwd, e.STORES_FILE) : DEMO_STORES_FILE;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    storesFile,
    demoMode: storesFile === DEMO_STORES_FILE,
    logLevel: e.LOG_LEVEL,
    production: e.NODE_ENV === 'production',
  };
}
