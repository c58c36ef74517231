/**
 * Every command the README and docs/ tell a reader to run exists, and every command-line tool says
 * how to use it: each `npm run <script>` is a script of the root package.json; each file a documented
 * `npx tsx …` / `node … <file>` runs exists; each command-line tool (the CLIs behind npm scripts, and
 * any documented file given a flag) answers `--help` with exit 0, and its help names every flag the
 * docs give it (in a command written in code, or anywhere in the table row that documents it).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeOf, DOC_FILES, readDoc, ROOT, tableRows } from './docs.ts';
import { compiledEntry, type CompiledEntry } from '../../apps/server/test-support/compiled.ts';
// @ts-expect-error: a plain .mjs script without types.
import { SERVER_ENTRIES } from '../build-server.mjs';

const scripts: Record<string, string> = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;

/** npm scripts that are command-line tools (the others start, build or test). */
const CLI_SCRIPTS = ['seed', 'migrate', 'staff', 'import', 'api-key', 'bench', 'analytics', 'proxy-config'];

/** A tool as the docs name it: `npm run seed` or a file run by tsx/node, e.g. `bench/lib/journey-queries.ts`. */
type Tool = string;

/** One documented command: the tool and the flags given to it. */
export function commandsIn(code: string): { tool: Tool; flags: string[] }[] {
  const out: { tool: Tool; flags: string[] }[] = [];
  for (const part of code.split(/&&|\|\||;|\s#\s|\s\|\s/)) {
    const m =
      /\bnpm run ([a-z][a-z0-9:-]*)(.*)$/.exec(part) ??
      /\b(?:npx tsx|node(?: --[a-z-]+(?:=\S+)?| --import tsx)*)\s+((?:apps|bench|scripts|packages|e2e)\/\S+\.(?:ts|mts|mjs|js))(.*)$/.exec(part);
    if (!m) continue;
    const tool = part.includes('npm run') ? `npm run ${m[1]}` : m[1];
    const flags = [...m[2].matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((f) => `--${f[1]}`);
    out.push({ tool, flags });
  }
  return out;
}

/** Every documented command, with the flags the docs give each tool (and where). */
function documented(): Map<Tool, Map<string, string>> {
  const tools = new Map<Tool, Map<string, string>>();
  const add = (tool: Tool, flags: string[], where: string) => {
    const known = tools.get(tool) ?? new Map<string, string>();
    for (const f of flags) if (!known.has(f)) known.set(f, where);
    tools.set(tool, known);
  };
  for (const file of DOC_FILES) {
    const text = readDoc(file);
    for (const code of codeOf(text)) for (const c of commandsIn(code)) add(c.tool, c.flags, file);
    // A table row that documents a tool (its first cell names it) gives it every flag the row names.
    for (const row of tableRows(text)) {
      const first = row.split('|')[1] ?? '';
      const named = commandsIn(first.replace(/`/g, ''))[0];
      if (!named) continue;
      const flags = [...row.matchAll(/`([^`]*)`/g)].flatMap((s) =>
        s[1].trim().startsWith('--') || s[1].includes(named.tool) ? [...s[1].matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((f) => `--${f[1]}`) : [],
      );
      add(named.tool, flags, `${file} (table row)`);
    }
  }
  return tools;
}

/**
 * How to run a tool's `--help`: an npm script's node command (after its build step), or the file with
 * tsx; a server CLI as this run compiled it (apps/server/test-support/compiled.ts), which is the same
 * source without tsx's compile in every child.
 */
function helpCommand(tool: Tool): string[] {
  let file = tool;
  if (tool.startsWith('npm run ')) {
    const script = scripts[tool.slice('npm run '.length)];
    const last = script.split('&&').at(-1)!.trim();
    const m = /^node --import tsx (\S+)$/.exec(last);
    if (!m) throw new Error(`${tool} is not a node script: ${script}`);
    file = m[1];
  }
  const compiled = Object.entries(SERVER_ENTRIES).find(([, source]) => source === file)?.[0];
  if (compiled && compiled !== 'server') return ['node', compiledEntry(compiled as CompiledEntry), '--help'];
  return ['node', '--import', 'tsx', file, '--help'];
}

const tools = documented();

describe('documented commands exist', () => {
  it('finds the commands of the docs', () => {
    expect(commandsIn('BENCH_ONLY=scale npm run bench -- --x && npx tsx bench/lib/journey-queries.ts --sql # --not')).toEqual([
      { tool: 'npm run bench', flags: ['--x'] },
      { tool: 'bench/lib/journey-queries.ts', flags: ['--sql'] },
    ]);
    expect(commandsIn('node --expose-gc --import tsx bench/lib/catalog-memory.ts /tmp/x 10')).toEqual([
      { tool: 'bench/lib/catalog-memory.ts', flags: [] },
    ]);
    for (const cli of CLI_SCRIPTS) expect(tools.has(`npm run ${cli}`), cli).toBe(true);
  });

  it('every `npm run <script>` of the docs is a script of package.json', () => {
    const named = new Set<string>();
    for (const file of DOC_FILES)
      for (const m of readDoc(file).matchAll(/\bnpm run ([a-z][a-z0-9:-]*[a-z0-9])/g)) named.add(m[1]);
    expect(named.size).toBeGreaterThan(8);
    expect([...named].filter((s) => !(s in scripts))).toEqual([]);
  });

  it('every file a documented command runs exists', () => {
    const files = [...tools.keys()].filter((t) => !t.startsWith('npm run '));
    expect(files).toContain('bench/lib/journey-queries.ts');
    expect(files.filter((f) => !existsSync(path.join(ROOT, f)))).toEqual([]);
  });
});

describe('benchmark suites', () => {
  const run = readFileSync(path.join(ROOT, 'bench/run.ts'), 'utf8');
  const plain = [...run.matchAll(/\bwanted\('([a-z0-9-]+)'\)/g)].map((m) => m[1]);
  const named = [...run.matchAll(/\bonly\.has\('([a-z0-9-]+)'\)/g)].map((m) => m[1]);
  const doc = readDoc('docs/developers/benchmarks.md');
  const list = (label: string) => {
    const m = new RegExp(`${label}([^.]*)\\.`).exec(doc.replace(/\s+/g, ' '));
    return m ? [...m[1].matchAll(/`([a-z0-9-]+)`/g)].map((s) => s[1]) : [];
  };

  it('the suites of bench/run.ts are the suites docs/developers/benchmarks.md lists, each described', () => {
    expect(plain.length).toBeGreaterThan(10);
    expect(list('The plain run:').sort()).toEqual([...plain].sort());
    expect(list('Only when named in `BENCH_ONLY`:').sort()).toEqual([...named].sort());
    for (const suite of [...plain, ...named]) expect(doc, suite).toMatch(new RegExp(`^- \`${suite}\``, 'm'));
  });
});

// The tools to ask: every CLI script, and every documented file the docs give a flag.
const withHelp = [
  ...CLI_SCRIPTS.map((s) => `npm run ${s}`),
  ...[...tools].filter(([t, flags]) => !t.startsWith('npm run ') && flags.size > 0).map(([t]) => t),
];

/** Each tool's `--help` (a bench file's start compiles its imports with tsx: seconds, minutes on a loaded machine). */
function askHelp(tool: Tool): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const [cmd, ...args] = helpCommand(tool);
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: ROOT, encoding: 'utf8', timeout: 300_000, env: { ...process.env, LOG_LEVEL: 'silent' } }, (error, stdout, stderr) =>
      resolve({
        status: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
        stdout,
        stderr: error && typeof error.code !== 'number' ? `${stderr}\n${error.message} (signal ${error.signal ?? 'none'})` : stderr,
      }),
    );
  });
}

