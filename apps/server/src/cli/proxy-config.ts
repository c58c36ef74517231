/**
 * `npm run proxy-config -- --pools pools.json [--stores stores.json] [--out haproxy.cfg] [--bind ADDR:PORT] [--check-interval MS]`
 * (issue 32): the HAProxy configuration of a deployment in pools, from the stores file (--stores,
 * else STORES_FILE, else the demo file) and the pools file (--pools, else POOLS_FILE). Written to
 * --out, or printed. What it routes where: ../pools/haproxy-config.ts; docs/operators/deployment.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runWhenMain } from './run.ts';
import { DEMO_STORES_FILE } from '../config.ts';
import { StoreRegistry } from '../stores/registry.ts';
import { readPoolsFile } from '../pools/pools.ts';
import { DEFAULT_CHECK_INTERVAL_MS, haproxyConfig } from '../pools/haproxy-config.ts';

export const PROXY_CONFIG_USAGE = [
  'Usage: npm run proxy-config -- --pools pools.json [--stores stores.json] [--out haproxy.cfg] [--bind ADDR:PORT] [--check-interval MS]',
  '  --pools FILE           the pools file (default: POOLS_FILE)',
  '  --stores FILE          the stores file (default: STORES_FILE, else the demo stores)',
  '  --out FILE             write the configuration there (default: print it)',
  '  --bind ADDR:PORT       where HAProxy listens (default *:80)',
  `  --check-interval MS    health-check interval (default ${DEFAULT_CHECK_INTERVAL_MS}; a dead node is out after about 1.25 × MS)`,
].join('\n');

export function proxyConfigText(argv: string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): { text: string; out?: string; help?: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      pools: { type: 'string' },
      stores: { type: 'string' },
      out: { type: 'string' },
      bind: { type: 'string' },
      'check-interval': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { text: `${PROXY_CONFIG_USAGE}\n`, help: true };
  const poolsFile = values.pools ?? env.POOLS_FILE;
  if (!poolsFile) throw new Error(`--pools (or POOLS_FILE) is required.\n${PROXY_CONFIG_USAGE}`);
  const storesFile = values.stores ?? env.STORES_FILE;
  const storesPath = storesFile ? path.resolve(cwd, storesFile) : DEMO_STORES_FILE;
  const poolsPath = path.resolve(cwd, poolsFile);
  const interval = values['check-interval'] === undefined ? DEFAULT_CHECK_INTERVAL_MS : Number(values['check-interval']);
  if (!Number.isInteger(interval) || interval < 100) throw new Error(`--check-interval: a whole number of milliseconds, at least 100.\n${PROXY_CONFIG_USAGE}`);
  if (values.bind !== undefined && !/^(\*|[A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):\d{1,5}$/.test(values.bind))
    throw new Error(`--bind: ADDR:PORT (e.g. *:80 or 127.0.0.1:8080).\n${PROXY_CONFIG_USAGE}`);
  const registry = StoreRegistry.fromFile(storesPath);
  const assignment = readPoolsFile(poolsPath, registry.file);
  const text = haproxyConfig({
    stores: registry.file,
    assignment,
    bind: values.bind,
    checkIntervalMs: interval,
    source: { storesFile: storesPath, poolsFile: poolsPath },
  });
  return { text, out: values.out && path.resolve(cwd, values.out) };
}

runWhenMain(import.meta.url, async () => {
  const { text, out, help } = proxyConfigText(process.argv.slice(2));
  if (!out || help) {
    process.stdout.write(text);
    return;
  }
  fs.writeFileSync(out, text);
  console.error(`HAProxy configuration written to ${out} (check it with: haproxy -c -f ${out}).`);
});
