/**
 * Test support (not a test file): a real HAProxy on loopback in front of real nodes (issue 32).
 *
 * HAProxy comes from Debian's packages (`apt-get install haproxy`; `.ci/run` installs it as it installs
 * Chromium). A missing binary is an error, never a skip: the proxy tests are what shows that a store's
 * pool serves it, that a killed node's traffic moves and that a rolling restart loses nothing.
 *
 *   const proxy = await startHaproxy(configText, { waitPort: 8080 });
 *   await proxy.runtime('set server pool_east/east-1 state drain');
 *   await proxy.stop();
 *
 * The configuration is the caller's (normally what `npm run proxy-config` writes, with test ports); this
 * module only runs it in the foreground (`-db`), gives its runtime API (a `stats socket … level admin`
 * line is added to the `global` section when the text has none) and stops it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const HAPROXY_BIN = process.env.HAPROXY_BIN ?? '/usr/sbin/haproxy';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface RunningHaproxy {
  process: ChildProcess;
  /** The configuration file as HAProxy read it (with the admin socket added). */
  configFile: string;
  /** The runtime API's unix socket. */
  socket: string;
  /** Everything HAProxy printed so far. */
  output(): string;
  /** One runtime API command (`show stat`, `set server b/s state drain`, …); resolves with its answer. */
  runtime(command: string): Promise<string>;
  /** `show stat` parsed: one record per proxy/server line, keyed by the CSV header's names. */
  stats(): Promise<Array<Record<string, string>>>;
  /** The state HAProxy holds for one server (`UP`, `DOWN`, `MAINT`, `DRAIN`, `UP 1/2`, …). */
  serverStatus(backend: string, server: string): Promise<string>;
  stop(): Promise<void>;
}

/** Fails with a clear message when HAProxy is not installed (the tests need it; CI installs it). */
export function assertHaproxyInstalled(): void {
  if (!existsSync(HAPROXY_BIN)) {
    throw new Error(`${HAPROXY_BIN} is missing: install HAProxy from Debian's packages (apt-get install -y haproxy), as .ci/run does`);
  }
}

/** Start HAProxy with `config`; resolves once every port in `waitPorts` accepts connections. */
export async function startHaproxy(config: string, options: { waitPorts: number[]; startMs?: number }): Promise<RunningHaproxy> {
  assertHaproxyInstalled();
  const dir = mkdtempSync(join(tmpdir(), 'verdant-haproxy-'));
  const socket = join(dir, 'admin.sock');
  const text = /stats socket /.test(config) ? config : config.replace(/^global\s*$/m, `global\n    stats socket ${socket} mode 600 level admin`);
  if (!text.includes(socket) && !/stats socket /.test(config)) throw new Error('the HAProxy configuration has no global section');
  const configFile = join(dir, 'haproxy.cfg');
  writeFileSync(configFile, text);

  // Checked first, so a mistake in the text is told as HAProxy words it, not as a port that never opens.
  const check = spawnSync(HAPROXY_BIN, ['-c', '-f', configFile], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`HAProxy refused the configuration:\n${check.stdout}${check.stderr}\n--- ${configFile}\n${text}`);

  const child = spawn(HAPROXY_BIN, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  let gone = false;
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => {
      gone = true;
      resolve();
    }),
  );

  const started = performance.now();
  const limit = options.startMs ?? 15_000;
  for (const port of options.waitPorts) {
    for (;;) {
      if (gone) throw new Error(`HAProxy exited before listening on ${port}:\n${out}`);
      if (performance.now() - started > limit) {
        child.kill('SIGKILL');
        throw new Error(`HAProxy not listening on ${port} within ${limit} ms:\n${out}`);
      }
      if (await accepts(port)) break;
      await sleep(25);
    }
  }

  const runtime = (command: string) =>
    new Promise<string>((resolve, reject) => {
      const conn = net.connect(socket);
      let answer = '';
      conn.setEncoding('utf8');
      conn.on('connect', () => conn.write(`${command}\n`));
      conn.on('data', (d) => (answer += d));
      conn.on('error', reject);
      conn.on('close', () => resolve(answer));
    });

  const stats = async () => {
    const csv = (await runtime('show stat')).trim().split('\n');
    const header = csv[0]!.replace(/^# /, '').split(',');
    return csv.slice(1).map((line) => {
      const cells = line.split(',');
      return Object.fromEntries(header.map((name, i) => [name, cells[i] ?? '']));
    });
  };

  return {
    process: child,
    configFile,
    socket,
    output: () => out,
    runtime,
    stats,
    async serverStatus(backend, server) {
      const row = (await stats()).find((r) => r.pxname === backend && r.svname === server);
      if (!row) throw new Error(`HAProxy has no server ${backend}/${server}`);
      return row.status!;
    },
    async stop() {
      if (!gone) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const conn = net.connect(port, '127.0.0.1');
    conn.on('connect', () => {
      conn.destroy();
      resolve(true);
    });
    conn.on('error', () => resolve(false));
  });
}
