/**
 * Summarise a V8 .cpuprofile (node --cpu-prof): self time by function and by file (node_modules
 * grouped by package, Node's internals as one), and inclusive time of the repository's own
 * functions (time with the function anywhere on the stack), so a start-up profile reads as "what
 * the time went on" without opening DevTools.
 *
 *   npx tsx bench/lib/cpuprofile-summary.ts bench/results/scale-profile/CPU.….cpuprofile [top] [from seconds]
 *
 * `from seconds` leaves out the samples of the profile's first seconds (a 4/20 node's start and
 * catalogue priming before the load).
 */
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface CpuProfileSummary {
  totalMs: number;
  byFile: { file: string; selfMs: number; pct: number }[];
  byFunction: { fn: string; selfMs: number; pct: number }[];
  /** Repository functions (apps/, packages/) by inclusive time. */
  inclusive: { fn: string; totalMs: number; pct: number }[];
}

const REPO = path.resolve(import.meta.dirname, '../..');

function fileOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  if (url.startsWith('node:')) return 'node: internals';
  const p = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const nm = p.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = p.slice(nm + '/node_modules/'.length).split('/');
    return `node_modules/${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  return p.startsWith(REPO) ? path.relative(REPO, p) : p;
}

export function summariseCpuProfile(file: string, top = 25, fromMs = 0): CpuProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let atUs = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    atUs += delta;
    if (atUs >= fromMs * 1000) self.set(id, (self.get(id) ?? 0) + delta);
  });
  const totalUs = [...self.values()].reduce((a, b) => a + b, 0);

  const fileTimes = new Map<string, number>();
  const fnTimes = new Map<string, number>();
  const label = (n: ProfileNode) => {
    const f = fileOf(n.callFrame.url, n.callFrame.functionName);
    // Line numbers of modules tsx compiled are not the source's (0 for most): only real ones are shown.
    return `${n.callFrame.functionName || '(anonymous)'} ${f}${n.callFrame.url && n.callFrame.lineNumber > 0 ? `:${n.callFrame.lineNumber + 1}` : ''}`;
  };
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    const f = fileOf(n.callFrame.url, n.callFrame.functionName);
    fileTimes.set(f, (fileTimes.get(f) ?? 0) + us);
    const fn = label(n);
    fnTimes.set(fn, (fnTimes.get(fn) ?? 0) + us);
  }

  // Inclusive: each node's self time counted once for every distinct repository function above it.
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)!;
      const f = fileOf(n.callFrame.url, n.callFrame.functionName);
      if (!/^(apps|packages)\//.test(f)) continue;
      const fn = label(n);
      if (seen.has(fn)) continue;
      seen.add(fn);
      inclusive.set(fn, (inclusive.get(fn) ?? 0) + us);
    }
  }

  const ms = (us: number) => Math.round(us / 100) / 10;
  const pct = (us: number) => Math.round((us / totalUs) * 1000) / 10;
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    totalMs: ms(totalUs),
    byFile: sorted(fileTimes).map(([file, us]) => ({ file, selfMs: ms(us), pct: pct(us) })),
    byFunction: sorted(fnTimes).map(([fn, us]) => ({ fn, selfMs: ms(us), pct: pct(us) })),
    inclusive: sorted(inclusive).map(([fn, us]) => ({ fn, totalMs: ms(us), pct: pct(us) })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = summariseCpuProfile(process.argv[2], Number(process.argv[3] ?? 25), Number(process.argv[4] ?? 0) * 1000);
  console.log(`total sampled: ${s.totalMs} ms`);
  console.table(s.byFile);
  console.table(s.byFunction);
  console.table(s.inclusive);
}