describe('each command-line tool answers --help', () => {
  const answers = new Map<Tool, Awaited<ReturnType<typeof askHelp>>>();
  beforeAll(async () => {
    // Two at a time: as many as the machines this runs on have cores.
    const queue = [...withHelp];
    const worker = async () => {
      for (let tool = queue.shift(); tool; tool = queue.shift()) answers.set(tool, await askHelp(tool));
    };
    await Promise.all([worker(), worker()]);
  }, 900_000);

  it.each(withHelp)('%s --help exits 0 and names every documented flag', (tool) => {
    const res = answers.get(tool)!;
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/usage/i);
    const missing = [...(tools.get(tool) ?? new Map<string, string>())]
      .filter(([flag]) => flag !== '--help' && !new RegExp(`(?<![\\w-])${flag}(?![\\w-])`).test(res.stdout))
      .map(([flag, where]) => `${flag} (documented in ${where})`);
    expect(missing).toEqual([]);
    if (tool === 'npm run bench')
      for (const suite of [...readFileSync(path.join(ROOT, 'bench/run.ts'), 'utf8').matchAll(/\b(?:wanted|only\.has)\('([a-z0-9-]+)'\)/g)])
        expect(res.stdout, suite[1]).toMatch(new RegExp(`(?<![\\w-])${suite[1]}(?![\\w-])`));
  });
});
